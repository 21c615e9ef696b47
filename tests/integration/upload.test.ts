import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { markAllProcessed } from '../helpers/media-processed';
import { createUploadRaw, encodeMetadata, listen, runUpload, sha256, videoMetadata, type LoopbackServer } from '../fixtures/tus-client';
import { mp4Faststart, mp4MoovAtEnd, mp4TwoMegabytes, webm } from '../fixtures/videos';
import { mediaExists, mediaNames, readMedia, tusObjects } from './upload-storage';

describe('tus uploads with tus-js-client over loopback', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    srv = await listen(t);
    alice = await createUser(t.deps, { name: 'Alice' });
  });
  // A member may have only 3 videos in processing, and no runner runs here.
  afterEach(() => markAllProcessed(t.deps));
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });

  const videoRow = (id: string) => t.deps.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();

  it('uploads a whole video: the stored file is byte-identical and the video row, change log and poke exist', async () => {
    const bytes = readFileSync(await mp4Faststart());
    const meta = videoMetadata({ title: '  Sunset  ', description: 'Over the sea' });
    const pokes: string[][] = [];
    const unsubscribe = t.deps.pokes.subscribe((s) => pokes.push(s));
    const run = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    unsubscribe();
    expect(run.url).toMatch(/\/files\/[0-9a-f]{32}$/);

    const video = await videoRow(meta.videoId!);
    expect(video).toMatchObject({
      user_id: alice.id,
      title: 'Sunset',
      description: 'Over the sea',
      mime_type: 'video/mp4',
      size_bytes: bytes.length,
      duration_ms: 3000,
    });
    expect(video!.sha256).toBe(sha256(bytes));
    expect(video!.file_key).toMatch(new RegExp(`^${alice.id}/\\d+-[0-9a-f]{12}-clip\\.mp4$`));
    const stored = await readMedia(t.deps, video!.file_key);
    expect(sha256(stored)).toBe(sha256(bytes));

    const served = await fetch(`${srv.url}/media/${video!.file_key}`);
    expect(served.status).toBe(200);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));

    const change = await t.deps.db.selectFrom('change_log').selectAll().where('entity', '=', 'video').where('entity_id', '=', meta.videoId!).execute();
    expect(change).toHaveLength(1);
    expect(pokes).toContainEqual(['feed', `video:${meta.videoId}`]);
    const upload = await t.deps.db.selectFrom('uploads').selectAll().where('video_id', '=', meta.videoId!).executeTakeFirst();
    expect(upload?.status).toBe('completed');
    // Nothing left behind where tus keeps uploads.
    expect(await tusObjects(t.deps, run.url!.split('/').pop())).toEqual([]);
  });

  it('accepts an MP4 with moov at the end and a WebM, typed by content', async () => {
    const moovEnd = readFileSync(await mp4MoovAtEnd());
    const m1 = videoMetadata({ filename: 'holiday.MOV', filetype: 'video/quicktime' });
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes: moovEnd, metadata: m1 });
    expect(await videoRow(m1.videoId!)).toMatchObject({ mime_type: 'video/mp4', duration_ms: 3000, sha256: sha256(moovEnd) });
    expect((await videoRow(m1.videoId!))!.file_key).toMatch(/-holiday\.mp4$/);

    const w = readFileSync(await webm());
    const m2 = videoMetadata({ filename: 'clip.webm', filetype: 'video/webm' });
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes: w, metadata: m2, chunkSize: 10_000 });
    expect(await videoRow(m2.videoId!)).toMatchObject({ mime_type: 'video/webm', duration_ms: 2000, sha256: sha256(w) });
  });

  it('resumes an upload cut midway from the stored URL, re-sending at most one chunk', async () => {
    const bytes = readFileSync(await mp4TwoMegabytes());
    const chunkSize = 256 * 1024;
    const meta = videoMetadata();
    const before = srv.bytesRead();
    const first = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize, abortAfter: Math.floor(bytes.length * 0.55) });
    expect(first.aborted).toBe(true);
    expect(first.url).toBeTruthy();
    expect(await videoRow(meta.videoId!)).toBeUndefined();

    // A new client (as after a reload) with only the stored URL.
    const second = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize, uploadUrl: first.url! });
    expect(second.aborted).toBe(false);
    expect(second.startOffset).toBeGreaterThanOrEqual(first.acknowledged);
    expect(second.startOffset).toBeGreaterThan(0);

    // Everything the server read (bodies plus a few KB of headers) minus the file: the re-sent part.
    const overhead = 64 * 1024;
    expect(srv.bytesRead() - before - bytes.length).toBeLessThanOrEqual(chunkSize + overhead);
    const video = await videoRow(meta.videoId!);
    expect(video?.sha256).toBe(sha256(bytes));
    expect(sha256(await readMedia(t.deps, video!.file_key))).toBe(sha256(bytes));
  });

  it('ends with a byte-identical file whatever the cut point', async () => {
    const bytes = readFileSync(await mp4TwoMegabytes());
    const chunkSize = 300_000;
    for (const fraction of [0.07, 0.31, 0.5, 0.93]) {
      await markAllProcessed(t.deps);
      const meta = videoMetadata();
      const first = await runUpload({
        baseUrl: srv.url,
        token: alice.token,
        bytes,
        metadata: meta,
        chunkSize,
        abortAfter: Math.floor(bytes.length * fraction),
      });
      const second = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize: chunkSize * 2, uploadUrl: first.url! });
      expect(second.startOffset, `cut at ${fraction}`).toBeGreaterThanOrEqual(first.acknowledged);
      expect((await videoRow(meta.videoId!))?.sha256, `cut at ${fraction}`).toBe(sha256(bytes));
    }
  });

  it('answers HEAD on a finished upload with offset == length, so a client that lost the last response completes', async () => {
    const bytes = readFileSync(await mp4Faststart());
    const meta = videoMetadata();
    const run = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    const again = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, uploadUrl: run.url! });
    expect(again.startOffset).toBe(bytes.length);
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', meta.videoId!).execute()).toHaveLength(1);
  });

  it('a completed upload’s HEAD carries the Upload-Metadata the client sent at creation, as the open upload’s did', async () => {
    const bytes = readFileSync(await mp4Faststart());
    const meta = videoMetadata({ title: 'Café at dawn ☕', description: 'Über die Brücke, line one\nline two' });
    const path = await createUploadRaw(srv.url, alice.token, bytes.length, meta);
    const tus = (extra: Record<string, string> = {}) => ({ 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${alice.token}`, ...extra });
    const head = () => fetch(`${srv.url}${path}`, { method: 'HEAD', headers: tus() });
    // Upload-Metadata back into its pairs ("key base64,key base64").
    const decoded = (res: Response) =>
      Object.fromEntries(
        (res.headers.get('upload-metadata') ?? '')
          .split(',')
          .map((p) => p.split(' '))
          .map(([k, v]) => [k, Buffer.from(v ?? '', 'base64').toString()]),
      );

    const open = await head();
    expect(open.status).toBe(200);
    expect(decoded(open)).toEqual(meta);
    const patch = await fetch(`${srv.url}${path}`, {
      method: 'PATCH',
      headers: tus({ 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }),
      body: bytes,
    });
    expect(patch.status).toBe(204);
    expect((await t.deps.db.selectFrom('uploads').select('status').where('video_id', '=', meta.videoId!).executeTakeFirst())?.status).toBe('completed');

    const done = await head();
    expect(done.status).toBe(200);
    expect(done.headers.get('upload-offset')).toBe(String(bytes.length));
    expect(done.headers.get('upload-metadata')).toBe(encodeMetadata(meta));
    expect(decoded(done)).toEqual(meta);
    // A browser client may read it too.
    expect(done.headers.get('access-control-expose-headers')).toMatch(/\bUpload-Metadata\b/);
  });

  it('creates the video once when the same video id is uploaded twice', async () => {
    const bytes = readFileSync(await mp4Faststart());
    const meta = videoMetadata();
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta });
    const first = await videoRow(meta.videoId!);
    const filesBefore = await mediaNames(t.deps, alice.id);
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: { ...meta, title: 'Second try' } });
    const rows = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', meta.videoId!).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: 'My clip', file_key: first!.file_key });
    // The duplicate copy was not kept.
    expect(await mediaNames(t.deps, alice.id)).toEqual(filesBefore);
    const uploads = await t.deps.db.selectFrom('uploads').select('status').where('video_id', '=', meta.videoId!).execute();
    expect(uploads.map((u) => u.status)).toEqual(['completed', 'completed']);
    expect(await mediaExists(t.deps, first!.file_key)).toBe(true);
  });
});
