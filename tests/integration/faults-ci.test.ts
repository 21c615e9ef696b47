import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededServer, type SeededServer } from '../faults/lib/seeded-server';
import { fuzzEveryOperation } from '../faults/scenarios/bad-input';
import { mixedLoad } from '../faults/scenarios/load';
import { pushesThroughFaults, uploadsThroughFaults } from '../faults/scenarios/network';
import { crashDuringWrites } from '../faults/scenarios/crash';
import { record } from '../faults/lib/report';
import { CI_SEED, loadSeconds } from '../faults/lib/sizes';
import { openDatabase } from '#db/connect';
import { recomputeScores, standingsOf } from '#server/rewards/recompute';

// The bounded subset of the reliability suite (tests/faults) that runs with every `npm test`:
// the same scenarios with short durations and few repetitions, on one small seeded server.
describe('reliability, bounded (full suite: npm run test:faults)', () => {
  let s: SeededServer;
  beforeAll(async () => {
    s = await seededServer(CI_SEED);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('the seed writes counters and scores that agree with its rows', async () => {
    const counters = s.read((db) =>
      db
        .prepare<[], { id: string }>(
          `SELECT v.id FROM videos v WHERE v.likes_count != (SELECT count(*) FROM likes l WHERE l.video_id = v.id)
           OR v.comments_count != (SELECT count(*) FROM comments c WHERE c.video_id = v.id)
           OR v.views_count != (SELECT count(*) FROM views w WHERE w.video_id = v.id)`,
        )
        .all(),
    );
    expect(counters).toEqual([]);
    const totals = s.read((db) =>
      db
        .prepare<[], { likes: number; comments: number; views: number }>(
          'SELECT (SELECT count(*) FROM likes) AS likes, (SELECT count(*) FROM comments) AS comments, (SELECT count(*) FROM views) AS views',
        )
        .get(),
    );
    expect(totals).toEqual({ likes: CI_SEED.likes, comments: CI_SEED.comments, views: CI_SEED.views });
    const handle = openDatabase(s.dbPath);
    try {
      const kept = await handle.db.selectFrom('scores').selectAll().execute();
      expect(standingsOf(kept)).toEqual(standingsOf(await recomputeScores(handle.db)));
      expect(standingsOf(kept).length).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
  });

  it('bad input: malformed requests to every operation get no 5xx and change nothing', async () => {
    const r = await fuzzEveryOperation(s, { fastCheckRuns: 4 });
    record('ci-bad-input', { ...r, serverErrors: r.serverErrors.slice(0, 20) });
    expect(r.serverErrors).toEqual([]);
    expect(r.stateChanges).toEqual([]);
  }, 120_000);

  it('load: a short mixed run gets only 2xx answers', async () => {
    const r = await mixedLoad(s, { seconds: loadSeconds(4), connections: 8 });
    record('ci-load', r);
    expect(r.errors).toBe(0);
    expect(r.non2xx).toBe(0);
    expect(r.serverMutations).toBeGreaterThanOrEqual(r.mutationsAcknowledged);
  }, 60_000);

  it('network faults: uploads end byte-identical and pushes exactly once', async () => {
    const up = await uploadsThroughFaults(s, {
      uploads: 2,
      sizeMiB: 2,
      faults: { cutAtTotalUp: 3 * 1024 * 1024, cutRate: 0.5, cutBetween: [0, 1024 * 1024], cutDirection: 'up', stallRate: 0.2, stallMs: 300 },
    });
    record('ci-network-uploads', up);
    expect(up.problems).toEqual([]);
    expect(up.identical).toBe(2);
    expect(up.cuts).toBeGreaterThan(0);
    // Random cuts plus one certain cut (cutAtTotalUp), so every run really exercises a replay.
    const push = await pushesThroughFaults(s, {
      clients: 3,
      batches: 6,
      batchSize: 10,
      faults: { cutRate: 0.5, cutBetween: [0, 6000], cutDirection: 'either', stallRate: 0.1, stallMs: 800, cutAtTotalUp: 4000 },
    });
    record('ci-network-pushes', push);
    expect(push.problems).toEqual([]);
    expect(push.lost + push.doubled).toBe(0);
    expect(push.cuts).toBeGreaterThan(0);
  }, 120_000);

  it('crash: kill -9 mid-write loses and doubles nothing and leaves the database intact', async () => {
    const r = await crashDuringWrites(s, { kills: 1, clients: 2, batchSize: 5, uploadMiB: 3, upMs: 1500 });
    record('ci-crash', r);
    expect(r.problems).toEqual([]);
    expect(r.integrity).toBe('ok');
    expect(r.uploadIdentical).toBe(true);
    expect(r.lost + r.doubled).toBe(0);
  }, 120_000);
});
