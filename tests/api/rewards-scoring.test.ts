import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser } from '../helpers/users';
import { readLeaderboards } from '#server/rewards/leaderboards';
import { rebuildScores } from '#server/rewards/recompute';
import { viewQualifies } from '#server/rewards/view-rules';
import { planText, queryPlan, recordQueries } from '../helpers/query-plan';
import { emptyRewardsTables, rewardsWorld, type RewardsWorld } from './rewards-world';

let t: TestApp;
let w: RewardsWorld;

beforeAll(async () => {
  t = await createTestApp();
});
// An empty database per scenario: nobody scored, no period closed.
beforeEach(async () => {
  await emptyRewardsTables(t.deps);
  w = rewardsWorld(t.deps);
});
afterAll(() => t?.close());

async function expectConsistent() {
  expect(await w.counters()).toEqual(await w.recomputed());
}

describe('creator and viewer points', () => {
  it('a like or a commenter gives the creator 1 and the actor 1; a qualifying view gives only the viewer 1', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana);
    await w.like(bob, v);
    await w.comment(bob, v);
    // A second comment on the same video is one more comment, not one more point.
    await w.comment(bob, v);
    expect((await w.view(bob, v, 3000)).counted).toBe(true);
    expect(await w.points(ana)).toEqual({ creator: 2, viewer: 0 });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 3 });
    expect((await w.db.selectFrom('videos').select('comments_count').where('id', '=', v).executeTakeFirstOrThrow()).comments_count).toBe(2);
    await expectConsistent();
  });

  it('own likes, comments and views never score', async () => {
    const ana = await w.user('Ana');
    const v = await w.video(ana);
    await w.like(ana, v);
    await w.comment(ana, v);
    expect(await w.view(ana, v, 10_000)).toEqual({ counted: false, reason: 'own_video' });
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });
    const lb = await readLeaderboards(w.db, ana);
    expect(lb.best_users).toEqual([]);
    expect(lb.best_viewers).toEqual([]);
    expect(lb.me).toEqual({ creator: null, viewer: null });
    await expectConsistent();
  });

  it('unliking and deleting take the points away again', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana);
    await w.like(bob, v);
    const c = await w.comment(bob, v);
    await w.unlike(bob, v);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 0 });
    await w.deleteComment(c!);
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
  });

  it('deleting a video removes every point its likes, comments and views gave', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const cy = await w.user('Cy');
    const v1 = await w.video(ana);
    const v2 = await w.video(ana);
    await w.like(bob, v1);
    await w.comment(cy, v1);
    await w.view(cy, v1, 5000);
    await w.like(bob, v2);
    await w.deleteVideo(v1);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 1 });
    expect(await w.points(cy)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
    // A view of the deleted video is refused and scores nothing.
    expect(await w.view(bob, v1, 5000)).toEqual({ counted: false, reason: 'video_not_found' });
  });
});

describe('views', () => {
  it('qualify after 3 s, or at the end of a shorter video, and never beyond its length', () => {
    expect(viewQualifies({ watchedMs: 2999, durationMs: 30_000 })).toEqual({ ok: false, reason: 'too_short' });
    expect(viewQualifies({ watchedMs: 3000, durationMs: 30_000 })).toEqual({ ok: true });
    expect(viewQualifies({ watchedMs: 2000, durationMs: 2000 })).toEqual({ ok: true });
    expect(viewQualifies({ watchedMs: 1000, durationMs: 2000 })).toEqual({ ok: false, reason: 'too_short' });
    expect(viewQualifies({ watchedMs: 60_000, durationMs: 30_000 })).toEqual({ ok: false, reason: 'longer_than_video' });
    // Players measure a little less than the whole of a video watched to its end, or round up.
    expect(viewQualifies({ watchedMs: 1500, durationMs: 2000 })).toEqual({ ok: true });
    expect(viewQualifies({ watchedMs: 2600, durationMs: 3200 })).toEqual({ ok: true });
    expect(viewQualifies({ watchedMs: 31_000, durationMs: 30_000 })).toEqual({ ok: true });
    expect(viewQualifies({ watchedMs: 31_001, durationMs: 30_000 })).toEqual({ ok: false, reason: 'longer_than_video' });
  });

  it('one video counts once per viewer however often it is watched', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana);
    expect((await w.view(bob, v, 4000)).counted).toBe(true);
    expect(await w.view(bob, v, 4000)).toEqual({ counted: false, reason: 'already_viewed' });
    expect(await w.view(bob, v, 9000)).toEqual({ counted: false, reason: 'already_viewed' });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 1 });
    const row = await w.db.selectFrom('videos').select('views_count').where('id', '=', v).executeTakeFirstOrThrow();
    expect(row.views_count).toBe(1);
  });

  it('short or forged watch times add nothing', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana, 10_000);
    expect(await w.view(bob, v, 1500)).toEqual({ counted: false, reason: 'too_short' });
    expect(await w.view(bob, v, 50_000)).toEqual({ counted: false, reason: 'longer_than_video' });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 0 });
  });

  it('a backdated burst buys nothing: a push credits the server time since the previous credited push, plus 10 s once', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const videos = [];
    for (let i = 0; i < 8; i++) videos.push(await w.video(ana));
    const created = w.now();
    expect((await w.view(bob, videos[0]!, 3000, { advance: 5000 })).counted).toBe(true);
    const credited = w.now();
    // Seven views pushed 1 ms apart, each claiming it ended an hour ago: only the 10 s allowance is
    // there to spend (3 x 3 s), and once spent it does not come back with the next push.
    const results = [];
    for (const v of videos.slice(1)) results.push(await w.view(bob, v, 3000, { clientTime: w.now() - 3_600_000, advance: 1 }));
    expect(results.map((r) => r.counted)).toEqual([true, true, true, false, false, false, false]);
    expect(results[3]).toEqual({ counted: false, reason: 'too_fast' });
    // Stamped within [previous credited push, now], never an hour back.
    const stored = await w.db.selectFrom('views').select('created_at').where('user_id', '=', bob).execute();
    for (const r of stored) expect(Number(r.created_at)).toBeGreaterThanOrEqual(credited);
    expect(created).toBeLessThan(credited);
    // Once the server's clock has caught up, views count again.
    w.tick(60_000);
    expect((await w.view(bob, videos[4]!, 3000, { advance: 1 })).counted).toBe(true);
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 5 });
    await expectConsistent();
  });

  it('a view costs at least 250 ms of watch time, so split-second videos cannot be farmed', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const videos = [];
    for (let i = 0; i < 100; i++) videos.push(await w.video(ana, 500));
    const results = [];
    for (const v of videos) results.push(await w.view(bob, v, 0, { advance: 1 }));
    // 10 s of allowance plus 100 ms of server time, at 250 ms a view: 40.
    expect(results.filter((r) => r.counted)).toHaveLength(40);
    await expectConsistent();
  });

  it('an offline burst spaced like real watching counts in full', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const videos = [];
    for (let i = 0; i < 5; i++) videos.push(await w.video(ana, 2000));
    const base = w.now();
    w.tick(60_000);
    for (const [i, v] of videos.entries()) {
      // 2 s videos watched to the end, one after the other, sent later.
      expect((await w.view(bob, v, 2000, { clientTime: base + i * 2100, advance: 1 })).counted).toBe(true);
    }
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 5 });
  });
});

describe('suspended and deleted members', () => {
  it('a suspended member neither appears nor counts, and everything comes back on reactivation', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const cy = await w.user('Cy');
    const va = await w.video(ana);
    const vb = await w.video(bob);
    await w.like(bob, va);
    await w.comment(bob, va);
    await w.like(cy, va);
    await w.view(bob, va, 3000);
    await w.like(ana, vb);
    await w.view(cy, vb, 3000);
    const before = await w.counters();

    await w.suspend(bob);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(cy)).toEqual({ creator: 0, viewer: 1 });
    const lb = await readLeaderboards(w.db, cy);
    expect(lb.best_users.map((e) => e.user_name)).toEqual(['Ana']);
    expect(lb.best_viewers.map((e) => e.user_name)).toEqual(['Cy']);
    await expectConsistent();
    // While suspended, other members' actions on their videos do not count either.
    await w.comment(cy, vb);
    expect(await w.points(cy)).toEqual({ creator: 0, viewer: 1 });
    await w.suspend(bob);
    await expectConsistent();

    await w.reactivate(bob);
    await w.reactivate(bob);
    await expectConsistent();
    // Ana's like and Cy's comment made while Bob was suspended; Bob's like, comment and view.
    expect(await w.points(bob)).toEqual({ creator: 2, viewer: 3 });
    expect(await w.points(cy)).toEqual({ creator: 0, viewer: 3 });
    expect((await w.counters()).find((r) => r[0] === ana)).toEqual(before.find((r) => r[0] === ana));
  });

  it('two suspended members: their actions on each other come back only when both are active', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const va = await w.video(ana);
    const vb = await w.video(bob);
    await w.like(bob, va);
    await w.like(ana, vb);
    await w.suspend(ana);
    await w.suspend(bob);
    await w.reactivate(ana);
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
    await w.reactivate(bob);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 1 });
    await expectConsistent();
  });

  it('a deleted member stops counting for everyone, exactly once', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const cy = await w.user('Cy');
    const va = await w.video(ana);
    const vb = await w.video(bob);
    await w.like(bob, va);
    await w.comment(bob, va);
    await w.like(cy, va);
    await w.like(cy, vb);
    await w.view(cy, vb, 3000);
    await w.deleteUser(bob);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(cy)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
  });

  it('suspending, reactivating and deleting a member with hundreds of fans keeps every counter exact', async () => {
    const star = await w.user('Star');
    const other = await w.user('Other');
    const v = await w.video(star);
    const v2 = await w.video(other);
    const fans: string[] = [];
    for (let i = 0; i < 320; i++) fans.push(await w.user(`Fan ${i}`));
    for (const [i, f] of fans.entries()) {
      await w.like(f, v);
      if (i % 3 === 0) await w.like(f, v2);
    }
    await w.suspend(star);
    await expectConsistent();
    expect(await w.points(fans[1]!)).toEqual({ creator: 0, viewer: 0 });
    await w.reactivate(star);
    await expectConsistent();
    expect(await w.points(star)).toEqual({ creator: 320, viewer: 0 });
    await w.deleteVideo(v);
    await expectConsistent();
    expect(await w.points(fans[0]!)).toEqual({ creator: 0, viewer: 1 });
  });

  it('pending-payment members do not score', async () => {
    const ana = await w.user('Ana');
    const va = await w.video(ana);
    const pending = await createUser(t.deps, { status: 'pending_payment' });
    await w.like(pending.id, va);
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
  });
});

describe('periods and distributions', () => {
  it('only actions since the last distribution count; undoing an older one subtracts nothing', async () => {
    const admin = await w.user('Admin');
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana);
    const v2 = await w.video(ana);
    await w.like(bob, v);
    await w.comment(bob, v);
    const d = (await w.distribute(admin))!;
    expect(d.created).toBe(true);
    expect(d.distribution.best_users).toEqual([{ rank: 1, user_id: ana, user_name: 'Ana', points: 2, prize_rupees: 0 }]);
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });

    await w.unlike(bob, v);
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });
    await w.like(bob, v2);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 0 });
    await expectConsistent();
    // Re-liking the first video after the distribution is a new action of this period.
    await w.like(bob, v);
    expect(await w.points(ana)).toEqual({ creator: 2, viewer: 0 });
    await expectConsistent();
  });

  it('records winners with the prize of each rank and never twice for one period', async () => {
    const admin = await createUser(t.deps, { isAdmin: true, name: 'Admin' });
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const cy = await w.user('Cy');
    const va = await w.video(ana);
    const vb = await w.video(bob);
    await w.like(bob, va);
    await w.comment(bob, va);
    await w.like(cy, va);
    await w.like(cy, vb);
    await t.deps.db
      .insertInto('prizes')
      .values([
        { board: 'best_user', rank: 1, amount_rupees: 500 },
        { board: 'best_user', rank: 2, amount_rupees: 200 },
        { board: 'best_viewer', rank: 1, amount_rupees: 100 },
      ])
      .execute();

    const board = await call(t.app, 'GET', '/api/rewards/leaderboards', undefined, admin.token);
    expect(board.status).toBe(200);
    expect(board.json.period_start).toBe(0);
    const body = { period_start: board.json.period_start };
    const [first, second] = await Promise.all([
      call(t.app, 'POST', '/api/admin/rewards/distributions', body, admin.token),
      call(t.app, 'POST', '/api/admin/rewards/distributions', body, admin.token),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(first.json.distribution).toEqual(second.json.distribution);
    const winners = first.json.distribution;
    expect(winners.best_users).toEqual([
      { rank: 1, user_id: ana, user_name: 'Ana', points: 3, prize_rupees: 500 },
      { rank: 2, user_id: bob, user_name: 'Bob', points: 1, prize_rupees: 200 },
    ]);
    // Bob and Cy both gave 2: Bob reached 2 first.
    expect(winners.best_viewers).toEqual([
      { rank: 1, user_id: bob, user_name: 'Bob', points: 2, prize_rupees: 100 },
      { rank: 2, user_id: cy, user_name: 'Cy', points: 2, prize_rupees: 0 },
    ]);
    const rows = await t.deps.db.selectFrom('distribution_winners').selectAll().execute();
    expect(rows).toHaveLength(4);
    const audit = await t.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'rewards.distribute').execute();
    expect(audit).toHaveLength(1);

    // A late retry of the same period gets the same distribution back; a stale period is refused.
    const retry = await call(t.app, 'POST', '/api/admin/rewards/distributions', body, admin.token);
    expect(retry.status).toBe(200);
    expect(retry.json.distribution.id).toBe(winners.id);
    const stale = await call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: 12345 }, admin.token);
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('stale_period');

    const after = await call(t.app, 'GET', '/api/rewards/leaderboards', undefined, admin.token);
    expect(after.json.best_users).toEqual([]);
    expect(after.json.best_viewers).toEqual([]);
    expect(after.json.last_distribution).toEqual(winners);
    expect(after.json.period_start).toBe(winners.created_at);

    const list = await call(t.app, 'GET', '/api/admin/rewards/distributions', undefined, admin.token);
    expect(list.status).toBe(200);
    expect(list.json.items).toHaveLength(1);
    expect(list.json.items[0]).toMatchObject({ id: winners.id, created_by: admin.id });
  });

  it('refuses members, signed-out callers and bad bodies without changing anything', async () => {
    const member = await createUser(t.deps);
    const admin = await createUser(t.deps, { isAdmin: true });
    expect((await call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: 0 }, member.token)).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: 0 })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/admin/rewards/distributions', undefined, member.token)).status).toBe(403);
    expect((await call(t.app, 'GET', '/api/rewards/leaderboards')).status).toBe(401);
    for (const bad of [{}, { period_start: -1 }, { period_start: 'x' }, { period_start: 0, extra: 1 }, '{not json']) {
      const res = await call(t.app, 'POST', '/api/admin/rewards/distributions', bad, admin.token);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBeTypeOf('string');
    }
    expect((await call(t.app, 'GET', '/api/admin/rewards/distributions?limit=0', undefined, admin.token)).status).toBe(400);
    // Nobody has points: nothing to distribute.
    const empty = await call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: 0 }, admin.token);
    expect(empty.status).toBe(409);
    expect(empty.json.error.code).toBe('nothing_to_distribute');
    expect(await t.deps.db.selectFrom('distributions').selectAll().execute()).toEqual([]);
  });
});

describe('leaderboards', () => {
  it('breaks ties by earlier reach, then by id, and gives the own rank outside the top', async () => {
    const ana = await w.user('Ana');
    const fans: string[] = [];
    for (let i = 0; i < 25; i++) fans.push(await w.user(`Fan ${i}`));
    const creators: string[] = [];
    for (let i = 0; i < 23; i++) creators.push(await w.user(`Creator ${i}`));
    const vids = [];
    for (const c of creators) vids.push(await w.video(c));
    // Creator i gets 23 - i likes, except creators 21 and 22 who both get 2: 22 reaches 2 first.
    for (let i = 0; i < 21; i++) for (let k = 0; k < 23 - i; k++) await w.like(fans[k]!, vids[i]!);
    await w.like(fans[0]!, vids[22]!);
    await w.like(fans[1]!, vids[22]!);
    await w.like(fans[0]!, vids[21]!);
    await w.like(fans[1]!, vids[21]!);
    const lb = await readLeaderboards(w.db, creators[21]!);
    expect(lb.best_users).toHaveLength(20);
    expect(lb.best_users.map((e) => e.user_id)).toEqual(creators.slice(0, 20));
    expect(lb.best_users.map((e) => e.rank)).toEqual([...Array(20).keys()].map((i) => i + 1));
    expect(lb.me.creator).toEqual({ rank: 23, points: 2 });
    expect((await readLeaderboards(w.db, creators[22]!)).me.creator).toEqual({ rank: 22, points: 2 });
    expect((await readLeaderboards(w.db, ana)).me).toEqual({ creator: null, viewer: null });
    // Fans 0 and 1 liked everything (23 each); fan 0 got there first.
    expect(lb.best_viewers.map((e) => [e.user_id, e.points])).toEqual([
      [fans[0], 23],
      [fans[1], 23],
      [fans[2], 21],
    ]);
    await expectConsistent();
  });

  it('equal points reached at the same moment fall back to the user id', async () => {
    const ana = await w.user('Ana');
    const x = await w.user('X');
    const y = await w.user('Y');
    const v = await w.video(ana);
    await w.like(x, v);
    await w.like(y, v);
    // Rebuild with both reach times equal.
    await w.db.updateTable('likes').set({ created_at: w.now() }).execute();
    await rebuildScores(w.db);
    const lb = await readLeaderboards(w.db, ana);
    expect(lb.best_viewers.map((e) => e.user_id)).toEqual([x, y].sort());
  });

  it('shows the admin-set date, or null', async () => {
    const ana = await w.user('Ana');
    expect((await readLeaderboards(w.db, ana)).distribution_date).toBeNull();
    await w.db
      .insertInto('settings')
      .values({ key: 'distribution_date', value: JSON.stringify('2026-12-25'), updated_at: 0 })
      .execute();
    expect((await readLeaderboards(w.db, ana)).distribution_date).toBe('2026-12-25');
  });

  it('reads both boards, the own rank and the last winners from indexes: no table scan', async () => {
    const admin = await w.user('Admin');
    const ana = await w.user('Ana');
    const fans = [await w.user('F1'), await w.user('F2'), await w.user('F3')];
    const v = await w.video(ana);
    for (const f of fans) await w.like(f, v);
    await w.distribute(admin);
    await w.like(fans[0]!, v);
    await w.comment(fans[1]!, v);
    // The very statements readLeaderboards runs, with their parameters, recorded on their way out.
    const { plugin, queries } = recordQueries(t.deps.db);
    const lb = await readLeaderboards(t.deps.db.withPlugin(plugin), fans[1]!);
    expect(lb.me.viewer).toEqual({ rank: 1, points: 1 });
    expect(queries.length).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const q of queries) {
      const plan = await queryPlan(t.deps.db, q);
      // Allowed: the 23-row prizes table, and walking the distributions index newest first (LIMIT 1).
      const fine = (s: (typeof plan)[number]) =>
        s.kind === 'search' || (s.kind === 'scan' && s.table === 'prizes') || (s.kind === 'walk' && s.table === 'distributions');
      if (!plan.every(fine)) bad.push(`${planText(plan)} <- ${q.sql}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('through the sync push and pull', () => {
  const push = (token: string, clientId: string, mutations: unknown[]) => call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, token);

  it('replayed and repeated mutations and likes of an own video add no points; the pull carries the standings', async () => {
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const v = await w.video(ana.id, 20_000);
    const clientId = randomUUID();
    const batch = [
      { id: 1, name: 'like', args: { videoId: v }, client_time: Date.now() },
      { id: 2, name: 'recordView', args: { videoId: v, watchedMs: 3500 }, client_time: Date.now() },
    ];
    expect((await push(bob.token, clientId, batch)).json.results.map((r: any) => r.status)).toEqual(['applied', 'applied']);
    expect((await push(bob.token, clientId, batch)).json.results.map((r: any) => r.status)).toEqual(['duplicate', 'duplicate']);
    // The same actions again under new mutation ids: a second like and a second view of one video.
    const again = await push(bob.token, clientId, [
      { id: 3, name: 'like', args: { videoId: v } },
      { id: 4, name: 'recordView', args: { videoId: v, watchedMs: 20_000 } },
    ]);
    expect(again.status).toBe(200);
    expect(await w.points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 2 });
    // Liking and watching your own video.
    await push(ana.token, randomUUID(), [
      { id: 1, name: 'like', args: { videoId: v } },
      { id: 2, name: 'recordView', args: { videoId: v, watchedMs: 5000 } },
    ]);
    expect(await w.points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    await expectConsistent();

    const pulled = await call(t.app, 'POST', '/api/sync/pull', { cursor: null }, bob.token);
    expect(pulled.status).toBe(200);
    expect(pulled.json.leaderboards).toMatchObject({
      best_users: [{ rank: 1, user_id: ana.id, user_name: 'Ana', points: 1, prize_rupees: 0 }],
      best_viewers: [{ rank: 1, user_id: bob.id, user_name: 'Bob', points: 2, prize_rupees: 0 }],
      me: { creator: null, viewer: { rank: 1, points: 2 } },
      distribution_date: null,
      last_distribution: null,
    });
  });
});
