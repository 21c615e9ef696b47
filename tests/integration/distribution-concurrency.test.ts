import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEST_USERS, BEST_VIEWERS } from '#server/rewards/leaderboards';
import { maintainedDays, recomputeAll, standingsOf, type ScoreRow } from '#server/rewards/recompute';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// A prize distribution while members' likes are being pushed (docs/rewards.md, "Two engines"):
// every like belongs to exactly one period. The winners recorded are what a recomputation of the
// closed period gives, and the new period's counters are what a recomputation of it gives, however
// the pushes and the distribution interleave (on PostgreSQL they really run side by side; on
// SQLite they queue for the one connection in whatever order the event loop gives them).

const MEMBERS = 10;
const VIDEOS_EACH = 3;
const ROUNDS = 3;

let t: TestApp;
let admin: TestUser;
let members: TestUser[];
const videosOf = new Map<string, string[]>();

beforeAll(async () => {
  t = await createTestApp({ MEDIA_WORKER: 'off' });
  admin = await createUser(t.deps, { isAdmin: true, name: 'Admin' });
  members = [];
  for (let i = 0; i < MEMBERS; i++) {
    const m = await createUser(t.deps, { name: `Member ${i}` });
    members.push(m);
    const ids: string[] = [];
    for (let v = 0; v < VIDEOS_EACH; v++) ids.push(await insertVideo(t.deps, m.id, { created_at: Date.now() - 60_000 }));
    videosOf.set(m.id, ids);
  }
});
afterAll(() => t?.close());

/** Every (member, video of another member) pair, each liked once over the whole test: likes only add, so nothing undoes a closed period. */
const pairs: Array<[TestUser, string]> = [];
let next = 0;
function takeLikes(n: number): Array<[TestUser, string]> {
  if (!pairs.length) for (const m of members) for (const o of members) if (o !== m) for (const v of videosOf.get(o.id)!) pairs.push([m, v]);
  const out = pairs.slice(next, next + n);
  next += n;
  return out;
}

/** One push per member holding some of their likes, from a new client each time. */
function pushLikes(likes: Array<[TestUser, string]>) {
  const by = new Map<TestUser, string[]>();
  for (const [m, v] of likes) by.set(m, [...(by.get(m) ?? []), v]);
  return [...by].map(([m, vs]) =>
    call(
      t.app,
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: vs.map((videoId, i) => ({ id: i + 1, name: 'like', args: { videoId } })) },
      m.token,
    ),
  );
}

/** A board's top `n` from recomputed rows: points desc, earlier reach, then id (the leaderboard's order). */
function topOf(rows: ScoreRow[], board: 'creator' | 'viewer', n: number) {
  const points = (r: ScoreRow) => Number(board === 'creator' ? r.creator_points : r.viewer_points);
  const reach = (r: ScoreRow) => Number(board === 'creator' ? r.creator_reached_at : r.viewer_reached_at);
  return rows
    .filter((r) => points(r) > 0)
    .sort((a, b) => points(b) - points(a) || reach(a) - reach(b) || (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0))
    .slice(0, n)
    .map((r) => ({ user_id: r.user_id, points: points(r) }));
}

describe('a distribution racing pushes of likes', () => {
  it('records exactly the closed period, and the new period counts exactly what came after', async () => {
    // Something to distribute in the first period.
    for (const res of await Promise.all(pushLikes(takeLikes(MEMBERS * 2)))) expect(res.status).toBe(200);
    let periodStart = 0;
    let distributed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const before = pushLikes(takeLikes(MEMBERS * 3));
      // The distribution goes out while those pushes are in flight, with more pushes behind it.
      await new Promise((r) => setImmediate(r));
      const distribution = call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: periodStart }, admin.token);
      const after = pushLikes(takeLikes(MEMBERS * 3));
      const answers = await Promise.all([...before, ...after]);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.json.results.every((r: { status: string }) => r.status === 'applied')).toBe(true);
      }
      const recorded = await distribution;
      expect(recorded.status).toBe(201);
      const d = recorded.json.distribution;
      expect(d.period_start).toBe(periodStart);

      // The winners are the closed period recomputed from the rows: (period start, distribution time].
      const closed = (await recomputeAll(t.deps.db, { start: periodStart, end: d.created_at })).scores;
      const winners = (list: Array<{ user_id: string; points: number }>) => list.map((w) => ({ user_id: w.user_id, points: w.points }));
      expect(winners(d.best_users)).toEqual(topOf(closed, 'creator', BEST_USERS));
      expect(winners(d.best_viewers)).toEqual(topOf(closed, 'viewer', BEST_VIEWERS));

      // The new period's counters are the new period recomputed.
      const { scores, days } = await recomputeAll(t.deps.db);
      const kept = (await t.deps.db.selectFrom('scores').selectAll().execute()).map((r) => ({ ...r }));
      expect(standingsOf(kept)).toEqual(standingsOf(scores));
      expect(await maintainedDays(t.deps.db)).toEqual(days);
      periodStart = d.created_at;
      // Every member is on Best Users (fewer members than places): a creator point is a like.
      distributed += d.best_users.reduce((n: number, w: { points: number }) => n + w.points, 0);
    }
    // Each like counted in exactly one period: none lost between two, none counted in both.
    const likes = await t.deps.db
      .selectFrom('likes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(likes.n)).toBe(next);
    const current = await t.deps.db
      .selectFrom('scores')
      .select((eb) => eb.fn.sum<number>('creator_points').as('n'))
      .executeTakeFirstOrThrow();
    expect(distributed + Number(current.n ?? 0)).toBe(next);
  }, 120_000);
});
