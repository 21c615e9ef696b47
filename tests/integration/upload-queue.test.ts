import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { markAllProcessed } from '../helpers/media-processed';
import { createUploadRaw, listen, sha256, terminateUnfinished, type LoopbackServer } from '../fixtures/tus-client';
import { mp4Faststart, mp4TwoMegabytes, posterJpeg, textAsMp4 } from '../fixtures/videos';
import { UploadsDb, type UploadRecord } from '#client/sync/uploads/upload-db';
import { UploadQueue, type NewUpload, type UploadQueueOptions } from '#client/sync/uploads/upload-queue';

/** tus-js-client's Node build reads Buffers and streams; the browser hands it Blobs from IndexedDB. */
const blobReader = {
  async openFile(input: Blob) {
    return {
      size: input.size,
      async slice(start: number, end: number) {
        const part = Object.assign(Buffer.from(await input.slice(start, Math.min(end, input.size)).arrayBuffer()), { size: 0 });
        part.size = part.length;
        return { value: part, done: end >= input.size };
      },
      close() {},
    };
  },
};

/**
 * A fresh database on fake-indexeddb, passed to Dexie rather than installed as a global: files share a
 * worker's modules (vitest.config.ts, isolate), and Dexie reads the global IndexedDB once, when loaded.
 */
function newUploadsDb(): UploadsDb {
  return new UploadsDb(`q-${randomUUID()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

// The browser's upload queue (client/features/upload) against the real server, with IndexedDB
// from fake-indexeddb: what survives in the database is what a reloaded app resumes from.
describe('the client upload queue against the real server', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let user: TestUser;
  let online = true;

  beforeAll(async () => {
    t = await createTestApp();
    srv = await listen(t);
    user = await createUser(t.deps, { name: 'Quinn' });
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });
  // A member may have only 3 videos in processing, and no runner runs here.
  afterEach(async () => {
    await terminateUnfinished(t, srv.url);
    await markAllProcessed(t.deps);
  });

  /** Every poster PUT the queues made (video ids), and a hook that runs before each one is sent. */
  const posterPuts: string[] = [];
  let beforePosterPut: (videoId: string) => Promise<void> = async () => {};

  function makeQueue(db: UploadsDb, over: Partial<UploadQueueOptions> = {}) {
    const settled: Array<{ ok: boolean; rec: UploadRecord; reason?: string }> = [];
    const waiters: Array<() => void> = [];
    const queue = new UploadQueue({
      db,
      endpoint: `${srv.url}/files/`,
      getAccessToken: async () => (await t.deps.tokens.issue(user.id)).token,
      sendPoster: async (videoId, poster, token) => {
        posterPuts.push(videoId);
        await beforePosterPut(videoId);
        const res = await fetch(`${srv.url}/api/videos/${videoId}/poster`, {
          method: 'PUT',
          body: poster,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': poster.type },
        });
        return res.ok;
      },
      isOnline: () => online,
      events: {
        onSuccess: (rec) => {
          settled.push({ ok: true, rec });
          waiters.splice(0).forEach((w) => w());
        },
        onFailure: (rec, reason) => {
          settled.push({ ok: false, rec, reason });
          waiters.splice(0).forEach((w) => w());
        },
      },
      tus: { fileReader: blobReader as never },
      ...over,
    });
    const next = () => new Promise<void>((ok) => waiters.push(ok));
    return { queue, settled, next };
  }

  const input = async (file: string, over: Partial<NewUpload> = {}): Promise<NewUpload> => ({
    videoId: randomUUID(),
    userId: user.id,
    userName: user.name,
    title: 'Queued clip',
    description: '',
    file: new Blob([readFileSync(file)], { type: 'video/mp4' }),
    fileName: 'clip.mp4',
    durationMs: 3000,
    posterBlob: new Blob([readFileSync(await posterJpeg())], { type: 'image/jpeg' }),
    ...over,
  });

  const until = async (check: () => Promise<boolean>) => {
    await expect.poll(check, { timeout: 20_000, interval: 5 }).toBe(true);
  };

  it('uploads a queued file with its poster and keeps the local copy only until processing ends', async () => {
    const db = newUploadsDb();
    const { queue, settled, next } = makeQueue(db);
    const item = await input(await mp4Faststart());
    const done = next();
    await queue.enqueue(item);
    await done;
    expect(settled[0]).toMatchObject({ ok: true });
    const video = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', item.videoId).executeTakeFirstOrThrow();
    expect(video.sha256).toBe(sha256(readFileSync(await mp4Faststart())));
    expect(video.poster_key).toMatch(new RegExp(`^${user.id}/poster-${item.videoId}-[0-9a-f]{32}\\.jpg$`));
    expect(posterPuts.filter((id) => id === item.videoId)).toHaveLength(1);
    // Kept (not queued again) so the uploader's card can play it while the server processes it.
    expect(await db.uploads.get(item.videoId)).toMatchObject({ status: 'done', bytesSent: item.file.size });
    queue.stop();
  });

  it('sends the poster once when the upload finishes while the first send is still on its way', async () => {
    const db = newUploadsDb();
    const { queue, next } = makeQueue(db);
    const item = await input(await mp4Faststart());
    // Hold the first send until the video exists: the finish then asks for the poster too.
    beforePosterPut = async (videoId) => {
      await until(async () => !!(await t.deps.db.selectFrom('videos').select('id').where('id', '=', videoId).executeTakeFirst()));
    };
    try {
      const done = next();
      await queue.enqueue(item);
      await done;
    } finally {
      beforePosterPut = async () => {};
    }
    expect(posterPuts.filter((id) => id === item.videoId)).toHaveLength(1);
    const video = await t.deps.db.selectFrom('videos').select('poster_key').where('id', '=', item.videoId).executeTakeFirstOrThrow();
    const res = await fetch(`${srv.url}/media/${video.poster_key}`);
    expect(res.status).toBe(200);
    queue.stop();
  });

  it('resumes after an app restart from the URL kept in IndexedDB, creating the upload once', async () => {
    const db = newUploadsDb();
    const bytes = readFileSync(await mp4TwoMegabytes());
    const item = await input(await mp4TwoMegabytes());
    // The app "closes" while the 5th request (POST, then PATCHes) is on its way.
    let requests = 0;
    let stopped: () => void = () => {};
    const wasStopped = new Promise<void>((ok) => (stopped = ok));
    const first: ReturnType<typeof makeQueue> = makeQueue(db, {
      chunkSize: 256 * 1024,
      getAccessToken: async () => {
        if (++requests === 5) {
          first.queue.stop();
          stopped();
        }
        return (await t.deps.tokens.issue(user.id)).token;
      },
    });
    await first.queue.enqueue(item);
    await wasStopped;
    await until(async () => ((await db.uploads.get(item.videoId))?.bytesSent ?? 0) >= 3 * 256 * 1024);
    // The poster went out with the first queue; the reloaded one must not send it again.
    await until(async () => (await db.uploads.get(item.videoId))?.posterSent === true);
    const saved = await db.uploads.get(item.videoId);
    expect(saved?.tusUrl).toMatch(/\/files\/[0-9a-f]{32}$/);
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', item.videoId).executeTakeFirst()).toBeUndefined();

    // A new queue (as after a reload) over the same database.
    const second = makeQueue(db, { chunkSize: 256 * 1024 });
    const done = second.next();
    second.queue.start();
    await done;
    expect(second.settled[0]?.ok).toBe(true);
    const uploads = await t.deps.db.selectFrom('uploads').select('status').where('video_id', '=', item.videoId).execute();
    expect(uploads).toEqual([{ status: 'completed' }]);
    const video = await t.deps.db.selectFrom('videos').select('sha256').where('id', '=', item.videoId).executeTakeFirstOrThrow();
    expect(video.sha256).toBe(sha256(bytes));
    expect(posterPuts.filter((id) => id === item.videoId)).toHaveLength(1);
    second.queue.stop();
  });

  it('waits while offline and sends when the network returns', async () => {
    const db = newUploadsDb();
    const { queue, next } = makeQueue(db);
    online = false;
    const item = await input(await mp4Faststart());
    await queue.enqueue(item);
    const rec = await db.uploads.get(item.videoId);
    expect(rec).toMatchObject({ status: 'queued', tusUrl: null, bytesSent: 0 });
    expect(await t.deps.db.selectFrom('uploads').select('id').where('video_id', '=', item.videoId).executeTakeFirst()).toBeUndefined();
    online = true;
    const done = next();
    queue.resumeAll();
    await done;
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', item.videoId).executeTakeFirst()).toBeDefined();
    queue.stop();
  });

  it("keeps the server's reason when it refuses the file", async () => {
    const db = newUploadsDb();
    const { queue, settled, next } = makeQueue(db);
    const item = await input(await textAsMp4(), { posterBlob: null });
    const done = next();
    await queue.enqueue(item);
    await done;
    expect(settled[0]).toMatchObject({ ok: false });
    expect(settled[0]?.reason).toMatch(/not a supported video/);
    expect(await db.uploads.get(item.videoId)).toMatchObject({ status: 'failed', error: settled[0]?.reason });
    queue.stop();
  });

  it('reports a creation refused for the limits (429 slots, 507 disk) as failed with the reason, keeping the file', async () => {
    const db = newUploadsDb();
    const { queue, settled, next } = makeQueue(db);
    // Three uploads in progress elsewhere (another device) take the member's slots.
    const token = (await t.deps.tokens.issue(user.id)).token;
    for (let i = 0; i < 3; i++) await createUploadRaw(srv.url, token, 1024);
    const first = await input(await mp4Faststart(), { posterBlob: null });
    let done = next();
    await queue.enqueue(first);
    await done;
    expect(settled[0]).toMatchObject({ ok: false });
    expect(settled[0]?.reason).toMatch(/3 uploads in progress/);
    expect(await db.uploads.get(first.videoId)).toMatchObject({ status: 'failed', error: settled[0]?.reason, size: first.file.size });
    await terminateUnfinished(t, srv.url);

    // The server is short of disk: no retries in the background, the user is told.
    const config = t.deps.config as { uploadMinFreeBytes: number };
    const floor = config.uploadMinFreeBytes;
    config.uploadMinFreeBytes = Number.MAX_SAFE_INTEGER;
    try {
      const second = await input(await mp4Faststart(), { posterBlob: null });
      done = next();
      await queue.enqueue(second);
      await done;
      expect(settled[1]).toMatchObject({ ok: false });
      expect(settled[1]?.reason).toMatch(/storage space/);
      expect(await db.uploads.get(second.videoId)).toMatchObject({ status: 'failed' });
    } finally {
      config.uploadMinFreeBytes = floor;
    }
    queue.stop();
  });

  it('cancels: stops, terminates the upload on the server and removes the local copy', async () => {
    const db = newUploadsDb();
    const { queue } = makeQueue(db, { chunkSize: 128 * 1024 });
    const item = await input(await mp4TwoMegabytes());
    await queue.enqueue(item);
    await until(async () => !!(await db.uploads.get(item.videoId))?.tusUrl);
    await queue.cancel(item.videoId);
    expect(await db.uploads.get(item.videoId)).toBeUndefined();
    await until(
      async () => (await t.deps.db.selectFrom('uploads').select('status').where('video_id', '=', item.videoId).executeTakeFirst())?.status === 'cancelled',
    );
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', item.videoId).executeTakeFirst()).toBeUndefined();
    queue.stop();
  });
});
