import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { createDeps } from '#server/deps';
import type { AppDeps } from '#server/context';
import { freePort, startServer, type ServerProcess } from '../helpers/server-process';
import { testDatabaseEnv } from '../helpers/test-database';
import { createUser, type TestUser } from '../helpers/users';
import { runUpload, sha256, videoMetadata } from '../fixtures/tus-client';
import { mp4TwelveMegabytes, mp4TwoMegabytes } from '../fixtures/videos';

// The real server as `npm start` runs it (tus routed in its node:http listener), killed mid-upload.
describe('an upload survives a server crash and restart', () => {
  let srv: ServerProcess;
  let deps: AppDeps & { close(): Promise<void> };
  let user: TestUser;

  beforeAll(async () => {
    const port = await freePort();
    srv = await startServer({ port });
    deps = await createDeps(loadConfig({ DATA_DIR: srv.dataDir, PUBLIC_URL: srv.url, LOG_LEVEL: 'error', ...(await testDatabaseEnv(srv.dataDir)) }));
    user = await createUser(deps, { name: 'Carol' });
  });
  afterAll(async () => {
    await srv?.stop();
    await deps?.close();
  });

  it('resumes from the stored URL after kill -9 and a restart, ending byte-identical', async () => {
    const bytes = readFileSync(await mp4TwoMegabytes());
    const chunkSize = 256 * 1024;
    const meta = videoMetadata();
    let url: string | null = null;
    let acknowledged = 0;
    let killed: Promise<void> | undefined;
    const first = await runUpload({
      baseUrl: srv.url,
      token: user.token,
      bytes,
      metadata: meta,
      chunkSize,
      onUrl: (u) => (url = u),
      onChunkComplete: (accepted) => (acknowledged = accepted),
      onProgress: (sent) => {
        if (!killed && sent >= bytes.length * 0.3) killed = srv.kill9();
      },
    }).then(
      () => 'finished',
      () => 'failed',
    );
    await killed;
    expect(first).toBe('failed');
    expect(url).toMatch(/\/files\/[0-9a-f]{32}$/);
    expect(await deps.db.selectFrom('videos').select('id').where('id', '=', meta.videoId!).executeTakeFirst()).toBeUndefined();

    await srv.restart();
    const second = await runUpload({ baseUrl: srv.url, token: user.token, bytes, metadata: meta, chunkSize, uploadUrl: url! });
    expect(second.aborted).toBe(false);
    expect(second.startOffset).toBeGreaterThanOrEqual(acknowledged);
    expect(second.startOffset).toBeGreaterThan(0);

    const video = await deps.db.selectFrom('videos').selectAll().where('id', '=', meta.videoId!).executeTakeFirstOrThrow();
    expect(video.sha256).toBe(sha256(bytes));
    const served = await fetch(`${srv.url}/media/${video.file_key}`);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
  });
  it('stores the right sha256 after two crashes mid-upload (the running hash rebuilt from the file each time)', async () => {
    const bytes = readFileSync(await mp4TwelveMegabytes());
    const chunkSize = 1024 * 1024;
    const meta = videoMetadata();
    let url: string | null = null;
    // Each run is killed once it has sent past `killAt` of the file; the last one finishes.
    for (const killAt of [0.35, 0.7]) {
      let killed: Promise<void> | undefined;
      const outcome = await runUpload({
        baseUrl: srv.url,
        token: user.token,
        bytes,
        metadata: meta,
        chunkSize,
        ...(url ? { uploadUrl: url } : {}),
        onUrl: (u) => (url = u),
        onProgress: (sent) => {
          if (!killed && sent >= bytes.length * killAt) killed = srv.kill9();
        },
      }).then(
        () => 'finished',
        () => 'failed',
      );
      await killed;
      expect(outcome).toBe('failed');
      await srv.restart();
    }
    const last = await runUpload({ baseUrl: srv.url, token: user.token, bytes, metadata: meta, chunkSize, uploadUrl: url! });
    expect(last.startOffset).toBeGreaterThan(bytes.length * 0.35);
    const video = await deps.db.selectFrom('videos').selectAll().where('id', '=', meta.videoId!).executeTakeFirstOrThrow();
    expect(video.sha256).toBe(sha256(bytes));
    const served = await fetch(`${srv.url}/media/${video.file_key}`);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
  });
});
