import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { uploadsDb, type UploadRecord } from './upload-db';
import { forgetProcessedUploads, LOCAL_COPY_MAX_AGE_MS, readQueuedFile } from './local-file';

function record(videoId: string, status: UploadRecord['status'], doneAt?: number): UploadRecord {
  return {
    videoId,
    userId: 'u1',
    userName: 'Uma',
    title: videoId,
    description: '',
    file: new Blob(['bytes'], { type: 'video/mp4' }),
    fileName: `${videoId}.mp4`,
    fileType: 'video/mp4',
    size: 5,
    durationMs: 1000,
    posterBlob: null,
    posterSent: false,
    tusUrl: null,
    bytesSent: status === 'done' ? 5 : 0,
    status,
    error: null,
    createdAt: 1,
    ...(doneAt === undefined ? {} : { doneAt }),
  };
}

describe('the local copy of a finished upload', () => {
  it('stays while its video processes and goes once the feed shows it ready or failed, or after a day', async () => {
    const now = Date.now();
    const db = uploadsDb();
    await db.uploads.bulkPut([
      record('processing', 'done', now),
      record('ready', 'done', now),
      record('failed', 'done', now),
      record('not-in-feed', 'done', now),
      record('old', 'done', now - LOCAL_COPY_MAX_AGE_MS - 1),
      record('still-uploading', 'uploading'),
    ]);
    await forgetProcessedUploads(
      [
        { id: 'processing', media_status: 'processing' },
        { id: 'ready', media_status: 'ready' },
        { id: 'failed', media_status: 'failed' },
        { id: 'still-uploading', media_status: 'ready' },
      ],
      now,
    );
    expect((await db.uploads.toArray()).map((r) => r.videoId).sort()).toEqual(['not-in-feed', 'processing', 'still-uploading']);
    expect(await readQueuedFile('processing')).not.toBeNull();
    expect(await readQueuedFile('ready')).toBeNull();
  });
});
