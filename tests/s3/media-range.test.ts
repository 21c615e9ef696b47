import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { S3MediaStore } from '#server/storage/s3-media-store';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';
import { listen, type LoopbackServer } from '../fixtures/tus-client';
import { startFaultProxy, type FaultProxy } from '../faults/fault-proxy';
import { createBucket, deleteBucket } from '../support/s3-gateway';

/**
 * GET /media/… answers the same, byte for byte and header for header, whether the media store is
 * the disk or S3: the same objects in a disk-backed and an S3-backed app, over real HTTP on
 * loopback, for a matrix of Range headers.
 */

const env = inject('s3Env');
const VIDEO = randomBytes(5000);
const FILES: Record<string, Uint8Array> = {
  'u-1/1700000000000-clip.mp4': VIDEO,
  'u-1/v-1/j-1/master.m3u8': Buffer.from('#EXTM3U\n#EXT-X-VERSION:7\n'),
  'u-1/v-1/j-1/v360/seg_00001.m4s': randomBytes(1200),
  'u-1/v-1/captions-empty.vtt': new Uint8Array(0),
  'u-1/poster-x.jpg': Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
};

/** The Range headers, and what the 5000-byte video must answer to each (so equal-but-wrong fails). */
const MATRIX: Array<{ range: string | null; status: number; contentRange?: string }> = [
  { range: null, status: 200 },
  { range: 'bytes=0-0', status: 206, contentRange: 'bytes 0-0/5000' },
  { range: 'bytes=0-99', status: 206, contentRange: 'bytes 0-99/5000' },
  { range: 'bytes=100-', status: 206, contentRange: 'bytes 100-4999/5000' },
  { range: 'bytes=-1', status: 206, contentRange: 'bytes 4999-4999/5000' },
  { range: 'bytes=-500', status: 206, contentRange: 'bytes 4500-4999/5000' },
  { range: 'bytes=4990-9999', status: 206, contentRange: 'bytes 4990-4999/5000' },
  { range: 'bytes=-99999', status: 206, contentRange: 'bytes 0-4999/5000' },
  { range: 'bytes=5000-', status: 416, contentRange: 'bytes */5000' },
  { range: 'bytes=5-2', status: 416, contentRange: 'bytes */5000' },
  { range: 'bytes=abc', status: 416, contentRange: 'bytes */5000' },
  { range: 'bytes=-0', status: 416, contentRange: 'bytes */5000' },
  { range: 'garbage', status: 416, contentRange: 'bytes */5000' },
  { range: 'bytes=0-1,5-6', status: 416, contentRange: 'bytes */5000' },
  { range: 'items=0-5', status: 200 },
];

const HEADERS = ['content-type', 'content-range', 'content-length', 'accept-ranges', 'cache-control', 'x-content-type-options'];

async function fetchMedia(base: string, key: string, method: 'GET' | 'HEAD', range: string | null) {
  const res = await fetch(`${base}/media/${key}`, { method, headers: range ? { Range: range } : {} });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])), body };
}

describe('media serving: disk and S3 answer the same', () => {
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  let disk: TestApp;
  let s3: TestApp;
  let diskSrv: LoopbackServer;
  let s3Srv: LoopbackServer;

  beforeAll(async () => {
    await createBucket(env, bucket);
    // S3_BUCKET '' forces the disk store whatever storage the run gives test apps by default.
    disk = await createTestApp({ S3_BUCKET: '' });
    s3 = await createTestApp({ ...env, S3_BUCKET: bucket });
    expect(disk.deps.media.kind).toBe('disk');
    expect(s3.deps.media.kind).toBe('s3');
    for (const t of [disk, s3]) for (const [key, bytes] of Object.entries(FILES)) await t.deps.media.putOnce(key, bytes, 'application/octet-stream');
    diskSrv = await listen(disk);
    s3Srv = await listen(s3);
  });

  afterAll(async () => {
    await diskSrv?.close();
    await s3Srv?.close();
    await disk?.close();
    await s3?.close();
    await deleteBucket(env, bucket);
  });

  it.each(MATRIX)('the video with Range $range: the expected answer, identical on both', async ({ range, status, contentRange }) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const a = await fetchMedia(diskSrv.url, 'u-1/1700000000000-clip.mp4', method, range);
      const b = await fetchMedia(s3Srv.url, 'u-1/1700000000000-clip.mp4', method, range);
      expect(b.status).toBe(a.status);
      expect(b.headers).toEqual(a.headers);
      expect(b.body.equals(a.body)).toBe(true);
      expect(a.status).toBe(status);
      expect(a.headers['content-range']).toBe(contentRange ?? null);
      if (status === 416) {
        expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
        continue;
      }
      expect(a.headers['content-type']).toBe('video/mp4');
      const [from, to] = contentRange ? (/bytes (\d+)-(\d+)/.exec(contentRange)?.slice(1).map(Number) ?? [0, 4999]) : [0, 4999];
      expect(a.headers['content-length']).toBe(String(to! - from! + 1));
      if (method === 'GET') expect(a.body.equals(VIDEO.subarray(from, to! + 1))).toBe(true);
      else expect(a.body.length).toBe(0);
    }
  });

  it('every other stored file, every Range: identical on both', async () => {
    for (const key of Object.keys(FILES).filter((k) => !k.endsWith('.mp4'))) {
      for (const { range } of MATRIX) {
        for (const method of ['GET', 'HEAD'] as const) {
          const a = await fetchMedia(diskSrv.url, key, method, range);
          const b = await fetchMedia(s3Srv.url, key, method, range);
          expect({ key, range, method, status: b.status, headers: b.headers }).toEqual({ key, range, method, status: a.status, headers: a.headers });
          expect(b.body.equals(a.body)).toBe(true);
        }
      }
    }
    const playlist = await fetchMedia(s3Srv.url, 'u-1/v-1/j-1/master.m3u8', 'GET', null);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.body.toString()).toBe('#EXTM3U\n#EXT-X-VERSION:7\n');
    const empty = await fetchMedia(s3Srv.url, 'u-1/v-1/captions-empty.vtt', 'GET', null);
    expect([empty.status, empty.headers['content-length'], empty.body.length]).toEqual([200, '0', 0]);
  });

  it('a missing key, or one not of the stored shape: the same 404 on both', async () => {
    for (const key of ['u-1/1700000000001-none.mp4', 'u-1/v-1/j-2/master.m3u8', 'u-1/.hidden', 'u-1/%2e%2e/x.mp4']) {
      const a = await fetchMedia(diskSrv.url, key, 'GET', 'bytes=0-0');
      const b = await fetchMedia(s3Srv.url, key, 'GET', 'bytes=0-0');
      expect(a.status).toBe(404);
      expect({ status: b.status, headers: b.headers, body: b.body.toString() }).toEqual({ status: a.status, headers: a.headers, body: a.body.toString() });
      expect(JSON.parse(a.body.toString())).toEqual({ error: { code: 'not_found', message: 'No such media file.' } });
    }
  });

  it('an object deleted by another instance after this one cached its size: 404, not an error', async () => {
    const key = 'u-1/1700000000002-gone.mp4';
    await s3.deps.media.putOnce(key, randomBytes(100), 'video/mp4');
    expect((await fetchMedia(s3Srv.url, key, 'HEAD', null)).status).toBe(200);
    const other = new S3MediaStore({
      storage: {
        kind: 's3',
        bucket,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
        forcePathStyle: true,
      },
      scratchDir: s3.dataDir,
    });
    await other.delete([key]);
    await other.close();
    const res = await fetchMedia(s3Srv.url, key, 'GET', 'bytes=0-9');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString()).error.code).toBe('not_found');
  });
});

describe('deleting a video on S3', () => {
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  let t: TestApp;

  beforeAll(async () => {
    await createBucket(env, bucket);
    t = await createTestApp({ ...env, S3_BUCKET: bucket });
  });

  afterAll(async () => {
    await t?.close();
    await deleteBucket(env, bucket);
  });

  it('an admin deletion takes the original and every poster of the video out of the bucket, nothing of another video', async () => {
    const admin = await createUser(t.deps, { isAdmin: true });
    const owner = await createUser(t.deps);
    const media = t.deps.media;
    const keysOf = (videoId: string, n: number) => ({
      file: `${owner.id}/170000000000${n}-clip.mp4`,
      posters: ['a', 'b'].map((h) => `${owner.id}/poster-${videoId}-${h.repeat(32)}.jpg`),
    });
    const [doomed, kept] = [randomUUID(), randomUUID()];
    for (const [id, n] of [
      [doomed, 1],
      [kept, 2],
    ] as const) {
      const k = keysOf(id, n);
      for (const key of [k.file, ...k.posters]) await media.putOnce(key, Buffer.from(key), 'application/octet-stream');
      // The second poster is current; the first is one it replaced, kept until the video goes.
      await insertVideo(t.deps, owner.id, { id, file_key: k.file, poster_key: k.posters[1]! });
    }
    const del = await call(t.app, 'DELETE', `/api/admin/videos/${doomed}`, undefined, admin.token);
    expect(del.status).toBe(200);
    // A store of its own: what is in the bucket, not what this instance's size cache remembers.
    const other = new S3MediaStore({
      storage: {
        kind: 's3',
        bucket,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
        forcePathStyle: true,
      },
      scratchDir: t.dataDir,
    });
    try {
      await expect.poll(() => other.listFiles(owner.id)).toEqual([keysOf(kept, 2).file, ...keysOf(kept, 2).posters].sort());
    } finally {
      await other.close();
    }
  });
});

describe('media serving from S3 when the storage fails', () => {
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  const BIG = randomBytes(4 * 1024 * 1024);
  let proxy: FaultProxy;
  let proxyClosed = false;
  let t: TestApp;
  let srv: LoopbackServer;

  beforeAll(async () => {
    await createBucket(env, bucket);
    proxy = await startFaultProxy(Number(new URL(env.S3_ENDPOINT).port));
    t = await createTestApp({ ...env, S3_ENDPOINT: proxy.url, S3_BUCKET: bucket });
    await t.deps.media.putOnce('u-2/1700000000000-big.mp4', BIG, 'video/mp4');
    srv = await listen(t);
  });

  afterAll(async () => {
    await srv?.close();
    await t?.close();
    if (!proxyClosed) await proxy?.close();
    await deleteBucket(env, bucket);
  });

  it('a GET that S3 cuts mid-stream ends that response early; the server keeps serving', async () => {
    // Slow enough that the cut falls while the body flows.
    proxy.throttle(512 * 1024);
    const res = await fetch(`${srv.url}/media/u-2/1700000000000-big.mp4`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BIG.length));
    const reader = res.body!.getReader();
    let received = 0;
    const first = await reader.read();
    received += first.value?.length ?? 0;
    proxy.cutAll();
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        received += value.length;
      }
    })().catch(() => 'failed');
    // The client learns the body is short: an error, or at worst fewer bytes than announced.
    expect(outcome === 'failed' || received < BIG.length).toBe(true);
    expect(received).toBeLessThan(BIG.length);

    proxy.throttle(0);
    const again = await fetch(`${srv.url}/media/u-2/1700000000000-big.mp4`, { headers: { Range: 'bytes=1000-1999' } });
    expect(again.status).toBe(206);
    expect(Buffer.from(await again.arrayBuffer()).equals(BIG.subarray(1000, 2000))).toBe(true);
  });

  it('S3 unreachable: 503 with Retry-After, never cached', async () => {
    await proxy.close();
    proxyClosed = true;
    const res = await fetch(`${srv.url}/media/u-2/1700000000001-never-seen.mp4`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('media_unavailable');
  });
});
