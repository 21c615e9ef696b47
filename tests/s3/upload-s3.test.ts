import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { Upload } from '@tus/server';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkVideo } from '#server/uploads/container/inspect';
import { s3ByteSource } from '#server/uploads/s3-byte-source';
import { createS3Client } from '#server/storage/s3-client';
import type { S3UploadArea } from '#server/uploads/s3-upload-area';
import { cleanUpExpiredUploads, tusEndpointFor } from '#server/uploads/tus-server';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { markAllProcessed } from '../helpers/media-processed';
import { createUploadRaw, listen, runUpload, serverError, sha256, videoMetadata, type LoopbackServer } from '../fixtures/tus-client';
import { mp4MoovAtEnd, mp4TwelveMegabytes, mp4TwoMegabytes, textAsMp4, webm } from '../fixtures/videos';
import { readMedia, tusObjects } from '../integration/upload-storage';

const MIB = 1024 * 1024;

/** Records the name of every command `client` sends until `stop` (a ranged GET is named apart). */
function recordCommands(client: S3Client): { sent: string[]; stop(): void } {
  const sent: string[] = [];
  const name = `test-recorder-${randomBytes(4).toString('hex')}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string; Range?: string };
      sent.push(`${context.commandName}${input.Range ? ' ranged' : ''}${input.Key?.endsWith('.part') ? ' .part' : ''}`);
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { sent, stop: () => client.middlewareStack.remove(name) };
}

const count = (sent: string[], command: string) => sent.filter((c) => c === command).length;

describe('tus uploads on S3 (@tus/s3-store on the media bucket)', () => {
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
  const uploadIdOf = (url: string) => url.split('/').pop()!;

  it('runs on the bucket', () => {
    expect(t.deps.config.storage.kind).toBe('s3');
    expect(t.deps.media.kind).toBe('s3');
  });

  it('stores a complete upload as media/{key}: byte-identical through GET /media, sha256 on the row, no tus object left', async () => {
    const bytes = readFileSync(await mp4TwelveMegabytes());
    const meta = videoMetadata();
    const run = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize: 5 * MIB });
    const video = await videoRow(meta.videoId!);
    expect(video).toMatchObject({ user_id: alice.id, mime_type: 'video/mp4', size_bytes: bytes.length, sha256: sha256(bytes) });
    expect(sha256(await readMedia(t.deps, video!.file_key))).toBe(sha256(bytes));
    const served = await fetch(`${srv.url}/media/${video!.file_key}`);
    expect(served.status).toBe(200);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    expect(await tusObjects(t.deps, uploadIdOf(run.url!))).toEqual([]);
  });

  it('hashes the bytes on their way in (the finish reads nothing back whole) and lists the parts once per PATCH', async () => {
    const area = tusEndpointFor(t.deps).area as S3UploadArea;
    // The store's own client (protected in @tus/s3-store's types) sends the tus round trips.
    const storeClient = (area.store as unknown as { client: S3Client }).client;
    const finish = recordCommands(area.client);
    const store = recordCommands(storeClient);
    try {
      const bytes = readFileSync(await mp4TwelveMegabytes());
      const meta = videoMetadata();
      // 5 MiB PATCHes and the rest (ffmpeg makes the file 10.2-11.2 MB: two or three), each one whole part.
      const patches = Math.ceil(bytes.length / (5 * MIB));
      await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize: 5 * MIB });
      expect(await videoRow(meta.videoId!)).toMatchObject({ size_bytes: bytes.length, sha256: sha256(bytes) });
      expect(count(finish.sent, 'GetObjectCommand')).toBe(0);
      expect(count(store.sent, 'UploadPartCommand')).toBe(patches);
      // The creation's own look at the offset sends nothing; each PATCH's lists the parts and looks
      // for a tail part, and its write reuses both.
      expect(count(store.sent, 'ListPartsCommand')).toBe(patches);
      expect(count(store.sent, 'HeadObjectCommand .part')).toBe(patches);
      // No GET at all: the info was cached when the upload was created, and no tail part was left.
      expect(count(store.sent, 'GetObjectCommand .part')).toBe(0);
      expect(count(store.sent, 'GetObjectCommand')).toBe(0);
      // Only the creation's .info: no tags, so no second PUT of it when the upload completes.
      expect(count(store.sent, 'PutObjectCommand')).toBe(1);
      expect(count(store.sent, 'CompleteMultipartUploadCommand')).toBe(1);
    } finally {
      finish.stop();
      store.stop();
    }
  });

  it('sends a PATCH larger than a part as parts of 5 MiB, listing the parts once (the fast-link chunk)', async () => {
    const area = tusEndpointFor(t.deps).area as S3UploadArea;
    const store = recordCommands((area.store as unknown as { client: S3Client }).client);
    try {
      const bytes = readFileSync(await mp4TwelveMegabytes());
      const meta = videoMetadata();
      const run = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize: 50 * MIB });
      expect(await videoRow(meta.videoId!)).toMatchObject({ size_bytes: bytes.length, sha256: sha256(bytes) });
      // One PATCH: its 5 MiB parts and a short last one, one listing and one look for a tail part.
      expect(count(store.sent, 'UploadPartCommand')).toBe(Math.ceil(bytes.length / (5 * MIB)));
      expect(count(store.sent, 'ListPartsCommand')).toBe(1);
      expect(count(store.sent, 'HeadObjectCommand .part')).toBe(1);
      expect(count(store.sent, 'PutObjectCommand .part')).toBe(0);
      expect(await tusObjects(t.deps, uploadIdOf(run.url!))).toEqual([]);
    } finally {
      store.stop();
    }
  });

  it('a PATCH larger than a part cut midway keeps its whole parts and the rest as the tail part', async () => {
    const { datastore } = tusEndpointFor(t.deps).tus;
    const id = randomBytes(16).toString('hex');
    await datastore.create(new Upload({ id, size: 12 * MIB, offset: 0 }));
    const body = new PassThrough();
    const written = datastore.write(body, id, 0);
    body.write(randomBytes(7 * MIB));
    await new Promise((ok) => setTimeout(ok, 200));
    body.destroy(new Error('the client went away'));
    // A whole 5 MiB part and a 2 MiB tail: nothing that arrived is lost, so a cut costs no more with a bigger chunk.
    expect(await written).toBe(7 * MIB);
    expect((await datastore.getUpload(id)).offset).toBe(7 * MIB);
    const tail = (datastore as unknown as { getIncompletePartSize(id: string): Promise<number | undefined> }).getIncompletePartSize(id);
    expect(await tail).toBe(2 * MIB);
    expect(await tusObjects(t.deps, id)).toEqual(expect.arrayContaining([`${id}.part`, `${id}.info`]));
    await datastore.remove(id);
    expect(await tusObjects(t.deps, id)).toEqual([]);
  });

  it('a gap among the parts (a later part landed, an earlier one did not) counts only the parts before it, and the resume fills it', async () => {
    type Store = {
      getMetadata(id: string): Promise<unknown>;
      uploadPart(metadata: unknown, body: Buffer, partNumber: number): Promise<string>;
      uploadIncompletePart(id: string, body: Buffer): Promise<string>;
    };
    const { datastore } = tusEndpointFor(t.deps).tus;
    const store = datastore as unknown as Store;
    const id = randomBytes(16).toString('hex');
    const bytes = randomBytes(17 * MIB);
    await datastore.create(new Upload({ id, size: bytes.length, offset: 0 }));
    expect((await datastore.getUpload(id)).offset).toBe(0); // the creation's own look, as the POST makes it
    // As a PATCH of 17 MiB whose second part failed while its third and its 2 MiB tail landed.
    const metadata = await store.getMetadata(id);
    await store.uploadPart(metadata, bytes.subarray(0, 5 * MIB), 1);
    await store.uploadPart(metadata, bytes.subarray(10 * MIB, 15 * MIB), 3);
    await store.uploadIncompletePart(id, bytes.subarray(15 * MIB));
    expect((await datastore.getUpload(id)).offset).toBe(5 * MIB);
    expect(await tusObjects(t.deps, id)).not.toContain(`${id}.part`);

    expect(await datastore.write(Readable.from([bytes.subarray(5 * MIB)]), id, 5 * MIB)).toBe(bytes.length);
    const stored = await (datastore as unknown as { read(id: string): Promise<Readable> }).read(id);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(bytes));
    await tusEndpointFor(t.deps).area.remove(id);
  });

  it('types a WebM and an MP4 with moov at the end by content, read by ranged GETs', async () => {
    for (const [file, mime] of [
      [await mp4MoovAtEnd(), 'video/mp4'],
      [await webm(), 'video/webm'],
    ] as const) {
      const bytes = readFileSync(file);
      const meta = videoMetadata();
      await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize: 10_000 });
      expect(await videoRow(meta.videoId!)).toMatchObject({ mime_type: mime, sha256: sha256(bytes) });
    }
  });

  it('refuses a file that is not a video and leaves none of its objects', async () => {
    const bytes = readFileSync(await textAsMp4());
    let id = '';
    const e = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, onUrl: (u) => (id = uploadIdOf(u)) }).catch((x: unknown) => x);
    expect(serverError(e)).toMatchObject({ status: 422, body: { error: { code: 'unsupported_format' } } });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(await tusObjects(t.deps, id)).toEqual([]);
    expect(await t.deps.db.selectFrom('uploads').select('status').where('id', '=', id).executeTakeFirst()).toEqual({ status: 'rejected' });
    expect(await t.deps.media.listFiles(alice.id)).not.toContainEqual(expect.stringMatching(/notes/));
  });

  it('resumes after a PATCH cut midway, from the offset the store reports (whole parts plus the short tail part)', async () => {
    const bytes = readFileSync(await mp4TwelveMegabytes());
    const meta = videoMetadata();
    const first = await runUpload({
      baseUrl: srv.url,
      token: alice.token,
      bytes,
      metadata: meta,
      chunkSize: 5 * MIB,
      // At the second PATCH's first progress event: tus-js-client reports progress at most every
      // 100 ms, so a later point could be passed unseen when that PATCH is the last (the file is
      // 10.2-11.2 MB) and completes the upload.
      abortAfter: 5 * MIB + 1,
    });
    expect(first.aborted).toBe(true);
    expect(await videoRow(meta.videoId!)).toBeUndefined();
    // The multipart upload is open and (once the cut PATCH has been stored) its info is there.
    expect(await tusObjects(t.deps, uploadIdOf(first.url!))).toEqual(expect.arrayContaining([`${uploadIdOf(first.url!)}.info`]));

    const second = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize: 5 * MIB, uploadUrl: first.url! });
    expect(second.startOffset).toBeGreaterThanOrEqual(first.acknowledged);
    expect(second.startOffset).toBeGreaterThan(0);
    const video = await videoRow(meta.videoId!);
    expect(video?.sha256).toBe(sha256(bytes));
    expect(sha256(await readMedia(t.deps, video!.file_key))).toBe(sha256(bytes));
    expect(await tusObjects(t.deps, uploadIdOf(first.url!))).toEqual([]);
  });

  it('termination and the 24-hour expiry remove the multipart upload, its info and its tail part', async () => {
    const bytes = readFileSync(await mp4TwoMegabytes());
    const cancelled = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, chunkSize: 512 * 1024, abortAfter: bytes.length / 2 });
    const stale = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, chunkSize: 512 * 1024, abortAfter: bytes.length / 2 });
    for (const run of [cancelled, stale]) expect(await tusObjects(t.deps, uploadIdOf(run.url!))).toContain(`${uploadIdOf(run.url!)}.part`);

    const del = await fetch(`${srv.url}${new URL(cancelled.url!, srv.url).pathname}`, {
      method: 'DELETE',
      headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${alice.token}` },
    });
    expect(del.status).toBe(204);
    expect(await tusObjects(t.deps, uploadIdOf(cancelled.url!))).toEqual([]);

    t.advance(25 * 60 * 60 * 1000);
    const { rows } = await cleanUpExpiredUploads(t.deps);
    expect(rows).toBe(1);
    expect(await tusObjects(t.deps, uploadIdOf(stale.url!))).toEqual([]);
  });

  it('a created upload with no byte yet is removed by the expiry too', async () => {
    // The clock moved 25 hours in the test before: a token issued now.
    const { token } = await t.deps.tokens.issue(alice.id);
    const path = await createUploadRaw(srv.url, token, 1000);
    const id = path.split('/').pop()!;
    expect(await tusObjects(t.deps, id)).toEqual([`${id} (multipart)`, `${id}.info`]);
    t.advance(25 * 60 * 60 * 1000);
    await cleanUpExpiredUploads(t.deps);
    expect(await tusObjects(t.deps, id)).toEqual([]);
  });

  it('a PATCH body that fails midway while a tail part is resumed keeps what arrived and settles', async () => {
    const { datastore } = tusEndpointFor(t.deps).tus;
    const id = randomBytes(16).toString('hex');
    await datastore.create(new Upload({ id, size: 2_000_000, offset: 0 }));
    // The first write leaves a tail part shorter than a part (700 000 bytes).
    expect(await datastore.write(Readable.from([randomBytes(700_000)]), id, 0)).toBe(700_000);
    const body = new PassThrough();
    const written = datastore.write(body, id, 700_000);
    body.write(randomBytes(300_000));
    await new Promise((ok) => setTimeout(ok, 100));
    body.destroy(new Error('the client went away'));
    expect(await written).toBe(1_000_000);
    expect((await datastore.getUpload(id)).offset).toBe(1_000_000);
    await datastore.remove(id);
    expect(await tusObjects(t.deps, id)).toEqual([]);
  });

  it('the content check reads an MP4 with moov at the end in a few ranged GETs, not one per box', async () => {
    const storage = t.deps.config.storage;
    if (storage.kind !== 's3') throw new Error('S3 only');
    const bytes = readFileSync(await mp4MoovAtEnd());
    const client = createS3Client(storage);
    try {
      await client.send(new PutObjectCommand({ Bucket: storage.bucket, Key: 'probe-moov-at-end', Body: bytes }));
      const src = s3ByteSource(client, storage.bucket, 'probe-moov-at-end', bytes.length);
      expect(await checkVideo(src)).toMatchObject({ container: 'mp4', durationMs: 3000, faststart: false });
      expect(src.requests).toBeLessThanOrEqual(3);
      // Reads past the end are short, as a file's are.
      expect(await src.read(bytes.length - 4, 100)).toEqual(new Uint8Array(bytes.subarray(bytes.length - 4)));
      expect((await src.read(bytes.length, 10)).length).toBe(0);
    } finally {
      client.destroy();
    }
  });
});
