import { insertMember } from '../helpers/users';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { maintainedDays, recomputeAll, standingsOf } from '#server/rewards/recompute';
import { openServerDatabase, startServer, type ServerProcess } from '../helpers/server-process';
import { insertVideo as insertVideoRow } from '../helpers/videos';
import { tokenMinter } from '../bench/lib/context';

// The farming attempts of docs/decisions/0001-prizes-that-cannot-be-farmed.md against a real server (spawned like `npm start`), with the
// pushes of several devices of one member really in flight at once (Promise.all over HTTP). The
// test reads and seeds the server's database through Kysely, so it runs on either engine.

let server: ServerProcess;
let handle: ReturnType<typeof openServerDatabase>;
let db: Kysely<Database>;
let mint: (userId: string) => Promise<string>;

beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: 'error' } });
  handle = openServerDatabase(server);
  db = handle.db;
  mint = await tokenMinter(server.dataDir, server.url);
});
afterAll(async () => {
  await handle?.close();
  await server?.stop();
});

/** A verified, active member (or admin) written into the server's database, with an access token. */
async function member(opts: { isAdmin?: boolean } = {}): Promise<{ id: string; token: string }> {
  const { id } = await insertMember(db, opts);
  return { id, token: await mint(id) };
}

async function json(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const insertVideo = (ownerId: string, durationMs = 30_000) =>
  insertVideoRow({ db }, ownerId, { title: 'clip', size_bytes: 1000, duration_ms: durationMs, created_at: Date.now() - 60_000 });

async function points(userId: string) {
  const r = await db.selectFrom('scores').select(['creator_points', 'viewer_points']).where('user_id', '=', userId).executeTakeFirst();
  return { creator: Number(r?.creator_points ?? 0), viewer: Number(r?.viewer_points ?? 0) };
}

async function expectConsistent() {
  const { scores, days } = await recomputeAll(db);
  const kept = (await db.selectFrom('scores').selectAll().execute()).map((r) => ({ ...r }));
  expect(standingsOf(kept)).toEqual(standingsOf(scores));
  expect(await maintainedDays(db)).toEqual(days);
}

describe('farming over real HTTP, from several devices at once', () => {
  it('comments and shares repeated from 4 devices in parallel count once', async () => {
    const ana = await member();
    const bob = await member();
    const v = await insertVideo(ana.id);
    const pushes = Array.from({ length: 4 }, () => {
      const mutations = Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? { id: i + 1, name: 'addComment', args: { commentId: randomUUID(), videoId: v, content: `nice ${i}` } }
          : { id: i + 1, name: 'recordShare', args: { shareId: randomUUID(), videoId: v } },
      );
      return json('POST', '/api/sync/push', { client_id: randomUUID(), mutations }, bob.token);
    });
    const answers = await Promise.all(pushes);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const a of answers) expect(a.json.results.every((r: { status: string }) => r.status === 'applied')).toBe(true);
    const row = await db.selectFrom('videos').select(['comments_count', 'shares_count']).where('id', '=', v).executeTakeFirstOrThrow();
    expect(row).toEqual({ comments_count: 100, shares_count: 1 });
    expect(await points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    expect(await points(bob.id)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
  });

  it('backdated views pushed from 5 devices at once share one allowance: the server clock decides', async () => {
    const ana = await member();
    const joined = Date.now();
    const bob = await member();
    const videos = await Promise.all(Array.from({ length: 21 }, () => insertVideo(ana.id)));
    // A first view sets Bob's clock on the server.
    const first = await json(
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: [{ id: 1, name: 'recordView', args: { videoId: videos[0], watchedMs: 3000 } }] },
      bob.token,
    );
    expect(first.status).toBe(200);
    const dayAgo = Date.now() - 86_400_000;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, d) =>
        json(
          'POST',
          '/api/sync/push',
          {
            client_id: randomUUID(),
            mutations: videos
              .slice(1 + d * 4, 5 + d * 4)
              .map((videoId, i) => ({ id: i + 1, name: 'recordView', args: { videoId, watchedMs: 3000 }, client_time: dayAgo + i * 3000 })),
          },
          bob.token,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const ended = Date.now();
    const views = await db.selectFrom('views').select('created_at').where('user_id', '=', bob.id).execute();
    // 21 views claimed, 63 s of watching; what counts is the server time since Bob joined plus the
    // 10 s allowance, at 3 s a view.
    expect(views.length).toBeGreaterThanOrEqual(2);
    expect(views.length).toBeLessThanOrEqual(Math.floor((ended - joined + 10_000) / 3000));
    expect(views.length).toBeLessThan(21);
    for (const r of views) expect(Number(r.created_at)).toBeGreaterThan(dayAgo + 86_000_000);
    expect(await points(bob.id)).toEqual({ creator: 0, viewer: views.length });
    await expectConsistent();
  });

  it('the daily cap and a void, as an admin does them over HTTP; members are refused', async () => {
    const admin = await member({ isAdmin: true });
    const ana = await member();
    const bob = await member();
    const videos = await Promise.all(Array.from({ length: 4 }, () => insertVideo(ana.id)));
    const settings = (cap: unknown) => ({
      entry_fee: { enabled: false, amount_rupees: 0 },
      payment: { provider: 'razorpay', razorpay_key_id: '' },
      ads: { client_id: '', slot_id: '' },
      limits: { viewer_daily_points_cap: cap, upload_daily_mib: 2048 },
    });
    expect((await json('PUT', '/api/admin/settings', settings(2), bob.token)).status).toBe(403);
    expect((await json('PUT', '/api/admin/settings', settings(0), admin.token)).status).toBe(400);
    expect((await json('PUT', '/api/admin/settings', settings(2), admin.token)).status).toBe(200);
    const liked = await json(
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: videos.map((videoId, i) => ({ id: i + 1, name: 'like', args: { videoId } })) },
      bob.token,
    );
    expect(liked.status).toBe(200);
    expect(await points(bob.id)).toEqual({ creator: 0, viewer: 2 });
    expect(await points(ana.id)).toEqual({ creator: 4, viewer: 0 });

    expect((await json('POST', '/api/admin/rewards/voids', { user_id: bob.id }, bob.token)).status).toBe(403);
    const voided = await json('POST', '/api/admin/rewards/voids', { user_id: bob.id }, admin.token);
    expect(voided.status).toBe(201);
    expect(await points(bob.id)).toEqual({ creator: 0, viewer: 0 });
    expect(await points(ana.id)).toEqual({ creator: 0, viewer: 0 });
    const audit = await db.selectFrom('audit_log').select('actor_id').where('action', '=', 'rewards.void').where('target', '=', bob.id).execute();
    expect(audit).toEqual([{ actor_id: admin.id }]);
    await expectConsistent();
    // Put the default back for the other tests of this server.
    expect((await json('PUT', '/api/admin/settings', settings(200), admin.token)).status).toBe(200);
  });
});
