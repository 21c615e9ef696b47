import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../scripts/lib/cluster/start-cluster';
import { tusUpload } from '../bench/lib/tus-upload';
import { ffmpegPidsNaming, makeLongClip } from '../helpers/media-jobs';
import type { DbHandle } from '#db/connect';
import { clusterDatabase, logIn, signUpVerified, startTestCluster, uniqueEmail, until } from './cluster-session';

/**
 * The media worker of a deployment dies with SIGKILL in the middle of ffmpeg; another worker,
 * started afterwards on another DATA_DIR, takes the job over once its lease runs out (2 s here)
 * and publishes the renditions to the bucket, which every web instance then serves.
 */
describe('a media worker killed mid-encode', () => {
  let cluster: Cluster;
  let db: DbHandle;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'vidi-cluster-worker-'));
    cluster = await startTestCluster({ workers: 1, env: { MEDIA_LEASE_SECONDS: '2' } });
    db = clusterDatabase(cluster);
  });
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('is finished by a second worker, and its renditions are served by both instances', async () => {
    const email = uniqueEmail('maker');
    await signUpVerified(cluster, 'Mo Maker', email);
    const { token } = await logIn(cluster.url, email);
    // 12 s at 360x640: several seconds of ffmpeg, so the kill lands mid-encode.
    const data = readFileSync(await makeLongClip(join(tmp, 'long.mp4')));
    const { videoId } = await tusUpload({ origin: cluster.url, token, data, title: 'Long take' });

    const video = () => db.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
    const job = () => db.db.selectFrom('media_jobs').selectAll().where('video_id', '=', videoId).executeTakeFirstOrThrow();
    await until('processing under way on worker-1', async () => (await job()).state === 'running' && (await video()).media_progress > 0, 60_000);
    const [first] = cluster.workers;
    const progressAtKill = (await video()).media_progress;
    await first!.kill9();
    // Its ffmpeg outlives it (nothing kills an orphan): stopped here, so it cannot finish the job's work either.
    for (const pid of ffmpegPidsNaming(first!.dataDir)) process.kill(pid, 'SIGKILL');
    expect(await job()).toMatchObject({ state: 'running', attempts: 1 });

    const t0 = Date.now();
    await cluster.addWorker();
    const ready = await until(
      'ready after the second worker took over',
      async () => {
        const v = await video();
        return v.media_status === 'ready' ? v : null;
      },
      120_000,
    );
    console.log(`worker-1 killed at ${progressAtKill} %; ready ${Date.now() - t0} ms after worker-2 started`);
    expect(await job()).toMatchObject({ state: 'done', attempts: 2 });
    expect(ready.media_key).toMatch(new RegExp(`/${videoId}/`));
    for (const origin of [...cluster.instances.map((i) => i.url), cluster.url]) {
      const master = await fetch(`${origin}/media/${ready.media_key}/master.m3u8`);
      expect(master.status, origin).toBe(200);
      expect(await master.text()).toContain('#EXTM3U');
    }
    expect((await fetch(`${cluster.url}/media/${ready.poster_key}`)).status).toBe(200);
  });
});
