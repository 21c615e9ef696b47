import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { readLeaderboards, BEST_USERS, BEST_VIEWERS } from '#server/rewards/leaderboards';
import { sql } from 'kysely';
import { maintainedDays, recomputeAll, recomputeScores, type ScoreRow } from '#server/rewards/recompute';
import { recordDistribution } from '#server/rewards/distributions';
import { Changes } from '#server/changes/changes';
import { emptyRewardsTables, rewardsWorld, type RewardsWorld } from './rewards-world';

type Command =
  | { op: 'like' | 'unlike' | 'comment' | 'share'; user: number; video: number }
  | { op: 'setCap'; cap: number }
  | { op: 'void'; user: number }
  | { op: 'wait'; hours: number }
  | { op: 'view'; user: number; video: number; watched: number; claimedAgo: number | null }
  | { op: 'deleteComment'; pick: number }
  | { op: 'newVideo'; user: number }
  | { op: 'deleteVideo'; video: number }
  | { op: 'suspend' | 'reactivate' | 'deleteUser'; user: number }
  | { op: 'distribute' };

const USERS = 6;
const idx = fc.nat({ max: 40 });
const user = fc.nat({ max: USERS - 1 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('like' as const), user, video: idx }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('unlike' as const), user, video: idx }) },
  // Few videos per member make repeated comments and shares on one video common.
  { weight: 4, arbitrary: fc.record({ op: fc.constant('comment' as const), user, video: idx }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('share' as const), user, video: idx }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('setCap' as const), cap: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void' as const), user }) },
  // Crosses UTC days (the cap is per day) and gives views watch time to spend.
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wait' as const), hours: fc.constantFrom(1, 6, 20) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('view' as const),
      user,
      video: idx,
      watched: fc.constantFrom(1000, 3000, 20_000, 90_000),
      // Views sent from the outbox carry the time they happened, possibly long before (or before a distribution).
      claimedAgo: fc.constantFrom(null, 0, 4000, 30_000, 600_000),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('deleteComment' as const), pick: idx }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('newVideo' as const), user }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteVideo' as const), video: idx }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('suspend' as const), user }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reactivate' as const), user }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteUser' as const), user }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('distribute' as const) }) },
);

/** The boards as a from-scratch reader would rank them: eligible members with points, best first. */
function ranked(rows: ScoreRow[], board: 'creator' | 'viewer') {
  const pts = (r: ScoreRow) => (board === 'creator' ? r.creator_points : r.viewer_points);
  const at = (r: ScoreRow) => (board === 'creator' ? r.creator_reached_at : r.viewer_reached_at);
  return rows
    .filter((r) => pts(r) > 0)
    .sort((a, b) => pts(b) - pts(a) || at(a) - at(b) || (a.user_id < b.user_id ? -1 : 1))
    .map((r, i) => ({ rank: i + 1, user_id: r.user_id, points: pts(r) }));
}

describe('rewards counters under random histories', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function reset(): Promise<RewardsWorld> {
    await emptyRewardsTables(t.deps);
    await t.deps.db
      .insertInto('prizes')
      .values([
        { board: 'best_user', rank: 1, amount_rupees: 1000 },
        { board: 'best_user', rank: 2, amount_rupees: 300 },
        { board: 'best_viewer', rank: 1, amount_rupees: 50 },
      ])
      .execute();
    return rewardsWorld(t.deps);
  }

  /** The world a history runs in: members (gone once deleted) and the videos still there. */
  interface History {
    w: RewardsWorld;
    admin: string;
    users: string[];
    videos: string[];
    gone: Set<string>;
  }
  const at = <T>(list: T[], i: number) => (list.length ? list[i % list.length] : undefined);

  async function engage(h: History, c: Extract<Command, { op: 'like' | 'unlike' | 'comment' | 'share' | 'view' }>) {
    const { w } = h;
    const u = h.users[c.user]!;
    const v = at(h.videos, c.video);
    if (h.gone.has(u) || !v) return;
    if (c.op === 'view') return w.view(u, v, c.watched, c.claimedAgo === null ? {} : { clientTime: w.now() - c.claimedAgo });
    await { like: () => w.like(u, v), unlike: () => w.unlike(u, v), comment: () => w.comment(u, v), share: () => w.share(u, v) }[c.op]();
  }

  async function account(h: History, c: Extract<Command, { op: 'suspend' | 'reactivate' | 'deleteUser' }>) {
    const u = h.users[c.user]!;
    if (h.gone.has(u)) return;
    if (c.op === 'suspend') return h.w.suspend(u);
    if (c.op === 'reactivate') return h.w.reactivate(u);
    const owned = await h.w.db.selectFrom('videos').select('id').where('user_id', '=', u).execute();
    await h.w.deleteUser(u);
    h.gone.add(u);
    for (const o of owned) h.videos.splice(h.videos.indexOf(o.id), 1);
  }

  async function removeVideo(h: History, index: number) {
    const v = at(h.videos, index);
    if (!v) return;
    await h.w.deleteVideo(v);
    h.videos.splice(h.videos.indexOf(v), 1);
  }

  const present = (h: History, user: number) => !h.gone.has(h.users[user]!);
  type Step<K extends Command['op']> = (h: History, c: Extract<Command, { op: K }>) => unknown;
  const steps: { [K in Command['op']]: Step<K> } = {
    like: engage,
    unlike: engage,
    comment: engage,
    share: engage,
    view: engage,
    deleteComment: async (h, c) => {
      const pick = at(await h.w.db.selectFrom('comments').select('id').orderBy('id').execute(), c.pick);
      if (pick) await h.w.deleteComment(pick.id);
    },
    newVideo: async (h, c) => present(h, c.user) && h.videos.push(await h.w.video(h.users[c.user]!)),
    deleteVideo: (h, c) => removeVideo(h, c.video),
    suspend: account,
    reactivate: account,
    deleteUser: account,
    distribute: (h) => h.w.distribute(h.admin),
    setCap: (h, c) => h.w.setCap(c.cap),
    void: (h, c) => present(h, c.user) && h.w.voidPoints(h.users[c.user]!, h.admin),
    wait: (h, c) => h.w.tick(c.hours * 3_600_000),
  };

  async function run(w: RewardsWorld, admin: string, users: string[], videos: string[], commands: Command[]) {
    const h: History = { w, admin, users, videos, gone: new Set() };
    for (const c of commands) await (steps[c.op] as Step<typeof c.op>)(h, c as never);
    return h.gone;
  }

  it('counters equal a full recomputation, and the leaderboards equal boards computed from scratch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 45 }), async (commands) => {
        const w = await reset();
        const admin = await w.user('Admin');
        const users: string[] = [];
        for (let i = 0; i < USERS; i++) users.push(await w.user(`U${i}`));
        const videos = [await w.video(users[0]!), await w.video(users[1]!), await w.video(users[2]!)];
        const gone = await run(w, admin, users, videos, commands);

        expect(await w.counters()).toEqual(await w.recomputed());
        expect(await maintainedDays(w.db)).toEqual((await recomputeAll(w.db)).days);
        // shares_count counts members, whatever they repeated.
        const shares = await w.db
          .selectFrom('videos')
          .select([
            'shares_count',
            (eb) =>
              eb
                .selectFrom('shares')
                .select((e) => e.fn.count<number>(sql`DISTINCT user_id`).as('n'))
                .whereRef('shares.video_id', '=', 'videos.id')
                .as('members'),
          ])
          .execute();
        for (const r of shares) expect(Number(r.shares_count)).toBe(Number(r.members));

        const scratch = await recomputeScores(w.db);
        const creators = ranked(scratch, 'creator');
        const viewers = ranked(scratch, 'viewer');
        const names = new Map((await w.db.selectFrom('profiles').select(['id', 'name']).execute()).map((p) => [p.id, p.name]));
        const prizes = { best_user: [1000, 300], best_viewer: [50] };
        for (const u of [admin, ...users].filter((x) => !gone.has(x))) {
          const lb = await readLeaderboards(w.db, u, 0);
          expect(lb.best_users).toEqual(
            creators.slice(0, BEST_USERS).map((e) => ({ ...e, user_name: names.get(e.user_id), prize_rupees: prizes.best_user[e.rank - 1] ?? 0 })),
          );
          expect(lb.best_viewers).toEqual(
            viewers.slice(0, BEST_VIEWERS).map((e) => ({ ...e, user_name: names.get(e.user_id), prize_rupees: prizes.best_viewer[e.rank - 1] ?? 0 })),
          );
          const mine = (list: typeof creators) => {
            const e = list.find((x) => x.user_id === u);
            return e ? { rank: e.rank, points: e.points } : null;
          };
          expect(lb.me).toEqual({ creator: mine(creators), viewer: mine(viewers) });
        }

        // Recording the same period twice leaves one set of winners; an empty period is refused.
        const ps = (await readLeaderboards(w.db, admin, 0)).period_start;
        if (!creators.length && !viewers.length) {
          await expect(
            w.db.transaction().execute((trx) => recordDistribution(trx, new Changes(w.tick()), { adminId: admin, periodStart: ps })),
          ).rejects.toMatchObject({ code: 'nothing_to_distribute' });
          return;
        }
        const first = await w.db.transaction().execute((trx) => recordDistribution(trx, new Changes(w.tick()), { adminId: admin, periodStart: ps }));
        const again = await w.db.transaction().execute((trx) => recordDistribution(trx, new Changes(w.tick()), { adminId: admin, periodStart: ps }));
        expect(first.created).toBe(true);
        expect(again).toEqual({ distribution: first.distribution, created: false });
        const winners = await w.db.selectFrom('distribution_winners').selectAll().where('distribution_id', '=', first.distribution.id).execute();
        expect(winners).toHaveLength(Math.min(creators.length, BEST_USERS) + Math.min(viewers.length, BEST_VIEWERS));
        expect(await w.counters()).toEqual([]);
        expect(await w.recomputed()).toEqual([]);
        expect(await maintainedDays(w.db)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
