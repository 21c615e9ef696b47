import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { markAllProcessed } from '../helpers/media-processed';
import { listen, rawRequest, runUpload, sha256, videoMetadata, type LoopbackServer, terminateUnfinished } from '../fixtures/tus-client';
import { mp4TwelveMegabytes, mp4TwoMegabytes } from '../fixtures/videos';
import { tusEndpointFor } from '#server/uploads/tus-server';
import { startFaultProxy } from '../faults/fault-proxy';

// The sha256 is computed while the bytes arrive (server/uploads/upload-hashes.ts). These runs cut
// uploads in the middle of a PATCH body and drop the in-memory state, and check that the stored
// sha256 is still the file's.
describe('the running sha256 of an upload', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    srv = await listen(t);
    alice = await createUser(t.deps, { name: 'Alice' });
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

  const storedSha = async (videoId: string) =>
    (await t.deps.db.selectFrom('videos').select('sha256').where('id', '=', videoId).executeTakeFirstOrThrow()).sha256;
  const uploadId = (url: string) => url.split('/').pop()!;
  /**
   * The running hash is kept on disk only: on S3 the PATCHes of an upload may reach different
   * instances, and the finish reads the object back (server/uploads/s3-upload-area.ts). There these
   * runs check the stored sha256 alone.
   */
  const onDisk = () => t.deps.config.storage.kind === 'disk';

  /**
   * A HEAD takes the upload's lock (as a resuming client's does), so it answers once the cut PATCH
   * has been written out.
   */
  const afterCut = async (url: string) => {
    const head = await rawRequest(srv.url, 'HEAD', new URL(url).pathname, { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${alice.token}` });
    const offset = Number(head.headers['upload-offset']);
    if (onDisk()) {
      expect(offset).toBe(statSync(join(t.deps.config.uploadsDir, uploadId(url))).size);
      // Every byte that arrived before the cut is written and hashed: the state matches the file.
      expect(await tusEndpointFor(t.deps).hashes.covered(uploadId(url))).toBe(offset);
    }
    return offset;
  };

  /** One run through a proxy that cuts the connection after `cutAt` bytes went up (inside a PATCH body). */
  const cutRun = async (bytes: Buffer, meta: Record<string, string>, chunkSize: number, cutAt: number, uploadUrl?: string) => {
    const proxy = await startFaultProxy(new URL(srv.url).port ? Number(new URL(srv.url).port) : 80, { cutAtTotalUp: cutAt });
    let url: string | null = uploadUrl ? uploadUrl.replace(srv.url, proxy.url) : null;
    try {
      const outcome = await runUpload({
        baseUrl: proxy.url,
        token: alice.token,
        bytes,
        metadata: meta,
        chunkSize,
        ...(url ? { uploadUrl: url } : {}),
        onUrl: (u) => (url = u),
      }).then(
        () => 'finished',
        () => 'cut',
      );
      expect(outcome).toBe('cut');
      expect(proxy.stats.cuts).toBe(1);
    } finally {
      await proxy.close();
    }
    return url!.replace(/^http:\/\/[^/]+/, srv.url);
  };

  it('is right after uploads cut in the middle of a PATCH body and resumed, at several points', async () => {
    const bytes = readFileSync(await mp4TwoMegabytes());
    const chunkSize = 700_000;
    for (const fraction of [0.13, 0.42, 0.77]) {
      const meta = videoMetadata();
      const url = await cutRun(bytes, meta, chunkSize, Math.floor(bytes.length * fraction));
      const kept = await afterCut(url);
      const second = await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize, uploadUrl: url });
      expect(second.startOffset, `cut at ${fraction}`).toBe(kept);
      expect(await storedSha(meta.videoId!), `cut at ${fraction}`).toBe(sha256(bytes));
    }
  });

  it('is right when the in-memory state is gone (as after a restart) and the rest is resumed', async () => {
    const bytes = readFileSync(await mp4TwelveMegabytes());
    const meta = videoMetadata();
    const chunkSize = 1024 * 1024;
    const url = await cutRun(bytes, meta, chunkSize, Math.floor(bytes.length * 0.6));
    const before = await afterCut(url);
    tusEndpointFor(t.deps).hashes.forget(uploadId(url));
    expect(await tusEndpointFor(t.deps).hashes.covered(uploadId(url))).toBeNull();

    // Another cut after the resume (the state is rebuilt from the file), then the end.
    await cutRun(bytes, meta, chunkSize, Math.floor(bytes.length * 0.2), url);
    expect(await afterCut(url)).toBeGreaterThan(before);
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize, uploadUrl: url });
    expect(await storedSha(meta.videoId!)).toBe(sha256(bytes));
  });

  it('is right when the hashing thread is lost mid-upload (a new one rebuilds the state from the file)', async () => {
    const bytes = readFileSync(await mp4TwelveMegabytes());
    const meta = videoMetadata();
    const chunkSize = 1024 * 1024;
    const url = await cutRun(bytes, meta, chunkSize, Math.floor(bytes.length * 0.5));
    expect(await afterCut(url)).toBeGreaterThan(0);
    await tusEndpointFor(t.deps).hashes.close();
    await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize, uploadUrl: url });
    expect(await storedSha(meta.videoId!)).toBe(sha256(bytes));
  });

  // Batches go through a fixed ring of 16 one-MiB slots shared with the hashing thread: six 12 MiB
  // PATCHes at once need more slots than there are (writers wait for one), and the thread is
  // ended while bodies still arrive, so slots it held return to the ring and are refilled.
  it('is right for more concurrent uploads than ring slots, with the hashing thread lost meanwhile', async () => {
    const bytes = readFileSync(await mp4TwelveMegabytes());
    let closing: Promise<void> | null = null;
    const metas = Array.from({ length: 6 }, () => videoMetadata());
    // Two members: each may have 3 uploads in progress.
    const uploaders = [alice, await createUser(t.deps, { name: 'Alma' })];
    await Promise.all(
      metas.map((metadata, i) =>
        runUpload({
          baseUrl: srv.url,
          token: uploaders[i % 2]!.token,
          bytes,
          metadata,
          chunkSize: bytes.length,
          onProgress: (sent) => {
            if (!closing && sent > bytes.length / 3) closing = tusEndpointFor(t.deps).hashes.close();
          },
        }),
      ),
    );
    expect(closing).not.toBeNull();
    await closing;
    for (const m of metas) expect(await storedSha(m.videoId!)).toBe(sha256(bytes));
  });

  it('is right for a whole upload in one PATCH and for one in many small ones', async () => {
    const bytes = readFileSync(await mp4TwoMegabytes());
    for (const chunkSize of [bytes.length, 64 * 1024 + 7]) {
      const meta = videoMetadata();
      await runUpload({ baseUrl: srv.url, token: alice.token, bytes, metadata: meta, chunkSize });
      expect(await storedSha(meta.videoId!), `chunks of ${chunkSize}`).toBe(sha256(bytes));
    }
  });
});
