import { uploadsDb } from './upload-db';

/**
 * The file of a queued upload, while the queue still holds it: the uploader's card plays it while
 * the server processes the video (docs/pwa.md, "Feed"). Null once the queue has dropped it.
 */
export async function readQueuedFile(videoId: string): Promise<Blob | null> {
  const record = await uploadsDb().uploads.get(videoId);
  return record?.file ?? null;
}

/** A finished upload's file is kept at most this long, in case its video never reaches the feed. */
export const LOCAL_COPY_MAX_AGE_MS = 24 * 3600 * 1000;

/**
 * Drops the files of finished uploads that are no longer needed: the video's processing ended
 * (ready or failed, as the feed shows it), or the upload finished over a day ago.
 */
export async function forgetProcessedUploads(feed: ReadonlyArray<{ id: string; media_status: string }>, now = Date.now()): Promise<void> {
  const ended = new Set(feed.filter((v) => v.media_status !== 'processing').map((v) => v.id));
  await uploadsDb()
    .uploads.where('status')
    .equals('done')
    .filter((r) => ended.has(r.videoId) || (r.doneAt ?? 0) < now - LOCAL_COPY_MAX_AGE_MS)
    .delete();
}
