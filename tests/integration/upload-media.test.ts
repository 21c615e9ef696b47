import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, call, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { markAllProcessed } from '../helpers/media-processed';
import { createUploadRaw, listen, rawRequest, runUpload, sha256, videoMetadata, type LoopbackServer, terminateUnfinished } from '../fixtures/tus-client';
import { mp4Faststart, posterJpeg, webm } from '../fixtures/videos';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { Changes } from '#server/changes/changes';
import { deleteMediaFiles } from '#server/media/storage';
import { mediaExists, mediaNames } from './upload-storage';

describe('media delivery and posters', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let alice: TestUser;
  let bob: TestUser;
  let bytes: Buffer;
  let videoUrl: string;
  let videoId: string;

  beforeAll(async () => {
    t = await createTestApp();
    srv = await listen(t);
    alice = await createUser(t.deps, { name: 'Alice' });
    bob = await createUser(t.deps, { name: 'Bob' });
    bytes = readFileSync(await mp4Faststart());
    const meta = videoMetadata();
    videoId = meta.videoId!;
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    const row = await t.deps.db.selectFrom('videos').select('file_key').where('id', '=', videoId).executeTakeFirstOrThrow();
    videoUrl = `${srv.url}/media/${row.file_key}`;
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });
  // Frees the slots (3 uploads in progress per member) that a test's unfinished uploads hold.
  // A member may have only 3 videos in processing, and no runner runs here.
  afterEach(async () => {
    await terminateUnfinished(t, srv.url);
    await markAllProcessed(t.deps);
  });

  const putPoster = (id: string, body: Buffer<ArrayBuffer>, token: string, type = 'image/jpeg') =>
    fetch(`${srv.url}/api/videos/${id}/poster`, { method: 'PUT', body, headers: { Authorization: `Bearer ${token}`, 'Content-Type': type } });
  /** The stored poster files of one video (alice's folder). */
  const posterFiles = async (id: string) => (await mediaNames(t.deps, alice.id)).filter((f) => f.startsWith(`poster-${id}-`));

  const get = async (url: string, headers: Record<string, string> = {}, method = 'GET') => {
    const res = await fetch(url, { method, headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };

  it('serves the whole file with type, ranges, nosniff and immutable caching', async () => {
    const r = await get(videoUrl);
    expect(r.status).toBe(200);
    expect(r.body.equals(bytes)).toBe(true);
    expect(r.headers.get('content-type')).toBe('video/mp4');
    expect(r.headers.get('content-length')).toBe(String(bytes.length));
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await get(videoUrl, {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(bytes.length));
    expect(r.body.length).toBe(0);
  });

  it('serves the first bytes, a middle range and a suffix with 206 and Content-Range', async () => {
    const size = bytes.length;
    const first = await get(videoUrl, { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(first.body.equals(bytes.subarray(0, 100))).toBe(true);

    const mid = await get(videoUrl, { Range: 'bytes=1000-4999' });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe(`bytes 1000-4999/${size}`);
    expect(mid.headers.get('content-length')).toBe('4000');
    expect(mid.body.equals(bytes.subarray(1000, 5000))).toBe(true);

    const suffix = await get(videoUrl, { Range: 'bytes=-500' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(suffix.body.equals(bytes.subarray(size - 500))).toBe(true);

    const open = await get(videoUrl, { Range: `bytes=${size - 10}-` });
    expect(open.body.equals(bytes.subarray(size - 10))).toBe(true);
  });

  it('answers a range past the end, or several ranges, with 416 and bytes */size', async () => {
    for (const range of [`bytes=${bytes.length}-`, `bytes=${bytes.length + 100}-${bytes.length + 200}`, 'bytes=0-1,4-5', 'bytes=-0']) {
      const r = await get(videoUrl, { Range: range });
      expect(r.status, range).toBe(416);
      expect(r.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
      expect(JSON.parse(r.body.toString()).error.code).toBe('range_not_satisfiable');
    }
  });

  it('refuses path traversal and keys of any other shape', async () => {
    for (const p of [
      '/media/..%2Fvidi.sqlite',
      '/media/%2e%2e/%2e%2e/etc/passwd',
      '/media/../vidi.sqlite',
      `/media/${alice.id}/..%2F..%2Fvidi.sqlite`,
      '/media/a/b/c.mp4',
      '/media/x%00/y.mp4',
      '/media/vidi.sqlite',
      `/media/${alice.id}/.hidden`,
    ]) {
      const r = await rawRequest(srv.url, 'GET', p, {});
      expect(r.status, p).toBe(404);
      expect(r.body).not.toContain('SQLite');
    }
  });

  it('keeps a poster sent during the upload and attaches it to the video; serves it as an image', async () => {
    const jpeg = readFileSync(await posterJpeg());
    const meta = videoMetadata();
    const id = meta.videoId!;
    // Before the upload exists: nothing to attach to.
    const early = await fetch(`${srv.url}/api/videos/${id}/poster`, {
      method: 'PUT',
      body: jpeg,
      headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'image/jpeg' },
    });
    expect(early.status).toBe(404);

    await createUploadRaw(srv.url, alice.token, 10, meta);
    const put = await fetch(`${srv.url}/api/videos/${id}/poster`, {
      method: 'PUT',
      body: jpeg,
      headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'image/jpeg' },
    });
    expect(put.status).toBe(200);
    const body = (await put.json()) as any;
    expect(body).toMatchObject({ video_id: id, attached_to: 'upload' });
    // Content-addressed: the name carries the video id and the image's hash.
    expect(body.poster_url).toBe(`/media/${alice.id}/poster-${id}-${sha256(jpeg).slice(0, 32)}.jpg`);

    // The real upload of the same video id now finishes and picks the poster up.
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    const video = await t.deps.db.selectFrom('videos').select(['poster_key']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(`/media/${video.poster_key}`).toBe(body.poster_url);
    const img = await get(`${srv.url}${body.poster_url}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(sha256(img.body)).toBe(sha256(jpeg));

    // Different bytes on the existing video: a new URL, and the old one keeps working for pages
    // that loaded it a moment ago.
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100)]);
    const again = await putPoster(id, png, alice.token, 'image/png');
    expect(again.status).toBe(200);
    const replaced = (await again.json()) as any;
    expect(replaced.attached_to).toBe('video');
    expect(replaced.poster_url).not.toBe(body.poster_url);
    const now = await t.deps.db.selectFrom('videos').select(['poster_key']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(`/media/${now.poster_key}`).toBe(replaced.poster_url);
    const old = await get(`${srv.url}${body.poster_url}`);
    expect(old.status).toBe(200);
    expect(sha256(old.body)).toBe(sha256(jpeg));
    expect(sha256((await get(`${srv.url}${replaced.poster_url}`)).body)).toBe(sha256(png));
  });

  it('treats a retried poster PUT of the same bytes as a no-op: same URL, still served, nothing logged', async () => {
    const jpeg = readFileSync(await posterJpeg());
    const meta = videoMetadata();
    const id = meta.videoId!;
    await createUploadRaw(srv.url, alice.token, 10, meta);
    // Two sends racing each other (what the client's resend did), then a late one.
    const racing = await Promise.all([putPoster(id, jpeg, alice.token), putPoster(id, jpeg, alice.token)]);
    const urls = await Promise.all(racing.map(async (r) => ((await r.json()) as any).poster_url as string));
    expect(racing.map((r) => r.status)).toEqual([200, 200]);
    expect(urls[1]).toBe(urls[0]);

    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    const video = await t.deps.db.selectFrom('videos').select(['poster_key']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(`/media/${video.poster_key}`).toBe(urls[0]);
    const changes = async () => (await t.deps.db.selectFrom('change_log').select('seq').where('entity_id', '=', id).execute()).length;
    const before = await changes();

    // The retry after the video exists: the same URL, the same file, no change for clients to pull.
    const retry = await putPoster(id, jpeg, alice.token);
    expect(retry.status).toBe(200);
    expect((await retry.json()) as any).toEqual({ video_id: id, poster_url: urls[0], attached_to: 'video' });
    const img = await get(`${srv.url}${urls[0]}`);
    expect(img.status).toBe(200);
    expect(sha256(img.body)).toBe(sha256(jpeg));
    expect(await changes()).toBe(before);
    expect(await posterFiles(id)).toEqual([video.poster_key!.split('/')[1]]);
    expect((await mediaNames(t.deps, alice.id)).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('refuses a sixth different poster for one video with 409, keeping the five it has', async () => {
    const meta = videoMetadata();
    const id = meta.videoId!;
    await createUploadRaw(srv.url, alice.token, 10, meta);
    const png = (n: number) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, n)]);
    for (let n = 0; n < 5; n++) expect((await putPoster(id, png(n), alice.token, 'image/png')).status).toBe(200);
    const sixth = await putPoster(id, png(5), alice.token, 'image/png');
    expect(sixth.status).toBe(409);
    expect(((await sixth.json()) as any).error.code).toBe('too_many_posters');
    expect(await posterFiles(id)).toHaveLength(5);
    // Sending one it already has is still fine.
    expect((await putPoster(id, png(2), alice.token, 'image/png')).status).toBe(200);

    // Cancelling the upload removes every poster of that video (nothing else names them).
    const path = (await t.deps.db.selectFrom('uploads').select('id').where('video_id', '=', id).executeTakeFirstOrThrow()).id;
    const del = await rawRequest(srv.url, 'DELETE', `/files/${path}`, { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${alice.token}` });
    expect(del.status).toBe(204);
    expect(await posterFiles(id)).toEqual([]);
  });

  it('refuses posters that are not images, too large, or for someone else', async () => {
    const meta = videoMetadata();
    const id = meta.videoId!;
    await createUploadRaw(srv.url, alice.token, 10, meta);
    const put = (b: Buffer<ArrayBuffer>, token: string | null, type = 'image/jpeg') =>
      fetch(`${srv.url}/api/videos/${id}/poster`, {
        method: 'PUT',
        body: b,
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': type },
      });
    const notImage = await put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), alice.token);
    expect(notImage.status).toBe(415);
    expect(((await notImage.json()) as any).error.message).toBe('The poster must be a JPEG, PNG or WebP image.');
    const bigJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(512 * 1024)]);
    const big = await put(bigJpeg, alice.token);
    expect(big.status).toBe(413);
    expect(((await big.json()) as any).error.code).toBe('payload_too_large');
    // 300 KiB is over the JSON limit of /api but within the poster's own.
    const okJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300 * 1024)]);
    expect((await put(okJpeg, alice.token)).status).toBe(200);
    expect((await put(okJpeg, bob.token)).status).toBe(403);
    expect((await put(okJpeg, null)).status).toBe(401);
    const badId = await fetch(`${srv.url}/api/videos/not-a-uuid/poster`, {
      method: 'PUT',
      body: okJpeg,
      headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'image/jpeg' },
    });
    expect(badId.status).toBe(400);
    const row = await t.deps.db.selectFrom('uploads').select('poster_key').where('video_id', '=', id).executeTakeFirstOrThrow();
    expect(row.poster_key).toMatch(/\.jpg$/);
  });

  it('documents the poster operation in OpenAPI with bearer security and image bodies', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json')).json;
    const op = doc.paths['/api/videos/{id}/poster'].put;
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(op.requestBody.content)).toEqual(['image/jpeg', 'image/png', 'image/webp']);
  });

  it('serves WebM as video/webm', async () => {
    const w = readFileSync(await webm());
    const meta = videoMetadata({ filename: 'x.webm' });
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes: w, metadata: meta });
    const row = await t.deps.db.selectFrom('videos').select('file_key').where('id', '=', meta.videoId!).executeTakeFirstOrThrow();
    const r = await get(`${srv.url}/media/${row.file_key}`, { Range: 'bytes=0-3' });
    expect(r.headers.get('content-type')).toBe('video/webm');
    expect([...r.body]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
  });

  it('answers 404 for the video and its poster once the video is deleted', async () => {
    const jpeg = readFileSync(await posterJpeg());
    const meta = videoMetadata();
    await createUploadRaw(srv.url, alice.token, 10, meta);
    await fetch(`${srv.url}/api/videos/${meta.videoId}/poster`, {
      method: 'PUT',
      body: jpeg,
      headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'image/jpeg' },
    });
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    const first = await t.deps.db.selectFrom('videos').select(['poster_key']).where('id', '=', meta.videoId!).executeTakeFirstOrThrow();
    // A replaced poster stays served while the video exists, and goes with it.
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(80)]);
    expect((await putPoster(meta.videoId!, png, alice.token, 'image/png')).status).toBe(200);
    const row = await t.deps.db.selectFrom('videos').select(['file_key', 'poster_key']).where('id', '=', meta.videoId!).executeTakeFirstOrThrow();
    expect(row.poster_key).not.toBe(first.poster_key);
    expect((await get(`${srv.url}/media/${row.file_key}`)).status).toBe(200);
    expect((await get(`${srv.url}/media/${row.poster_key}`)).status).toBe(200);
    expect((await get(`${srv.url}/media/${first.poster_key}`)).status).toBe(200);

    // What the sync and admin delete paths do: delete in a transaction, then the files.
    const result = await t.deps.db.transaction().execute((trx) => deleteVideoInTx(trx, new Changes(t.deps.now()), meta.videoId!));
    await deleteMediaFiles(t.deps.media, result!.fileKeys);
    expect((await get(`${srv.url}/media/${row.file_key}`)).status).toBe(404);
    expect((await get(`${srv.url}/media/${row.poster_key}`)).status).toBe(404);
    expect((await get(`${srv.url}/media/${first.poster_key}`)).status).toBe(404);
    expect(await mediaExists(t.deps, row.file_key)).toBe(false);
    expect(await posterFiles(meta.videoId!)).toEqual([]);
    // Other videos are untouched.
    expect((await get(videoUrl, { Range: 'bytes=0-0' })).status).toBe(206);
  });
});
