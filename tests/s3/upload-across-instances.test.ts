import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '#tests/support/postgres-cluster';
import { loadConfig } from '#server/config';
import type { AppDeps } from '#server/context';
import { createDeps } from '#server/deps';
import { paddedMp4 } from '../bench/lib/video-file';
import { createUploadRaw, sha256, videoMetadata } from '../fixtures/tus-client';
import { freePort, startServer, type ServerProcess } from '../helpers/server-process';
import { sharedKeysEnv, TEMPLATE_DATABASE } from '../helpers/test-database';
import { testStorageEnv } from '../helpers/test-storage';
import { createUser, type TestUser } from '../helpers/users';
import { readMedia, tusObjects } from '../integration/upload-storage';

const MIB = 1024 * 1024;
const CHUNK = 5 * MIB;

/**
 * 20 MiB of MP4 that nothing on the way can compress (a short clip and random padding): four 5 MiB
 * chunks, so a PATCH can be cut past the first and the upload still has chunks left to resume.
 */
const uploadBytes = (dir: string) => readFileSync(paddedMp4(join(dir, 'twenty-mb.mp4'), 20 * MIB).file);

interface PatchResult {
  status: number;
  offset: number | null;
  /** The request failed before an answer (its server died, or it answered and closed first). */
  error?: string;
}

/**
 * One PATCH of `body` at `offset`, sent in 256 KiB pieces `pauseMs` apart (a slow phone), so a
 * test can act while it is in flight: `onSent` hears the bytes written so far.
 */
function patch(
  baseUrl: string,
  path: string,
  token: string,
  offset: number,
  body: Uint8Array,
  pauseMs = 0,
  onSent?: (n: number) => void,
): Promise<PatchResult> {
  const u = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: PatchResult) => {
      if (!settled) resolve(r);
      settled = true;
    };
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: 'PATCH',
        path,
        headers: {
          'Tus-Resumable': '1.0.0',
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(body.length),
          'Upload-Offset': String(offset),
          Authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0, offset: res.headers['upload-offset'] ? Number(res.headers['upload-offset']) : null }));
      },
    );
    req.on('error', (e) => done({ status: 0, offset: null, error: e.message }));
    void (async () => {
      const piece = 256 * 1024;
      for (let at = 0; at < body.length && !settled && !req.destroyed; at += piece) {
        const slice = body.subarray(at, Math.min(body.length, at + piece));
        if (!req.write(slice)) await new Promise((ok) => req.once('drain', ok));
        onSent?.(at + slice.length);
        if (pauseMs) await sleep(pauseMs);
      }
      req.end();
    })();
  });
}

async function head(baseUrl: string, path: string, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return Number(res.headers.get('upload-offset'));
}

// Two real server processes on one PostgreSQL database and one bucket, as behind a load balancer:
// consecutive requests of one upload land on either. PATCHes taken in turn by the two instances are
// tested through a real balancer in tests/cluster/upload-across-instances.test.ts; here, what needs
// an instance killed or two at once mid-PATCH, and that the upload's scratch objects are gone after.
describe('one tus upload across two instances (PostgreSQL upload locks, S3 store)', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let deps: AppDeps & { close(): Promise<void> };
  let user: TestUser;
  let bytes: Buffer;
  const dataDir = mkdtempSync(join(tmpdir(), 'vidi-two-'));

  beforeAll(async () => {
    bytes = uploadBytes(dataDir);
    const admin = inject('pgAdminUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    await createDatabase(admin, name, TEMPLATE_DATABASE);
    const portA = await freePort();
    // One issuer for both (tokens name PUBLIC_URL), as a deployment behind one address has.
    const env = {
      DATABASE_URL: admin.replace(/\/[^/]*$/, `/${name}`),
      PUBLIC_URL: `http://127.0.0.1:${portA}`,
      MEDIA_WORKER: 'off',
      ...sharedKeysEnv,
      ...(await testStorageEnv()),
    };
    [a, b] = await Promise.all([startServer({ port: portA, env }), startServer({ env })]);
    deps = await createDeps(loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'error' }));
    user = await createUser(deps, { name: 'Dana' });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await deps?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function expectStored(videoId: string, path: string): Promise<void> {
    const video = await deps.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(video.sha256).toBe(sha256(bytes));
    expect(sha256(await readMedia(deps, video.file_key))).toBe(sha256(bytes));
    for (const srv of [a, b]) {
      const served = await fetch(`${srv.url}/media/${video.file_key}`);
      expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    }
    expect(await tusObjects(deps, path.split('/').pop())).toEqual([]);
  }

  /** HEAD then PATCHes from the offset it gives, in 5 MiB chunks, all to `srv`. */
  async function finishOn(srv: ServerProcess, path: string): Promise<PatchResult> {
    let offset = await head(srv.url, path, user.token);
    let last: PatchResult = { status: 0, offset };
    while (offset < bytes.length) {
      last = await patch(srv.url, path, user.token, offset, bytes.subarray(offset, offset + CHUNK));
      expect(last.status).toBe(204);
      offset = last.offset!;
    }
    return last;
  }

  it('resumes on the other instance after the one receiving a PATCH is killed -9', async () => {
    const meta = videoMetadata();
    const path = await createUploadRaw(a.url, user.token, bytes.length, meta);
    expect(await patch(b.url, path, user.token, 0, bytes.subarray(0, CHUNK))).toMatchObject({ status: 204, offset: CHUNK });
    let killed: Promise<void> | undefined;
    const cut = await patch(a.url, path, user.token, CHUNK, bytes.subarray(CHUNK, 3 * CHUNK), 20, (sent) => {
      if (!killed && sent >= 1.5 * CHUNK) killed = a.kill9();
    });
    await killed;
    expect(cut.status).toBe(0);
    // Its lock went with its connection: the HEAD is answered at once, from what the bucket holds.
    const started = Date.now();
    expect(await head(b.url, path, user.token)).toBeGreaterThanOrEqual(CHUNK);
    expect(Date.now() - started).toBeLessThan(5_000);
    await finishOn(b, path);
    await a.restart();
    await expectStored(meta.videoId!, path);
  });

  it('finishes with the right sha256 on an instance that missed a PATCH (its running hash is dropped, the object read back)', async () => {
    const meta = videoMetadata();
    const path = await createUploadRaw(a.url, user.token, bytes.length, meta);
    // A hashes the first chunk on its way in, B the second: A's state no longer covers the offset.
    expect(await patch(a.url, path, user.token, 0, bytes.subarray(0, CHUNK))).toMatchObject({ status: 204, offset: CHUNK });
    expect(await patch(b.url, path, user.token, CHUNK, bytes.subarray(CHUNK, 2 * CHUNK))).toMatchObject({ status: 204, offset: 2 * CHUNK });
    expect((await finishOn(a, path)).offset).toBe(bytes.length);
    await expectStored(meta.videoId!, path);
  });

  it('lets one of two concurrent PATCHes of an upload on the two instances write at a time, and asks the holder to let go', async () => {
    const meta = videoMetadata();
    const path = await createUploadRaw(a.url, user.token, bytes.length, meta);
    // 5 MiB at about 0.8 MiB/s (6 s): still sending when, asked to let go, it stops taking bytes
    // (@tus/server ends a released request after its 3 s lockDrainTimeout).
    let secondStarted: Promise<PatchResult> | undefined;
    const first = await patch(a.url, path, user.token, 0, bytes.subarray(0, CHUNK), 300, (sent) => {
      if (!secondStarted && sent >= MIB) secondStarted = patch(b.url, path, user.token, 0, bytes.subarray(0, CHUNK), 300);
    });
    const second = await secondStarted!;
    // The holder was asked (NOTIFY from the other instance) and ended its request early, keeping
    // what it had received; the waiter then found the offset moved: 409, nothing written twice.
    expect(first.status).toBe(204);
    expect(first.offset).toBeGreaterThan(0);
    expect(first.offset).toBeLessThan(CHUNK);
    expect(second.status === 409 || second.status === 0).toBe(true);
    expect(await head(b.url, path, user.token)).toBe(first.offset);
    await finishOn(b, path);
    await expectStored(meta.videoId!, path);
  });
});
