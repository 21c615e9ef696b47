import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#db/connect';
import { maintainedDays, recomputeAll, standingsOf } from '#server/rewards/recompute';
import { realServer, type RealServer } from './hardening-server';

// The farming attempts of docs/decisions/0001-prizes-that-cannot-be-farmed.md against a real server (spawned like `npm start`), with the
// pushes of several devices of one member really in flight at once (Promise.all over HTTP).

let s: RealServer;
beforeAll(async () => {
  s = await realServer();
});
afterAll(() => s?.stop());

function insertVideo(ownerId: string, durationMs = 30_000): string {
  const id = randomUUID();
  s.read((db) =>
    db
      .prepare(
        `INSERT INTO videos (id, user_id, title, description, file_key, mime_type, size_bytes, duration_ms, sha256, poster_key, created_at,
           likes_count, comments_count, shares_count, views_count) VALUES (?, ?, 'clip', '', ?, 'video/mp4', 1000, ?, 'x', NULL, ?, 0, 0, 0, 0)`,
      )
      .run(id, ownerId, `${ownerId}/${id}.mp4`, durationMs, Date.now() - 60_000),
  );
  return id;
}

const points = (userId: string) =>
  s.read((db) =>
    db
      .prepare<[string], { creator: number; viewer: number }>('SELECT creator_points AS creator, viewer_points AS viewer FROM scores WHERE user_id = ?')
      .get(userId),
  ) ?? {
    creator: 0,
    viewer: 0,
  };

async function expectConsistent() {
  const handle = openDatabase(s.dbPath);
  try {
    const { scores, days } = await recomputeAll(handle.db);
    const kept = (await handle.db.selectFrom('scores').selectAll().execute()).map((r) => ({ ...r }));
    expect(standingsOf(kept)).toEqual(standingsOf(scores));
    expect(await maintainedDays(handle.db)).toEqual(days);
  } finally {
    await handle.close();
  }
}

describe('farming over real HTTP, from several devices at once', () => {
  it('comments and shares repeated from 4 devices in parallel count once', async () => {
    const ana = await s.member();
    const bob = await s.member();
    const v = insertVideo(ana.id);
    const pushes = Array.from({ length: 4 }, () => {
      const mutations = Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? { id: i + 1, name: 'addComment', args: { commentId: randomUUID(), videoId: v, content: `nice ${i}` } }
          : { id: i + 1, name: 'recordShare', args: { shareId: randomUUID(), videoId: v } },
      );
      return s.json('POST', '/api/sync/push', { client_id: randomUUID(), mutations }, bob.token);
    });
    const answers = await Promise.all(pushes);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    for (const a of answers) expect(a.json.results.every((r: { status: string }) => r.status === 'applied')).toBe(true);
    const row = s.read((db) =>
      db.prepare<[string], { comments_count: number; shares_count: number }>('SELECT comments_count, shares_count FROM videos WHERE id = ?').get(v),
    )!;
    expect(row).toEqual({ comments_count: 100, shares_count: 1 });
    expect(points(ana.id)).toEqual({ creator: 1, viewer: 0 });
    expect(points(bob.id)).toEqual({ creator: 0, viewer: 1 });
    await expectConsistent();
  });

  it('backdated views pushed from 5 devices at once share one allowance: the server clock decides', async () => {
    const ana = await s.member();
    const joined = Date.now();
    const bob = await s.member();
    const videos = Array.from({ length: 21 }, () => insertVideo(ana.id));
    // A first view sets Bob's clock on the server.
    const first = await s.json(
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: [{ id: 1, name: 'recordView', args: { videoId: videos[0], watchedMs: 3000 } }] },
      bob.token,
    );
    expect(first.status).toBe(200);
    const dayAgo = Date.now() - 86_400_000;
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, d) =>
        s.json(
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
    const views = s.read((db) => db.prepare<[string], { created_at: number }>('SELECT created_at FROM views WHERE user_id = ?').all(bob.id));
    // 21 views claimed, 63 s of watching; what counts is the server time since Bob joined plus the
    // 10 s allowance, at 3 s a view.
    expect(views.length).toBeGreaterThanOrEqual(2);
    expect(views.length).toBeLessThanOrEqual(Math.floor((ended - joined + 10_000) / 3000));
    expect(views.length).toBeLessThan(21);
    for (const r of views) expect(r.created_at).toBeGreaterThan(dayAgo + 86_000_000);
    expect(points(bob.id)).toEqual({ creator: 0, viewer: views.length });
    await expectConsistent();
  });

  it('the daily cap and a void, as an admin does them over HTTP; members are refused', async () => {
    const admin = await s.member({ isAdmin: true });
    const ana = await s.member();
    const bob = await s.member();
    const videos = Array.from({ length: 4 }, () => insertVideo(ana.id));
    const settings = (cap: unknown) => ({
      entry_fee: { enabled: false, amount_rupees: 0 },
      payment: { provider: 'razorpay', razorpay_key_id: '' },
      ads: { client_id: '', slot_id: '' },
      limits: { viewer_daily_points_cap: cap, upload_daily_mib: 2048 },
    });
    expect((await s.json('PUT', '/api/admin/settings', settings(2), bob.token)).status).toBe(403);
    expect((await s.json('PUT', '/api/admin/settings', settings(0), admin.token)).status).toBe(400);
    expect((await s.json('PUT', '/api/admin/settings', settings(2), admin.token)).status).toBe(200);
    const liked = await s.json(
      'POST',
      '/api/sync/push',
      { client_id: randomUUID(), mutations: videos.map((videoId, i) => ({ id: i + 1, name: 'like', args: { videoId } })) },
      bob.token,
    );
    expect(liked.status).toBe(200);
    expect(points(bob.id)).toEqual({ creator: 0, viewer: 2 });
    expect(points(ana.id)).toEqual({ creator: 4, viewer: 0 });

    expect((await s.json('POST', '/api/admin/rewards/voids', { user_id: bob.id }, bob.token)).status).toBe(403);
    const voided = await s.json('POST', '/api/admin/rewards/voids', { user_id: bob.id }, admin.token);
    expect(voided.status).toBe(201);
    expect(points(bob.id)).toEqual({ creator: 0, viewer: 0 });
    expect(points(ana.id)).toEqual({ creator: 0, viewer: 0 });
    const audit = s.read((db) =>
      db.prepare<[string], { actor_id: string }>("SELECT actor_id FROM audit_log WHERE action = 'rewards.void' AND target = ?").all(bob.id),
    );
    expect(audit).toEqual([{ actor_id: admin.id }]);
    await expectConsistent();
    // Put the default back for the other tests of this server.
    expect((await s.json('PUT', '/api/admin/settings', settings(200), admin.token)).status).toBe(200);
  });
});
