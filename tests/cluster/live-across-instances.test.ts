import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../scripts/lib/cluster/start-cluster';
import { insertVideo } from '../helpers/videos';
import type { DbHandle } from '#db/connect';
import { clusterDatabase, logIn, openEventStream, pushLike, signUpVerified, startTestCluster, uniqueEmail, until } from './cluster-session';

const quantile = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/**
 * A member's live stream held by instance B, likes pushed to instance A: each like's poke must
 * cross from A to B (PostgreSQL NOTIFY), as when the balancer puts a member's two devices on
 * different instances.
 */
describe('live updates across instances', () => {
  let cluster: Cluster;
  let db: DbHandle;

  beforeAll(async () => {
    cluster = await startTestCluster({ workers: 0 });
    db = clusterDatabase(cluster);
  });
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
  });

  it('pokes a stream on B for each like pushed to A, and logs the latency', async () => {
    const [a, b] = cluster.instances;
    const watcherEmail = uniqueEmail('watcher');
    const likerEmail = uniqueEmail('liker');
    const watcherId = await signUpVerified(cluster, 'Wanda Watcher', watcherEmail);
    await signUpVerified(cluster, 'Liam Liker', likerEmail);
    const videoId = await insertVideo(db, watcherId, { title: 'Watched clip' });
    const watcher = await logIn(b!.url, watcherEmail);
    const liker = await logIn(a!.url, likerEmail);

    const stream = await openEventStream(b!.url, watcher.token);
    try {
      await stream.ready;
      const clientId = randomUUID();
      const spans: number[] = [];
      for (let i = 1; i <= 30; i++) {
        const seen = stream.pokes.length;
        const t0 = performance.now();
        await pushLike(a!.url, liker.token, clientId, i, i % 2 === 1, videoId);
        const arrived = await until(`the poke of like ${i} on B`, () => stream.pokes[seen], 10_000);
        spans.push(arrived - t0);
        // Let a poke of this like that comes late not count for the next one.
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(
        `push to A -> poke read on B, 30 likes: p50 ${quantile(spans, 0.5).toFixed(1)} ms, p95 ${quantile(spans, 0.95).toFixed(1)} ms, max ${Math.max(...spans).toFixed(1)} ms`,
      );
      expect(spans).toHaveLength(30);
      const row = await db.db.selectFrom('videos').select('likes_count').where('id', '=', videoId).executeTakeFirstOrThrow();
      // 15 likes and 15 unlikes, alternating: none left.
      expect(Number(row.likes_count)).toBe(0);
    } finally {
      stream.close();
    }
  });
});
