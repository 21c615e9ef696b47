import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { maintainedDays, recomputeAll, standingsOf } from '#server/rewards/recompute';
import { emptyRewardsTables, rewardsWorld, type RewardsWorld } from './rewards-world';

// docs/decisions/0001-prizes-that-cannot-be-farmed.md, over the real app (app.request): what one member can
// repeat, backdate or send in bulk earns once, and the maintained boards equal a recomputation.

let t: TestApp;
let w: RewardsWorld;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
});
beforeEach(async () => {
  await emptyRewardsTables(t.deps);
  w = rewardsWorld(t.deps);
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(() => t?.close());

const push = (user: TestUser, clientId: string, mutations: unknown[]) => call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, user.token);
/** After t.advance() the old access token has expired: the same member with a new one. */
const renewed = async (user: TestUser): Promise<TestUser> => ({ ...user, token: (await t.deps.tokens.issue(user.id)).token });
const numbered = (items: Array<{ name: string; args: unknown; client_time?: number }>, from = 1) => items.map((m, i) => ({ id: from + i, ...m }));

async function expectConsistent() {
  const { scores, days } = await recomputeAll(t.deps.db);
  expect(await w.counters()).toEqual(standingsOf(scores));
  expect(await maintainedDays(t.deps.db)).toEqual(days);
}

async function videoRow(id: string) {
  return t.deps.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('repetitions on one video count once', () => {
  it("100 addComment mutations on another member's video in one push give +1 creator and +1 viewer point, and 100 comments", async () => {
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const v = await w.video(ana.id);
    const res = await push(
      bob,
      randomUUID(),
      numbered(Array.from({ length: 100 }, (_, i) => ({ name: 'addComment', args: { commentId: randomUUID(), videoId: v, content: `great ${i}` } }))),
    );
    expect(res.status).toBe(200);
    expect(res.json.results.every((r: { status: string }) => r.status === 'applied')).toBe(true);
    expect(await w.points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 1 });
    expect((await videoRow(v)).comments_count).toBe(100);
    // A second video is a second pair.
    const v2 = await w.video(ana.id);
    await push(bob, randomUUID(), numbered([{ name: 'addComment', args: { commentId: randomUUID(), videoId: v2, content: 'also' } }]));
    expect(await w.points(ana.id)).toEqual({ creator: 2, viewer: 0 });
    await expectConsistent();
  });

  it('removing one of several comments keeps the point; removing the last removes it', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana);
    const first = (await w.comment(bob, v))!;
    const second = (await w.comment(bob, v))!;
    await w.deleteComment(first);
    expect(await w.points(ana)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
    await w.deleteComment(second);
    expect(await w.points(ana)).toEqual({ creator: 0, viewer: 0 });
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 0 });
    await expectConsistent();
  });

  it('removing the earliest of several comments moves the pair to the next one, and its viewer point to that day', async () => {
    const ana = await w.user('Ana');
    const bob = await w.user('Bob');
    const v = await w.video(ana);
    const other = await w.video(ana);
    await w.setCap(1);
    const first = (await w.comment(bob, v))!;
    w.tick(86_400_000);
    await w.like(bob, other);
    await w.comment(bob, v);
    // Day 1: the pair; day 2: the like (the second comment adds nothing).
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 2 });
    await w.deleteComment(first);
    // The pair now dates from day 2, which is already at its cap of 1.
    expect(await w.points(bob)).toEqual({ creator: 0, viewer: 1 });
    expect(await w.points(ana)).toEqual({ creator: 2, viewer: 0 });
    await expectConsistent();
  });

  it('100 recordShare mutations raise shares_count by 1; concurrent pushes from several devices too', async () => {
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const v = await w.video(ana.id);
    const clientId = randomUUID();
    const batch = numbered(Array.from({ length: 100 }, () => ({ name: 'recordShare', args: { shareId: randomUUID(), videoId: v } })));
    const res = await push(bob, clientId, batch);
    expect(res.status).toBe(200);
    expect(res.json.results.every((r: { status: string }) => r.status === 'applied')).toBe(true);
    expect((await videoRow(v)).shares_count).toBe(1);
    // Replayed: duplicates, nothing moves.
    expect((await push(bob, clientId, batch)).json.results[0].status).toBe('duplicate');
    // Four devices of another member share at once: one share.
    const cy = await createUser(t.deps, { name: 'Cy' });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => push(cy, randomUUID(), numbered([{ name: 'recordShare', args: { shareId: randomUUID(), videoId: v } }]))),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await videoRow(v)).shares_count).toBe(2);
    // Every share is kept (its id is what makes a replay harmless); the counter counts members.
    expect(await t.deps.db.selectFrom('shares').select('id').where('video_id', '=', v).execute()).toHaveLength(104);
  });
});

describe('views are credited at most as fast as the server clock runs', () => {
  async function videos(owner: string, n: number, durationMs = 30_000) {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await w.video(owner, durationMs));
    return out;
  }

  it('a batch backdated beyond the elapsed server time is not credited', async () => {
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const vs = await videos(ana.id, 20);
    const clientId = randomUUID();
    // A first view sets the viewer's clock on the server.
    expect((await push(bob, clientId, numbered([{ name: 'recordView', args: { videoId: vs[0], watchedMs: 3000 } }]))).status).toBe(200);
    // 19 views of 3 s, claiming they ended one per 3 s over the last hour: no server time passed,
    // so only the 10 s allowance is there (3 views).
    const hourAgo = Date.now() - 3_600_000;
    const res = await push(
      bob,
      clientId,
      numbered(
        vs.slice(1).map((v, i) => ({ name: 'recordView', args: { videoId: v, watchedMs: 3000 }, client_time: hourAgo + i * 3000 })),
        2,
      ),
    );
    expect(res.status).toBe(200);
    const counted = await t.deps.db.selectFrom('views').select(['video_id', 'created_at']).where('user_id', '=', bob.id).execute();
    expect(counted.length).toBeLessThanOrEqual(4);
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: counted.length });
    // None of them is stamped in the claimed past.
    for (const r of counted) expect(Number(r.created_at)).toBeGreaterThan(hourAgo + 3_500_000);
    await expectConsistent();
  });

  it('an honest offline session of any length counts in full once its time has passed on the server', async () => {
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const vs = await videos(ana.id, 60, 20_000);
    const clientId = randomUUID();
    expect((await push(bob, clientId, numbered([{ name: 'like', args: { videoId: vs[0] } }]))).status).toBe(200);
    // Two hours offline watching 60 videos for 20 s each, then one push.
    const start = Date.now();
    t.advance(2 * 3_600_000);
    const res = await push(
      await renewed(bob),
      clientId,
      numbered(
        vs.map((v, i) => ({ name: 'recordView', args: { videoId: v, watchedMs: 20_000 }, client_time: start + (i + 1) * 100_000 })),
        2,
      ),
    );
    expect(res.status).toBe(200);
    expect(await t.deps.db.selectFrom('views').select('video_id').where('user_id', '=', bob.id).execute()).toHaveLength(60);
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 61 });
    await expectConsistent();
  });
});

describe('the daily cap on viewer points', () => {
  const settings = (cap: unknown) => ({
    entry_fee: { enabled: false, amount_rupees: 0 },
    payment: { provider: 'razorpay', razorpay_key_id: '' },
    ads: { client_id: '', slot_id: '' },
    limits: { viewer_daily_points_cap: cap, upload_daily_mib: 2048 },
  });
  const putSettings = (body: unknown, user = admin) => call(t.app, 'PUT', '/api/admin/settings', body, user.token);

  it('holds per UTC day, and an admin can change it (400 on bad values, nothing changed)', async () => {
    expect((await call(t.app, 'GET', '/api/admin/settings', undefined, admin.token)).json.limits).toEqual({
      viewer_daily_points_cap: 200,
      upload_daily_mib: 2048,
    });
    for (const bad of [0, -1, 2.5, '3', null, 100_001]) {
      const res = await putSettings(settings(bad));
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBeTruthy();
    }
    expect((await call(t.app, 'GET', '/api/admin/settings', undefined, admin.token)).json.limits.viewer_daily_points_cap).toBe(200);
    const member = await createUser(t.deps, { name: 'Mallory' });
    expect((await putSettings(settings(3), member)).status).toBe(403);

    expect((await putSettings(settings(3))).status).toBe(200);
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const vs = [];
    for (let i = 0; i < 5; i++) vs.push(await w.video(ana.id));
    const clientId = randomUUID();
    await push(bob, clientId, numbered(vs.map((v) => ({ name: 'like', args: { videoId: v } }))));
    // Bob's likes all count for Ana; Bob earns 3 of them.
    expect(await w.points(ana.id)).toEqual({ creator: 5, viewer: 0 });
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 3 });
    await expectConsistent();

    // Raising or lowering the cap moves the boards at once.
    expect((await putSettings(settings(10))).json.limits.viewer_daily_points_cap).toBe(10);
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 5 });
    await putSettings(settings(2));
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 2 });
    await expectConsistent();

    // The next UTC day has a cap of its own.
    t.advance(86_400_000);
    const more = [await w.video(ana.id), await w.video(ana.id), await w.video(ana.id)];
    const bobNow = await renewed(bob);
    await push(
      bobNow,
      clientId,
      numbered(
        more.map((v) => ({ name: 'like', args: { videoId: v } })),
        6,
      ),
    );
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 4 });
    // An unlike of a capped day's like takes no point while the day stays at its cap.
    await push(bobNow, clientId, numbered([{ name: 'unlike', args: { videoId: vs[0] } }], 9));
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 4 });
    expect(await w.points(ana.id)).toEqual({ creator: 7, viewer: 0 });
    await expectConsistent();
  });
});

describe("admin: the breakdown and voiding a member's points", () => {
  it("shows each leader's points by source; a void is audited, idempotent, and keeps the boards consistent", async () => {
    const ana = await createUser(t.deps, { name: 'Ana' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const cy = await createUser(t.deps, { name: 'Cy' });
    const v = await w.video(ana.id);
    const v2 = await w.video(cy.id);
    await push(
      bob,
      randomUUID(),
      numbered([
        { name: 'like', args: { videoId: v } },
        { name: 'addComment', args: { commentId: randomUUID(), videoId: v, content: 'a' } },
        { name: 'addComment', args: { commentId: randomUUID(), videoId: v, content: 'b' } },
        { name: 'like', args: { videoId: v2 } },
      ]),
    );
    await push(cy, randomUUID(), numbered([{ name: 'like', args: { videoId: v } }]));

    const b = await call(t.app, 'GET', '/api/admin/rewards/breakdown', undefined, admin.token);
    expect(b.status).toBe(200);
    const anaRow = b.json.leaders.find((l: { user_id: string }) => l.user_id === ana.id);
    expect(anaRow.creator).toEqual({ rank: 1, points: 3, likes_received: 2, commenters: 1 });
    const bobRow = b.json.leaders.find((l: { user_id: string }) => l.user_id === bob.id);
    expect(bobRow.viewer).toEqual({ rank: 1, points: 3, likes_given: 2, comments_given: 1, views: 0, capped: 0 });
    expect(b.json.viewer_daily_points_cap).toBe(200);
    expect(b.json.voided).toEqual([]);

    const member = await createUser(t.deps, { name: 'Mallory' });
    expect((await call(t.app, 'GET', '/api/admin/rewards/breakdown', undefined, member.token)).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/admin/rewards/voids', { user_id: bob.id }, member.token)).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/admin/rewards/voids', { user_id: bob.id })).status).toBe(401);
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 3 });
    for (const bad of [{}, { user_id: '' }, { user_id: 'a b' }, { user_id: bob.id, extra: 1 }]) {
      const res = await call(t.app, 'POST', '/api/admin/rewards/voids', bad, admin.token);
      expect(res.status).toBe(400);
    }
    expect((await call(t.app, 'POST', '/api/admin/rewards/voids', { user_id: randomUUID() }, admin.token)).status).toBe(404);

    const voided = await call(t.app, 'POST', '/api/admin/rewards/voids', { user_id: bob.id }, admin.token);
    expect(voided.status).toBe(201);
    expect(voided.json).toMatchObject({ user_id: bob.id, created: true });
    // Bob's points and what his actions gave Ana and Cy are gone; Cy's like still counts for Ana.
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 0 });
    expect(await w.points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    expect(await w.points(cy.id)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
    const audit = await t.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'rewards.void').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, target: bob.id });
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ points_before: { creator: 0, viewer: 3 } });

    // Again: nothing new, not audited twice. For the rest of the period his actions do not count.
    const again = await call(t.app, 'POST', '/api/admin/rewards/voids', { user_id: bob.id }, admin.token);
    expect(again.status).toBe(200);
    expect(again.json.created).toBe(false);
    expect(await t.deps.db.selectFrom('audit_log').select('id').where('action', '=', 'rewards.void').execute()).toHaveLength(1);
    const v3 = await w.video(ana.id);
    await push(bob, randomUUID(), numbered([{ name: 'like', args: { videoId: v3 } }]));
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 0 });
    expect(await w.points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    await expectConsistent();
    const after = await call(t.app, 'GET', '/api/admin/rewards/breakdown', undefined, admin.token);
    expect(after.json.voided).toEqual([{ user_id: bob.id, user_name: 'Bob', created_at: expect.any(Number) }]);
    expect(after.json.leaders.map((l: { user_id: string }) => l.user_id)).not.toContain(bob.id);

    // The next period starts without the void.
    const ps = (await call(t.app, 'GET', '/api/rewards/leaderboards', undefined, admin.token)).json.period_start;
    expect((await call(t.app, 'POST', '/api/admin/rewards/distributions', { period_start: ps }, admin.token)).status).toBe(201);
    t.advance(1000);
    const v4 = await w.video(ana.id);
    await push(bob, randomUUID(), numbered([{ name: 'like', args: { videoId: v4 } }]));
    expect(await w.points(bob.id)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
  });
});
