import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { login, signUpVerified } from '../helpers/auth-flow';
import { mediaPath } from '#server/media/storage';
import { applyScoreEvent } from '#server/rewards/score-events';
import { recomputeScores, standingsOf } from '#server/rewards/recompute';
import { usersPageQuery } from '#server/admin/users';
import { videosPageQuery } from '#server/admin/videos';
import { planText, queryPlan } from '../helpers/query-plan';

let t: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.deps, { isAdmin: true, name: 'Root Admin', email: 'root@example.test' });
  member = await createUser(t.deps, { name: 'Plain Member', email: 'member@example.test' });
});
afterAll(async () => {
  await t?.close();
});

// Test data made the way the app's write paths make it: counters and score events in one transaction.
async function addVideo(owner: TestUser, title = 'Clip'): Promise<{ id: string; file: string; poster: string }> {
  const id = randomUUID();
  const createdAt = t.deps.now();
  const key = `${owner.id}/${createdAt}-${id.slice(0, 6)}.mp4`;
  const posterKey = `${owner.id}/${createdAt}-${id.slice(0, 6)}.jpg`;
  for (const k of [key, posterKey]) {
    const p = mediaPath(t.deps.config.mediaDir, k);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, 'bytes of ' + k);
  }
  await t.deps.db
    .insertInto('videos')
    .values({
      id,
      user_id: owner.id,
      title,
      description: '',
      file_key: key,
      mime_type: 'video/mp4',
      size_bytes: 12,
      duration_ms: 5000,
      sha256: 'x',
      poster_key: posterKey,
      created_at: createdAt,
      likes_count: 0,
      comments_count: 0,
      shares_count: 0,
      views_count: 0,
    })
    .execute();
  return { id, file: mediaPath(t.deps.config.mediaDir, key), poster: mediaPath(t.deps.config.mediaDir, posterKey) };
}

async function ownerOf(videoId: string) {
  return (await t.deps.db.selectFrom('videos').select('user_id').where('id', '=', videoId).executeTakeFirstOrThrow()).user_id;
}

async function like(user: TestUser, videoId: string) {
  const creatorId = await ownerOf(videoId);
  const at = t.deps.now();
  await t.deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('likes').values({ video_id: videoId, user_id: user.id, created_at: at }).execute();
    await trx
      .updateTable('videos')
      .set((eb) => ({ likes_count: eb('likes_count', '+', 1) }))
      .where('id', '=', videoId)
      .execute();
    await applyScoreEvent(trx, { kind: 'like', actorId: user.id, creatorId, delta: 1, occurredAt: at, at });
  });
}

async function comment(user: TestUser, videoId: string) {
  const creatorId = await ownerOf(videoId);
  const at = t.deps.now();
  await t.deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('comments').values({ id: randomUUID(), video_id: videoId, user_id: user.id, content: 'nice', created_at: at }).execute();
    await trx
      .updateTable('videos')
      .set((eb) => ({ comments_count: eb('comments_count', '+', 1) }))
      .where('id', '=', videoId)
      .execute();
    await applyScoreEvent(trx, { kind: 'comment', actorId: user.id, creatorId, delta: 1, occurredAt: at, at });
  });
}

async function view(user: TestUser, videoId: string) {
  const creatorId = await ownerOf(videoId);
  const at = t.deps.now();
  await t.deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('views').values({ video_id: videoId, user_id: user.id, watched_ms: 4000, created_at: at }).execute();
    await trx
      .updateTable('videos')
      .set((eb) => ({ views_count: eb('views_count', '+', 1) }))
      .where('id', '=', videoId)
      .execute();
    await applyScoreEvent(trx, { kind: 'view', actorId: user.id, creatorId, delta: 1, occurredAt: at, at });
  });
}

async function share(user: TestUser, videoId: string) {
  await t.deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('shares').values({ id: randomUUID(), video_id: videoId, user_id: user.id, created_at: t.deps.now() }).execute();
    await trx
      .updateTable('videos')
      .set((eb) => ({ shares_count: eb('shares_count', '+', 1) }))
      .where('id', '=', videoId)
      .execute();
  });
}

async function video(id: string) {
  return t.deps.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
}

async function points(userId: string) {
  const row = await t.deps.db.selectFrom('scores').select(['creator_points', 'viewer_points']).where('user_id', '=', userId).executeTakeFirst();
  return { creator: row?.creator_points ?? 0, viewer: row?.viewer_points ?? 0 };
}

/** Points recomputed from the rows themselves (docs/rewards.md, "The rule"), to compare with the maintained counters. */
async function recomputedPoints(userId: string) {
  const db = t.deps.db;
  const received = await db
    .selectFrom('videos')
    .where('videos.user_id', '=', userId)
    .select((eb) => [
      eb
        .selectFrom('likes')
        .whereRef('likes.video_id', '=', 'videos.id')
        .where('likes.user_id', '!=', userId)
        .select(eb.fn.countAll<number>().as('n'))
        .as('likes'),
      eb
        .selectFrom('comments')
        .whereRef('comments.video_id', '=', 'videos.id')
        .where('comments.user_id', '!=', userId)
        .select(eb.fn.countAll<number>().as('n'))
        .as('comments'),
    ])
    .execute();
  const creator = received.reduce((s, r) => s + Number(r.likes ?? 0) + Number(r.comments ?? 0), 0);
  const given = async (table: 'likes' | 'comments' | 'views') =>
    Number(
      (
        await db
          .selectFrom(table)
          .innerJoin('videos', 'videos.id', `${table}.video_id`)
          .where(`${table}.user_id`, '=', userId)
          .where('videos.user_id', '!=', userId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { creator, viewer: (await given('likes')) + (await given('comments')) + (await given('views')) };
}

/** The maintained leaderboard counters equal a from-scratch computation (the rewards area's rule). */
async function expectScoresConsistent() {
  const kept = await t.deps.db.selectFrom('scores').selectAll().orderBy('user_id').execute();
  expect(standingsOf(kept)).toEqual(standingsOf(await recomputeScores(t.deps.db)));
}

const ADMIN_OPERATIONS: Array<[string, string, unknown?]> = [
  ['GET', '/api/admin/stats'],
  ['GET', '/api/admin/users'],
  ['POST', `/api/admin/users/${randomUUID()}/suspend`],
  ['POST', `/api/admin/users/${randomUUID()}/reactivate`],
  ['DELETE', `/api/admin/users/${randomUUID()}`],
  ['GET', '/api/admin/videos'],
  ['DELETE', `/api/admin/videos/${randomUUID()}`],
  ['GET', '/api/admin/rewards'],
  ['PUT', '/api/admin/rewards', { best_user_prizes: Array(20).fill(1), best_viewer_prizes: [1, 1, 1], distribution_date: null }],
  ['GET', '/api/admin/settings'],
  [
    'PUT',
    '/api/admin/settings',
    { entry_fee: { enabled: false, amount_rupees: 0 }, payment: { provider: 'sandbox', razorpay_key_id: '' }, ads: { client_id: '', slot_id: '' } },
  ],
  ['GET', '/api/admin/audit'],
];

describe('admin authorization', () => {
  it.each(ADMIN_OPERATIONS)('%s %s: 401 signed out, 403 for a member, never changing anything', async (method, path, body) => {
    const before = await t.deps.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const anon = await call(t.app, method, path, body);
    expect(anon.status).toBe(401);
    const asMember = await call(t.app, method, path, body, member.token);
    expect(asMember.status).toBe(403);
    expect(asMember.json.error.code).toBe('not_admin');
    const after = await t.deps.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('every admin operation is documented under /api/admin/ with bearer security', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json')).json;
    const adminPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/admin/'));
    expect(adminPaths.length).toBeGreaterThanOrEqual(8);
    for (const p of adminPaths) {
      for (const op of Object.values(doc.paths[p]) as Array<{ security?: unknown }>) expect(op.security).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('a suspended admin is refused too', async () => {
    const other = await createUser(t.deps, { isAdmin: true, isActive: false });
    const res = await call(t.app, 'GET', '/api/admin/stats', undefined, other.token);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('account_suspended');
  });
});

describe('stats', () => {
  it('counts users, videos, active users and captured revenue', async () => {
    const before = (await call(t.app, 'GET', '/api/admin/stats', undefined, admin.token)).json;
    const pending = await createUser(t.deps, { status: 'pending_payment' });
    const suspended = await createUser(t.deps, { isActive: false });
    await addVideo(member);
    const now = t.deps.now();
    await t.deps.db
      .insertInto('payments')
      .values([
        {
          id: randomUUID(),
          user_id: pending.id,
          provider: 'razorpay',
          order_id: `order_${randomUUID()}`,
          payment_id: null,
          amount_paise: 9900,
          currency: 'INR',
          status: 'created',
          created_at: now,
          captured_at: null,
        },
        {
          id: randomUUID(),
          user_id: suspended.id,
          provider: 'razorpay',
          order_id: `order_${randomUUID()}`,
          payment_id: `pay_${randomUUID()}`,
          amount_paise: 25000,
          currency: 'INR',
          status: 'captured',
          created_at: now,
          captured_at: now,
        },
      ])
      .execute();
    const after = await call(t.app, 'GET', '/api/admin/stats', undefined, admin.token);
    expect(after.status).toBe(200);
    expect(after.json.total_users).toBe(before.total_users + 2);
    expect(after.json.active_users).toBe(before.active_users);
    expect(after.json.total_videos).toBe(before.total_videos + 1);
    expect(after.json.revenue_rupees).toBe(before.revenue_rupees + 250);
  });
});

describe('users list', () => {
  it('pages newest first without gaps or repeats, and searches name and e-mail', async () => {
    for (let i = 0; i < 7; i++) await createUser(t.deps, { name: `Pager ${i}`, email: `pager${i}@paging.test` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; json: any } = await call(
        t.app,
        'GET',
        `/api/admin/users?limit=3&q=paging.test${cursor ? `&cursor=${cursor}` : ''}`,
        undefined,
        admin.token,
      );
      expect(res.status).toBe(200);
      expect(res.json.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.json.items.map((u: any) => u.email));
      cursor = res.json.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);

    const byName = await call(t.app, 'GET', '/api/admin/users?q=PAGER%203', undefined, admin.token);
    expect(byName.json.items.map((u: any) => u.email)).toEqual(['pager3@paging.test']);
    expect(byName.json.items[0]).toMatchObject({ name: 'Pager 3', is_active: true, is_admin: false, account_status: 'active' });

    // LIKE wildcards in the search are taken literally.
    const wild = await call(t.app, 'GET', '/api/admin/users?q=%25', undefined, admin.token);
    expect(wild.json.items).toEqual([]);
  });

  it('refuses a bad cursor and a bad limit with 400', async () => {
    expect((await call(t.app, 'GET', '/api/admin/users?cursor=garbage', undefined, admin.token)).status).toBe(400);
    expect((await call(t.app, 'GET', '/api/admin/users?limit=0', undefined, admin.token)).status).toBe(400);
    expect((await call(t.app, 'GET', '/api/admin/users?limit=1000', undefined, admin.token)).status).toBe(400);
  });
});

describe('paging cost does not grow with the table (keyset over an index)', () => {
  const plan = (q: { compile(): { sql: string; parameters: readonly unknown[] } }) => queryPlan(t.deps.db, q.compile());
  const cursor = { createdAt: Date.now(), id: 'ffffffff' };

  it('users pages walk profiles_created_at without a search, and never sort', async () => {
    const p = await plan(usersPageQuery(t.deps.db, { limit: 20, cursor, search: '' }));
    expect(
      p.some((s) => s.index === 'profiles_created_at'),
      planText(p),
    ).toBe(true);
    expect(
      p.filter((s) => s.kind === 'sort' || s.kind === 'scan'),
      planText(p),
    ).toEqual([]);
  });

  it('a users search reads an index, never the whole table with a sort', async () => {
    const p = await plan(usersPageQuery(t.deps.db, { limit: 20, cursor, search: 'bob' }));
    // SQLite walks profiles_created_at and filters (LIKE has no index form); PostgreSQL may instead
    // read the trigram indexes of migration 0009 and sort the few matches.
    expect(
      p.filter((s) => s.kind === 'scan'),
      planText(p),
    ).toEqual([]);
    expect(
      p.some((s) => s.index === 'profiles_created_at' || /_trgm$/.test(s.index ?? '')),
      planText(p),
    ).toBe(true);
  });

  it('videos pages walk videos_feed and never sort', async () => {
    const p = await plan(videosPageQuery(t.deps.db, { limit: 20, cursor }));
    expect(
      p.some((s) => s.index === 'videos_feed'),
      planText(p),
    ).toBe(true);
    expect(
      p.filter((s) => s.kind === 'sort'),
      planText(p),
    ).toEqual([]);
  });
});

describe('suspend and reactivate', () => {
  it('a suspended user is refused at once, cannot refresh or sign in, and works again after reactivation', async () => {
    const email = 'suspend-me@example.test';
    const password = 'secret-123';
    const user = await signUpVerified(t, { email, password, name: 'Suspend Me' });
    const session = (await login(t, email, password)).json;
    expect((await call(t.app, 'GET', '/api/profile', undefined, session.access_token)).status).toBe(200);

    const res = await call(t.app, 'POST', `/api/admin/users/${user.id}/suspend`, undefined, admin.token);
    expect(res.status).toBe(200);
    expect(res.json.user).toEqual({ id: user.id, is_active: false });

    const refused = await call(t.app, 'GET', '/api/profile', undefined, session.access_token);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('account_suspended');
    const live = await t.deps.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
    expect((await call(t.app, 'POST', '/api/auth/refresh', { refresh_token: session.refresh_token })).status).toBeGreaterThanOrEqual(400);
    expect((await login(t, email, password)).status).toBe(403);

    const list = await call(t.app, 'GET', `/api/admin/users?q=suspend-me`, undefined, admin.token);
    expect(list.json.items[0].is_active).toBe(false);

    expect((await call(t.app, 'POST', `/api/admin/users/${user.id}/reactivate`, undefined, admin.token)).status).toBe(200);
    expect((await login(t, email, password)).status).toBe(200);
  });

  it("a suspended member's likes and comments stop counting, and count again after reactivation", async () => {
    const creator = await createUser(t.deps, { name: 'Creator' });
    const fan = await createUser(t.deps, { name: 'Fan' });
    const v = await addVideo(creator);
    await like(fan, v.id);
    await comment(fan, v.id);
    expect(await points(creator.id)).toEqual({ creator: 2, viewer: 0 });
    expect((await call(t.app, 'POST', `/api/admin/users/${fan.id}/suspend`, undefined, admin.token)).status).toBe(200);
    expect(await points(creator.id)).toEqual({ creator: 0, viewer: 0 });
    await expectScoresConsistent();
    expect((await call(t.app, 'POST', `/api/admin/users/${fan.id}/reactivate`, undefined, admin.token)).status).toBe(200);
    expect(await points(creator.id)).toEqual({ creator: 2, viewer: 0 });
    expect(await points(fan.id)).toEqual({ creator: 0, viewer: 2 });
    await expectScoresConsistent();
  });

  it('an admin cannot suspend themself; an unknown user is 404', async () => {
    const self = await call(t.app, 'POST', `/api/admin/users/${admin.id}/suspend`, undefined, admin.token);
    expect(self.status).toBe(400);
    expect(self.json.error.code).toBe('cannot_target_self');
    expect((await call(t.app, 'POST', `/api/admin/users/${randomUUID()}/suspend`, undefined, admin.token)).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/admin/users/bad%20id/suspend`, undefined, admin.token)).status).toBe(400);
  });
});

describe('delete user', () => {
  it('removes their videos, files, likes, comments, views, shares and sessions, and adjusts counters and scores', async () => {
    const doomed = await createUser(t.deps, { name: 'Doomed' });
    const alice = await createUser(t.deps, { name: 'Alice' });
    const bob = await createUser(t.deps, { name: 'Bob' });
    const doomedVideo = await addVideo(doomed, 'doomed clip');
    const aliceVideo = await addVideo(alice, 'alice clip');
    const bobVideo = await addVideo(bob, 'bob clip');
    // Others on the doomed user's video.
    await like(alice, doomedVideo.id);
    await comment(bob, doomedVideo.id);
    await view(alice, doomedVideo.id);
    // The doomed user on others' videos.
    await like(doomed, aliceVideo.id);
    await comment(doomed, aliceVideo.id);
    await comment(doomed, bobVideo.id);
    await view(doomed, bobVideo.id);
    await share(doomed, bobVideo.id);
    // Unrelated activity that must survive.
    await like(bob, aliceVideo.id);
    await comment(alice, bobVideo.id);
    await t.deps.db
      .insertInto('refresh_tokens')
      .values({
        id: randomUUID(),
        user_id: doomed.id,
        family_id: randomUUID(),
        token_hash: randomUUID(),
        created_at: t.deps.now(),
        expires_at: t.deps.now() + 1e6,
        used_at: null,
        revoked_at: null,
        replaced_by: null,
      })
      .execute();
    const seqBefore = Number(
      (
        await t.deps.db
          .selectFrom('change_log')
          .select((eb) => eb.fn.max('seq').as('m'))
          .executeTakeFirstOrThrow()
      ).m ?? 0,
    );

    const res = await call(t.app, 'DELETE', `/api/admin/users/${doomed.id}`, undefined, admin.token);
    expect(res.status).toBe(200);

    expect(await t.deps.db.selectFrom('profiles').select('id').where('id', '=', doomed.id).executeTakeFirst()).toBeUndefined();
    expect(await video(doomedVideo.id)).toBeUndefined();
    expect(existsSync(doomedVideo.file)).toBe(false);
    expect(existsSync(doomedVideo.poster)).toBe(false);
    expect(existsSync(aliceVideo.file)).toBe(true);
    for (const table of ['likes', 'comments', 'views', 'shares', 'refresh_tokens', 'scores'] as const) {
      const rows = await t.deps.db.selectFrom(table).select('user_id').where('user_id', '=', doomed.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await video(aliceVideo.id)).toMatchObject({ likes_count: 1, comments_count: 0 });
    expect(await video(bobVideo.id)).toMatchObject({ comments_count: 1, views_count: 0, shares_count: 0 });

    for (const u of [alice, bob]) expect(await points(u.id), u.name).toEqual(await recomputedPoints(u.id));
    await expectScoresConsistent();
    expect(await points(alice.id)).toEqual({ creator: 1, viewer: 1 });
    expect(await points(bob.id)).toEqual({ creator: 1, viewer: 1 });

    const changes = await t.deps.db.selectFrom('change_log').selectAll().where('seq', '>', seqBefore).execute();
    const has = (entity: string, id: string, deleted: number) => changes.some((c) => c.entity === entity && c.entity_id === id && c.deleted === deleted);
    expect(has('profile', doomed.id, 1)).toBe(true);
    expect(has('video', doomedVideo.id, 1)).toBe(true);
    expect(has('video', aliceVideo.id, 0)).toBe(true);
    expect(has('video', bobVideo.id, 0)).toBe(true);
    expect(changes.some((c) => c.entity === 'leaderboard')).toBe(true);
    expect(changes.filter((c) => c.entity === 'comment' && c.deleted === 1)).toHaveLength(2);

    const audit = (await call(t.app, 'GET', '/api/admin/audit?limit=1', undefined, admin.token)).json.items[0];
    expect(audit).toMatchObject({ actor_id: admin.id, actor_name: 'Root Admin', action: 'user.delete', target: doomed.id });
    expect(audit.details.videos_deleted).toBe(1);

    expect((await call(t.app, 'DELETE', `/api/admin/users/${doomed.id}`, undefined, admin.token)).status).toBe(404);
  });

  it('an admin cannot delete themself', async () => {
    const res = await call(t.app, 'DELETE', `/api/admin/users/${admin.id}`, undefined, admin.token);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('cannot_target_self');
    expect(await t.deps.db.selectFrom('profiles').select('id').where('id', '=', admin.id).executeTakeFirst()).toBeDefined();
  });
});

describe('videos', () => {
  it('lists all videos newest first with paging and deletes one with its files', async () => {
    const owner = await createUser(t.deps, { name: 'Video Owner' });
    const fan = await createUser(t.deps);
    const a = await addVideo(owner, 'first');
    t.advance(1000);
    const b = await addVideo(owner, 'second');
    await like(fan, b.id);
    await comment(fan, b.id);

    const first = await call(t.app, 'GET', '/api/admin/videos?limit=1', undefined, admin.token);
    expect(first.status).toBe(200);
    expect(first.json.items[0]).toMatchObject({ id: b.id, title: 'second', user_name: 'Video Owner', likes_count: 1, comments_count: 1 });
    expect(first.json.items[0].video_url).toMatch(/^\/media\//);
    const second = await call(t.app, 'GET', `/api/admin/videos?limit=1&cursor=${first.json.next_cursor}`, undefined, admin.token);
    expect(second.json.items[0].id).toBe(a.id);

    const del = await call(t.app, 'DELETE', `/api/admin/videos/${b.id}`, undefined, admin.token);
    expect(del.status).toBe(200);
    expect(await video(b.id)).toBeUndefined();
    expect(existsSync(b.file)).toBe(false);
    expect(existsSync(b.poster)).toBe(false);
    expect(existsSync(a.file)).toBe(true);
    expect(await points(owner.id)).toEqual({ creator: 0, viewer: 0 });
    expect(await points(fan.id)).toEqual({ creator: 0, viewer: 0 });
    await expectScoresConsistent();

    const audit = (await call(t.app, 'GET', '/api/admin/audit?limit=1', undefined, admin.token)).json.items[0];
    expect(audit).toMatchObject({ action: 'video.delete', target: b.id, details: { owner_id: owner.id } });
    expect((await call(t.app, 'DELETE', `/api/admin/videos/${b.id}`, undefined, admin.token)).status).toBe(404);
  });
});

describe('audit log', () => {
  it('pages newest first', async () => {
    const target = await createUser(t.deps);
    for (let i = 0; i < 3; i++) {
      await call(t.app, 'POST', `/api/admin/users/${target.id}/suspend`, undefined, admin.token);
      await call(t.app, 'POST', `/api/admin/users/${target.id}/reactivate`, undefined, admin.token);
    }
    const page1 = await call(t.app, 'GET', '/api/admin/audit?limit=4', undefined, admin.token);
    expect(page1.json.items.map((e: any) => e.action)).toEqual(['user.reactivate', 'user.suspend', 'user.reactivate', 'user.suspend']);
    const page2 = await call(t.app, 'GET', `/api/admin/audit?limit=4&cursor=${page1.json.next_cursor}`, undefined, admin.token);
    expect(page2.json.items[0].id).toBeLessThan(page1.json.items[3].id);
    expect(page2.json.items.slice(0, 2).map((e: any) => e.action)).toEqual(['user.reactivate', 'user.suspend']);
  });

  it('a no-op suspension is not logged', async () => {
    const target = await createUser(t.deps, { isActive: false });
    const before = (await call(t.app, 'GET', '/api/admin/audit?limit=1', undefined, admin.token)).json.items[0]?.id;
    expect((await call(t.app, 'POST', `/api/admin/users/${target.id}/suspend`, undefined, admin.token)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/admin/audit?limit=1', undefined, admin.token)).json.items[0]?.id).toBe(before);
  });
});
