import { uploadsDb } from './upload-db';

/**
 * The file of a queued upload, while the queue still holds it: the uploader's card plays it while
 * the server processes the video (docs/pwa.md, "Feed"). Null once the queue has dropped it.
 */
export async function readQueuedFile(videoId: string): Promise<Blob | null> {
  const record = await uploadsDb().uploads.get(videoId);
  return record?.file ?? null;
}
