import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { testHandle } from '../helpers/test-handle';
import { insertVideo, videoTruth } from './sync-harness';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.deps, { name: 'Alice' });
  bob = await createUser(t.deps, { name: 'Bob' });
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await t.close();
});

const push = (user: TestUser, clientId: string, mutations: unknown[]) => call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, user.token);
const pull = (user: TestUser, body: Record<string, unknown>) => call(t.app, 'POST', '/api/sync/pull', { cursor: null, ...body }, user.token);

describe('push', () => {
  it('applies a like once, answers a replay as duplicate, and keeps the counter equal to the rows', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const clientId = randomUUID();
    const batch = [{ id: 1, name: 'like', args: { videoId }, client_time: Date.now() }];
    const first = await push(alice, clientId, batch);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ results: [{ id: 1, status: 'applied' }], last_mutation_id: 1 });
    const replay = await push(alice, clientId, batch);
    expect(replay.json).toEqual({ results: [{ id: 1, status: 'duplicate' }], last_mutation_id: 1 });
    const truth = await videoTruth(t.deps, videoId);
    expect(truth.likes_count).toBe(1);
    expect(truth.likes).toBe(1);
    // The creator scores exactly once.
    const score = await t.deps.db.selectFrom('scores').select('creator_points').where('user_id', '=', bob.id).executeTakeFirst();
    expect(score?.creator_points).toBe(1);
  });

  it('runs every mutation of the catalogue with server-owned ids, times and counters', async () => {
    const videoId = await insertVideo(t.deps, bob.id, { durationMs: 2000 });
    const clientId = randomUUID();
    const commentId = randomUUID();
    const res = await push(alice, clientId, [
      { id: 1, name: 'like', args: { videoId } },
      { id: 2, name: 'addComment', args: { commentId, videoId, content: '  nice clip  ' } },
      { id: 3, name: 'recordShare', args: { shareId: randomUUID(), videoId } },
      { id: 4, name: 'recordView', args: { videoId, watchedMs: 2000 } },
      { id: 5, name: 'updateProfileName', args: { name: '  Alice A.  ' } },
      { id: 6, name: 'unlike', args: { videoId } },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: any) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied', 'applied']);
    const truth = await videoTruth(t.deps, videoId);
    expect(truth).toMatchObject({ likes_count: 0, likes: 0, comments_count: 1, comments: 1, shares_count: 1, shares: 1, views_count: 1, views: 1 });
    const comment = await t.deps.db.selectFrom('comments').selectAll().where('id', '=', commentId).executeTakeFirstOrThrow();
    expect(comment.content).toBe('nice clip');
    expect(comment.user_id).toBe(alice.id);
    const profile = await t.deps.db.selectFrom('profiles').select('name').where('id', '=', alice.id).executeTakeFirstOrThrow();
    expect(profile.name).toBe('Alice A.');
  });

  it('rejects refusals for good with a reason and still advances the id', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const clientId = randomUUID();
    const res = await push(alice, clientId, [
      { id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: '   ' } },
      { id: 2, name: 'deleteVideo', args: { videoId } },
      { id: 3, name: 'launchRocket', args: {} },
      { id: 4, name: 'like', args: { videoId: randomUUID() } },
      { id: 5, name: 'like', args: { videoId, extra: 1 } },
      { id: 6, name: 'like', args: { videoId } },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.last_mutation_id).toBe(6);
    const codes = res.json.results.map((r: any) => r.error?.code ?? r.status);
    expect(codes).toEqual(['invalid_args', 'forbidden', 'unknown_mutation', 'not_found', 'invalid_args', 'applied']);
    expect(res.json.results[0].error.message).toMatch(/empty/);
    expect((await videoTruth(t.deps, videoId)).exists).toBe(true);
  });

  it('lets the owner and an admin delete a video, and a second delete is a no-op', async () => {
    const own = await insertVideo(t.deps, alice.id);
    const { file_key } = await t.deps.db.selectFrom('videos').select('file_key').where('id', '=', own).executeTakeFirstOrThrow();
    // Through the store: on disk a file, in the s3 project an object of the bucket.
    await t.deps.media.putOnce(file_key, Buffer.from('not really a video'), 'video/mp4');
    expect(await t.deps.media.stat(file_key)).not.toBeNull();
    const other = await insertVideo(t.deps, bob.id);
    const c1 = randomUUID();
    const r1 = await push(alice, c1, [
      { id: 1, name: 'deleteVideo', args: { videoId: own } },
      { id: 2, name: 'deleteVideo', args: { videoId: own } },
    ]);
    expect(r1.json.results.map((r: any) => r.status)).toEqual(['applied', 'applied']);
    const r2 = await push(admin, randomUUID(), [{ id: 1, name: 'deleteVideo', args: { videoId: other } }]);
    expect(r2.json.results[0].status).toBe('applied');
    expect((await videoTruth(t.deps, own)).exists).toBe(false);
    expect((await videoTruth(t.deps, other)).exists).toBe(false);
    // The media file goes once the deletion committed (an after-commit step: waited for).
    await vi.waitFor(async () => expect(await t.deps.media.stat(file_key)).toBeNull());
  });

  it('answers bad requests with a clear 4xx and changes nothing', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const clientId = randomUUID();
    // A gap: the first new id must be last + 1.
    const gap = await push(alice, clientId, [{ id: 3, name: 'like', args: { videoId } }]);
    expect(gap.status).toBe(409);
    expect(gap.json.error.code).toBe('mutation_id_gap');
    expect(gap.json.last_mutation_id).toBe(0);
    // Ids inside a batch must be consecutive.
    const holes = await push(alice, clientId, [
      { id: 1, name: 'like', args: { videoId } },
      { id: 3, name: 'unlike', args: { videoId } },
    ]);
    expect(holes.status).toBe(400);
    expect(holes.json.error.code).toBe('invalid_batch');
    // Too many at once.
    const big = await push(
      alice,
      clientId,
      Array.from({ length: 101 }, (_, i) => ({ id: i + 1, name: 'like', args: { videoId } })),
    );
    expect(big.status).toBe(400);
    expect(big.json.error.code).toBe('batch_too_large');
    // Malformed bodies.
    for (const body of [
      '{',
      '[]',
      { client_id: 'nope', mutations: [] },
      { client_id: clientId, mutations: [{ id: 0, name: 'like', args: {} }] },
      { client_id: clientId, mutations: [], x: 1 },
    ]) {
      const r = await call(t.app, 'POST', '/api/sync/push', body, alice.token);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBeTypeOf('string');
    }
    // Not signed in.
    expect((await call(t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations: [{ id: 1, name: 'like', args: { videoId } }] })).status).toBe(401);
    expect((await videoTruth(t.deps, videoId)).likes).toBe(0);
    // A client id that belongs to another user.
    const ok = await push(alice, clientId, [{ id: 1, name: 'like', args: { videoId } }]);
    expect(ok.status).toBe(200);
    const stolen = await push(bob, clientId, [{ id: 2, name: 'unlike', args: { videoId } }]);
    expect(stolen.status).toBe(403);
    expect(stolen.json.error.code).toBe('client_id_taken');
    expect((await videoTruth(t.deps, videoId)).likes).toBe(1);
  });

  it('answers a batch that overlaps the acknowledged ids with duplicates, then applies the new ones', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const clientId = randomUUID();
    await push(alice, clientId, [
      { id: 1, name: 'like', args: { videoId } },
      { id: 2, name: 'unlike', args: { videoId } },
    ]);
    const res = await push(alice, clientId, [
      { id: 2, name: 'unlike', args: { videoId } },
      { id: 3, name: 'like', args: { videoId } },
    ]);
    expect(res.json.results.map((r: any) => r.status)).toEqual(['duplicate', 'applied']);
    expect((await videoTruth(t.deps, videoId)).likes_count).toBe(1);
  });
});

describe('pull', () => {
  it('sends a full snapshot first, then only what changed since the cursor', async () => {
    const carol = await createUser(t.deps, { name: 'Carol' });
    const videoId = await insertVideo(t.deps, carol.id, { title: 'Carol clip' });
    const clientId = randomUUID();
    const first = await pull(carol, { client_id: clientId, open_videos: [videoId], load_comments: [videoId] });
    expect(first.status).toBe(200);
    expect(first.json.reset).toBe(true);
    expect(first.json.videos.find((v: any) => v.id === videoId)).toMatchObject({ title: 'Carol clip', user_name: 'Carol', liked_by_me: false });
    expect(first.json.profile).toMatchObject({ id: carol.id, name: 'Carol', is_admin: false });
    expect(first.json.comments_loaded).toEqual([videoId]);
    expect(first.json.leaderboards).not.toBeNull();

    const empty = await pull(carol, { client_id: clientId, cursor: first.json.cursor, open_videos: [videoId] });
    expect(empty.json).toMatchObject({ reset: false, videos: [], comments: [], deleted_videos: [], profile: null, leaderboards: null });

    const commentId = randomUUID();
    await push(alice, randomUUID(), [
      { id: 1, name: 'like', args: { videoId } },
      { id: 2, name: 'addComment', args: { commentId, videoId, content: 'hello' } },
    ]);
    await push(carol, clientId, [{ id: 1, name: 'updateProfileName', args: { name: 'Caroline' } }]);
    const next = await pull(carol, { client_id: clientId, cursor: empty.json.cursor, open_videos: [videoId] });
    expect(next.json.reset).toBe(false);
    expect(next.json.last_mutation_id).toBe(1);
    expect(next.json.videos).toEqual([expect.objectContaining({ id: videoId, likes_count: 1, comments_count: 1, user_name: 'Caroline' })]);
    expect(next.json.comments).toEqual([expect.objectContaining({ id: commentId, content: 'hello', name: 'Alice A.' })]);
    expect(next.json.profile.name).toBe('Caroline');

    await push(carol, clientId, [{ id: 2, name: 'deleteVideo', args: { videoId } }]);
    const gone = await pull(carol, { client_id: clientId, cursor: next.json.cursor, open_videos: [videoId] });
    expect(gone.json.deleted_videos).toEqual([videoId]);
    expect(gone.json.videos).toEqual([]);
  });

  it('marks liked_by_me only for the viewer', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    await push(alice, randomUUID(), [{ id: 1, name: 'like', args: { videoId } }]);
    const a = await pull(alice, {});
    const b = await pull(bob, {});
    expect(a.json.videos.find((v: any) => v.id === videoId).liked_by_me).toBe(true);
    expect(b.json.videos.find((v: any) => v.id === videoId).liked_by_me).toBe(false);
  });

  it('answers a cursor too far behind with a full snapshot', async () => {
    const old = await pull(alice, {});
    const now = t.deps.now();
    await t.deps.db
      .insertInto('change_log')
      .values(Array.from({ length: 2001 }, (_, i) => ({ entity: 'video', entity_id: `gone-${i}`, video_id: null, user_id: null, deleted: 1, created_at: now })))
      .execute();
    const res = await pull(alice, { cursor: old.json.cursor });
    expect(res.status).toBe(200);
    expect(res.json.reset).toBe(true);
    expect(res.json.deleted_videos).toEqual([]);
    expect(Number(res.json.cursor)).toBeGreaterThan(Number(old.json.cursor) + 2000);
  });

  it('resets on a cursor from the future and refuses a malformed one', async () => {
    const future = await pull(alice, { cursor: '999999999' });
    expect(future.status).toBe(200);
    expect(future.json.reset).toBe(true);
    expect(Number(future.json.cursor)).toBeLessThan(999999999);
    for (const cursor of ['abc', '-1', '1.5']) {
      const bad = await pull(alice, { cursor });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe('invalid_cursor');
    }
    expect((await call(t.app, 'POST', '/api/sync/pull', { cursor: 1 }, alice.token)).status).toBe(400);
    expect((await call(t.app, 'POST', '/api/sync/pull', { cursor: null, open_videos: Array(51).fill('a') }, alice.token)).status).toBe(400);
  });
});

describe('feed and comments read API', () => {
  it('pages the feed newest first with keyset cursors and every field', async () => {
    const fresh = await createTestApp();
    try {
      const u = await createUser(fresh.deps, { name: 'Pager' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await insertVideo(fresh.deps, u.id, { createdAt: 1_700_000_000_000 + i * 1000 }));
      const p1 = await call(fresh.app, 'GET', '/api/videos?limit=2', undefined, u.token);
      expect(p1.status).toBe(200);
      expect(p1.json.items.map((v: any) => v.id)).toEqual([ids[4], ids[3]]);
      expect(Object.keys(p1.json.items[0]).sort()).toEqual(
        [
          'comments_count',
          'created_at',
          'description',
          'duration_ms',
          'id',
          'liked_by_me',
          'likes_count',
          'media_status',
          'media_progress',
          'media_error',
          'hls_url',
          'mp4_url',
          'captions_url',
          'poster_url',
          'shares_count',
          'title',
          'user_id',
          'user_name',
          'user_handle',
          'video_url',
          'views_count',
        ].sort(),
      );
      expect(p1.json.items[0].user_handle).toBe(testHandle(u.id));
      expect(p1.json.items[0].video_url).toMatch(/^\/media\//);
      expect(p1.json.items[0].created_at).toBe(new Date(1_700_000_004_000).toISOString());
      const p2 = await call(fresh.app, 'GET', `/api/videos?limit=2&cursor=${p1.json.next_cursor}`, undefined, u.token);
      const p3 = await call(fresh.app, 'GET', `/api/videos?limit=2&cursor=${p2.json.next_cursor}`, undefined, u.token);
      expect(p2.json.items.map((v: any) => v.id)).toEqual([ids[2], ids[1]]);
      expect(p3.json.items.map((v: any) => v.id)).toEqual([ids[0]]);
      expect(p3.json.next_cursor).toBeNull();
      for (const q of ['limit=0', 'limit=51', 'limit=x', 'cursor=%%%', 'cursor=bm9wZQ']) {
        const bad = await call(fresh.app, 'GET', `/api/videos?${q}`, undefined, u.token);
        expect(bad.status).toBe(400);
      }
      expect((await call(fresh.app, 'GET', '/api/videos')).status).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  it('sends the same items from the feed route (JSON built by SQLite) as from pull', async () => {
    const fresh = await createTestApp();
    try {
      const u = await createUser(fresh.deps, { name: 'Zoë "Q" \\ Ünïcode' });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(await insertVideo(fresh.deps, u.id, { createdAt: 1_700_000_000_007 + i * 1001, title: `T "${i}" \n ✓` }));
      await fresh.deps.db
        .updateTable('videos')
        .set({ poster_key: `${u.id}/poster.jpg`, likes_count: 1 })
        .where('id', '=', ids[2]!)
        .execute();
      await fresh.deps.db.insertInto('likes').values({ video_id: ids[2]!, user_id: u.id, created_at: 1 }).execute();
      const feed = await call(fresh.app, 'GET', '/api/videos?limit=50', undefined, u.token);
      expect(feed.headers.get('content-type')).toMatch(/application\/json/);
      const pulled = await call(fresh.app, 'POST', '/api/sync/pull', { cursor: null }, u.token);
      expect(feed.json.items).toEqual(pulled.json.videos);
      expect(feed.json.items.find((v: any) => v.id === ids[2])).toMatchObject({ liked_by_me: true, poster_url: `/media/${u.id}/poster.jpg` });
      expect(feed.json.items[0].created_at).toBe(new Date(1_700_000_000_007 + 5 * 1001).toISOString());
    } finally {
      await fresh.close();
    }
  });

  it('lists comments newest first with author names, 404 for a missing video', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const cid = randomUUID();
    await push(bob, randomUUID(), [{ id: 1, name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'first' } }]);
    t.advance(5);
    await push(alice, randomUUID(), [{ id: 1, name: 'addComment', args: { commentId: cid, videoId, content: 'second' } }]);
    const res = await call(t.app, 'GET', `/api/videos/${videoId}/comments`, undefined, bob.token);
    expect(res.status).toBe(200);
    expect(res.json.items.map((c: any) => c.content)).toEqual(['second', 'first']);
    expect(res.json.items[0]).toMatchObject({ id: cid, user_id: alice.id, name: 'Alice A.', handle: testHandle(alice.id), video_id: videoId });
    expect((await call(t.app, 'GET', `/api/videos/${randomUUID()}/comments`, undefined, bob.token)).status).toBe(404);
  });
});

describe('openapi', () => {
  it('documents every sync and videos operation with bearer security', async () => {
    const doc = await call(t.app, 'GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    const ops: Array<[string, string]> = [
      ['/api/sync/push', 'post'],
      ['/api/sync/pull', 'post'],
      ['/api/sync/events', 'get'],
      ['/api/videos', 'get'],
      ['/api/videos/{id}/comments', 'get'],
    ];
    for (const [path, method] of ops) {
      const op = doc.json.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.json.paths['/api/sync/push'].post.requestBody.required).toBe(true);
  });
});

describe('events', () => {
  it('streams a ready event, then a poke after a mutation commits', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const ctl = new AbortController();
    const res = await t.app.request('/api/sync/events', { headers: { authorization: `Bearer ${alice.token}` }, signal: ctl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value);
      }
    };
    await readUntil('event: ready');
    // A poke for another user's private rows is not sent to this stream.
    t.deps.pokes.notify([`user:${bob.id}`]);
    await push(bob, randomUUID(), [{ id: 1, name: 'like', args: { videoId } }]);
    await readUntil('event: poke');
    expect(text).toContain(`video:${videoId}`);
    expect(text).not.toContain(`user:${bob.id}`);
    ctl.abort();
    await reader.cancel().catch(() => undefined);
    expect((await t.app.request('/api/sync/events')).status).toBe(401);
  });
});
