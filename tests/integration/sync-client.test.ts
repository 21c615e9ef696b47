import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { emptyPullLists, feedItem } from '../helpers/feed-item';
import { engineFor, insertVideo, listen, Network, newDevice, videoTruth, type TestEngine } from './sync-harness';
import type { SyncEngine } from '#client/sync/sync-engine';
import { readComments, readFeed, readProfile, readSyncCounters } from '#client/sync/queries';
import { applyPull } from '#client/sync/apply-pull';

let t: TestApp;
let http: { url: string; close(): Promise<void> };
let alice: TestUser;
let bob: TestUser;
const running: SyncEngine[] = [];

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app.fetch);
  alice = await createUser(t.deps, { name: 'Alice' });
  bob = await createUser(t.deps, { name: 'Bob' });
});
afterEach(async () => {
  for (const e of running.splice(0)) await e.stop();
});
afterAll(async () => {
  await http.close();
  await t.close();
});

function start(db: Parameters<typeof engineFor>[0], user: TestUser, net: Network, extra: Parameters<typeof engineFor>[4] = {}): TestEngine {
  const te = engineFor(db, user, http.url, net, extra);
  running.push(te.engine);
  return te;
}

describe('offline queue, reload, reconnect', () => {
  it('queues offline actions, survives a reload, and applies each exactly once on reconnect', async () => {
    const videoId = await insertVideo(t.deps, bob.id, { title: 'Offline target' });
    const device = newDevice();
    const net = new Network();
    const first = start(device.db, alice, net);
    await first.engine.start();
    expect(await first.engine.sync()).toBe(true);
    expect((await device.db.videos.get(videoId))?.title).toBe('Offline target');

    net.offline = true;
    const commentId = randomUUID();
    await first.engine.mutate('like', { videoId });
    await first.engine.mutate('addComment', { commentId, videoId, content: 'written on the train' });
    await first.engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    expect(await first.engine.sync()).toBe(false);
    // No network is 'offline', not a failure to report.
    expect(first.engine.status.get()).toMatchObject({ online: false, failing: false });
    // Shown at once, before the server knows.
    expect(await device.db.videos.get(videoId)).toMatchObject({ liked_by_me: true, likes_count: 1, comments_count: 1, shares_count: 1 });
    expect((await device.db.comments.get(commentId))?.content).toBe('written on the train');
    expect(await device.db.outbox.count()).toBe(3);
    expect((await videoTruth(t.deps, videoId)).likes).toBe(0);

    // Reload: the tab goes away and a new one opens the same IndexedDB.
    await first.engine.stop();
    device.db.close();
    const db2 = device.reopen();
    expect(await db2.outbox.count()).toBe(3);
    expect(await db2.videos.get(videoId)).toMatchObject({ liked_by_me: true, likes_count: 1 });

    net.offline = false;
    const second = start(db2, alice, net);
    await second.engine.start();
    expect(await second.engine.sync()).toBe(true);
    expect(await db2.outbox.count()).toBe(0);
    const truth = await videoTruth(t.deps, videoId);
    expect(truth).toMatchObject({ likes: 1, likes_count: 1, comments: 1, comments_count: 1, shares: 1, shares_count: 1 });
    expect(await db2.videos.get(videoId)).toMatchObject({ liked_by_me: true, likes_count: 1, comments_count: 1, shares_count: 1 });

    // Another round changes nothing.
    expect(await second.engine.sync()).toBe(true);
    expect(await videoTruth(t.deps, videoId)).toEqual(truth);
  });

  it('replays a push whose response was lost without applying anything twice', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    const { engine } = start(device.db, alice, net);
    await engine.start();
    await engine.sync();
    net.offline = true;
    await engine.mutate('addComment', { commentId: randomUUID(), videoId, content: 'once' });
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    net.offline = false;
    net.dropPushResponses = 1;
    expect(await engine.sync()).toBe(false);
    // The server did commit both before the response was lost.
    expect(await videoTruth(t.deps, videoId)).toMatchObject({ comments: 1, shares: 1 });
    expect(await device.db.outbox.count()).toBe(2);
    expect(await engine.sync()).toBe(true);
    expect(await videoTruth(t.deps, videoId)).toMatchObject({ comments: 1, comments_count: 1, shares: 1, shares_count: 1 });
    expect(await device.db.outbox.count()).toBe(0);
    expect(await device.db.videos.get(videoId)).toMatchObject({ comments_count: 1, shares_count: 1 });
  });

  it('retries on its own after a failure, without waiting for another action', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    net.offline = true;
    const { engine } = start(device.db, alice, net);
    await engine.start();
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    await vi.waitFor(() => expect(net.requests.filter((r) => r === 'POST /api/sync/push').length).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    net.offline = false;
    await vi.waitFor(async () => expect((await videoTruth(t.deps, videoId)).shares).toBe(1), { timeout: 15_000 });
    await vi.waitFor(async () => expect(await device.db.outbox.count()).toBe(0), { timeout: 15_000 });
  });
});

describe('what the hooks read', () => {
  it('marks queued changes pending per item until the server confirms them', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const other = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    const { engine } = start(device.db, alice, net);
    await engine.start();
    expect((await readFeed(device.db, alice.id)).synced).toBe(false);
    await engine.sync();
    const close = engine.followComments(videoId);
    await engine.sync();
    expect((await readComments(device.db, alice.id, videoId)).loaded).toBe(true);

    net.offline = true;
    const commentId = randomUUID();
    await engine.mutate('like', { videoId });
    await engine.mutate('addComment', { commentId, videoId, content: 'pending one' });
    await engine.mutate('recordView', { videoId: other, watchedMs: 4000 });
    await engine.mutate('updateProfileName', { name: 'Alice Offline' });
    const feed = await readFeed(device.db, alice.id);
    expect(feed.synced).toBe(true);
    expect(feed.items.find((v) => v.id === videoId)).toMatchObject({ pending: true, liked_by_me: true });
    // A view shows nothing, so it does not mark the card.
    expect(feed.items.find((v) => v.id === other)?.pending).toBe(false);
    expect((await readComments(device.db, alice.id, videoId)).comments).toEqual([
      expect.objectContaining({ id: commentId, content: 'pending one', pending: true }),
    ]);
    expect(await readProfile(device.db, alice.id)).toMatchObject({ name: 'Alice Offline', pending: true });
    expect((await readSyncCounters(device.db, alice.id)).pendingCount).toBe(4);

    net.offline = false;
    expect(await engine.sync()).toBe(true);
    const after = await readFeed(device.db, alice.id);
    expect(after.items.every((v) => !v.pending)).toBe(true);
    expect((await readComments(device.db, alice.id, videoId)).comments[0]).toMatchObject({ id: commentId, pending: false, name: 'Alice Offline' });
    expect(await readProfile(device.db, alice.id)).toMatchObject({ name: 'Alice Offline', pending: false });
    const counters = await readSyncCounters(device.db, alice.id);
    expect(counters.pendingCount).toBe(0);
    expect(counters.lastSyncedAt).toBeTypeOf('number');
    close();
    // Put the shared test user's name back.
    await engine.mutate('updateProfileName', { name: 'Alice' });
    await engine.sync();
  });
});

describe('bounded cache', () => {
  it('drops the oldest videos beyond the cap as new ones arrive', async () => {
    const device = newDevice();
    const item = (i: number) =>
      feedItem({
        id: `v${String(i).padStart(3, '0')}`,
        title: `t${i}`,
        video_url: `/media/${i}`,
        created_at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
      });
    const base = emptyPullLists();
    expect(await applyPull(device.db, 'u', 'c', null, { ...base, cursor: '5', reset: true, videos: [1, 2, 3, 4, 5].map(item) }, Date.now(), 4)).toBe(true);
    expect(await device.db.videos.count()).toBe(4);
    expect(await applyPull(device.db, 'u', 'c', '5', { ...base, cursor: '7', reset: false, videos: [6, 7].map(item) }, Date.now(), 4)).toBe(true);
    expect((await readFeed(device.db, 'u')).items.map((v) => v.id)).toEqual(['v007', 'v006', 'v005', 'v004']);
    // A pull asked with a cursor that has moved since (another tab applied one) is not applied.
    expect(await applyPull(device.db, 'u', 'c', '5', { ...base, cursor: '9', reset: false, videos: [9].map(item) }, Date.now(), 4)).toBe(false);
    expect(await device.db.videos.get('v009')).toBeUndefined();
  });
});

describe('tabs, rejections, identities', () => {
  it('two tabs on one IndexedDB share one queue and never send a mutation twice', async () => {
    const videos = [await insertVideo(t.deps, bob.id), await insertVideo(t.deps, bob.id)];
    const device = newDevice();
    const tabB = device.reopen();
    const net = new Network();
    const a = start(device.db, alice, net);
    const b = start(tabB, alice, net);
    await Promise.all([a.engine.start(), b.engine.start()]);
    await Promise.all([a.engine.sync(), b.engine.sync()]);
    const comments: string[] = [];
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10; i++) {
      const id = randomUUID();
      comments.push(id);
      const tab = i % 2 ? b.engine : a.engine;
      work.push(tab.mutate('addComment', { commentId: id, videoId: videos[i % 2]!, content: `tab comment ${i}` }));
      work.push(tab.mutate('recordShare', { shareId: randomUUID(), videoId: videos[0]! }));
    }
    await Promise.all(work);
    await Promise.all([a.engine.sync(), b.engine.sync()]);
    await a.engine.sync();
    const ids = (await device.db.outbox.toArray()).map((e) => e.id);
    expect(ids).toEqual([]);
    const t0 = await videoTruth(t.deps, videos[0]!);
    const t1 = await videoTruth(t.deps, videos[1]!);
    // Ten shares by one member: all kept, counted once (shares_count counts members: docs/rewards.md, "The rule").
    expect(t0).toMatchObject({ comments: 5, comments_count: 5, shares: 10, shares_count: 1 });
    expect(t1).toMatchObject({ comments: 5, comments_count: 5 });
    // Both tabs read the same rows.
    expect(await tabB.videos.get(videos[0]!)).toMatchObject({ comments_count: 5, shares_count: 1 });
  });

  it('rolls back a refused mutation and reports why', async () => {
    // The device still believes its user is an admin; the server has revoked it meanwhile.
    const carol = await createUser(t.deps, { name: 'Carol', isAdmin: true });
    const videoId = await insertVideo(t.deps, bob.id, { title: 'Not yours' });
    const device = newDevice();
    const net = new Network();
    const { engine, rejections } = start(device.db, carol, net);
    await engine.start();
    await engine.sync();
    expect((await device.db.profile.get(carol.id))?.is_admin).toBe(true);
    await t.deps.db.updateTable('profiles').set({ is_admin: 0 }).where('id', '=', carol.id).execute();
    net.offline = true;
    await engine.mutate('deleteVideo', { videoId });
    expect(await device.db.videos.get(videoId)).toBeUndefined();
    net.offline = false;
    await engine.sync();
    expect(rejections).toEqual([{ name: 'deleteVideo', args: { videoId }, error: { code: 'forbidden', message: 'You can only delete your own videos.' } }]);
    expect((await device.db.videos.get(videoId))?.title).toBe('Not yours');
    expect(await device.db.outbox.count()).toBe(0);
    expect((await videoTruth(t.deps, videoId)).exists).toBe(true);
  });

  it('rejects actions on a video deleted meanwhile, with the reason, and drops the video', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    const { engine, rejections } = start(device.db, alice, net);
    await engine.start();
    await engine.sync();
    net.offline = true;
    await engine.mutate('like', { videoId });
    expect((await device.db.videos.get(videoId))?.liked_by_me).toBe(true);
    const bobDevice = start(newDevice().db, bob, new Network());
    await bobDevice.engine.start();
    await bobDevice.engine.mutate('deleteVideo', { videoId });
    await bobDevice.engine.sync();
    net.offline = false;
    await engine.sync();
    expect(rejections.map((r) => [r.name, r.error.code])).toEqual([['like', 'not_found']]);
    expect(await device.db.videos.get(videoId)).toBeUndefined();
    expect(await device.db.outbox.count()).toBe(0);
  });

  it('retries after a 503 and drops only a malformed queued entry, with its reason', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    const { engine, rejections } = start(device.db, alice, net);
    await engine.start();
    await engine.sync();
    net.offline = true;
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    // An entry damaged in storage (a name no server accepts in a request) between two good ones.
    const bad = await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    await device.db.outbox.update(bad.seq!, { name: 'x'.repeat(100) });
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    net.offline = false;
    net.unavailable = 1;
    expect(await engine.sync()).toBe(false);
    // A server error with the network up is 'failing' (the feed says 'Could not fetch videos.').
    expect(engine.status.get()).toMatchObject({ online: true, failing: true });
    expect((await videoTruth(t.deps, videoId)).shares).toBe(0);
    expect(await engine.sync()).toBe(true);
    expect(engine.status.get()).toMatchObject({ online: true, failing: false });
    expect(rejections.map((r) => r.error.code)).toEqual(['invalid_request']);
    expect(await device.db.outbox.count()).toBe(0);
    // Both shares arrived; one member's shares count once in shares_count (docs/rewards.md, "The rule").
    expect(await videoTruth(t.deps, videoId)).toMatchObject({ shares: 2, shares_count: 1 });
    expect((await device.db.videos.get(videoId))?.shares_count).toBe(1);
  });

  it('refuses invalid args locally without queueing', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const { engine } = start(device.db, alice, new Network());
    await engine.start();
    await expect(engine.mutate('addComment', { commentId: randomUUID(), videoId, content: '  \n ' })).rejects.toMatchObject({ code: 'invalid_args' });
    await expect(engine.mutate('updateProfileName', { name: 'x'.repeat(81) })).rejects.toMatchObject({ code: 'invalid_args' });
    expect(await device.db.outbox.count()).toBe(0);
  });

  it("keeps a signed-out user's queue, never sends it as someone else, and sends it when they are back", async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    let aliceToken: string | null = alice.token;
    const a = start(device.db, alice, net, { getAccessToken: () => aliceToken });
    await a.engine.start();
    await a.engine.sync();
    aliceToken = null; // signed out
    await a.engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    expect(await a.engine.sync()).toBe(false);
    expect(a.engine.status.get().paused).toBe('signed_out');
    await a.engine.stop();

    // Bob signs in on the same device; a token of the wrong user is not used for Alice's queue either.
    const b = start(device.db, bob, net);
    await b.engine.start();
    expect(await b.engine.sync()).toBe(true);
    const wrong = start(device.db, alice, net, { getAccessToken: () => bob.token });
    expect(await wrong.engine.sync()).toBe(false);
    await wrong.engine.stop();
    expect((await videoTruth(t.deps, videoId)).shares).toBe(0);
    expect(await device.db.outbox.where('user_id').equals(alice.id).count()).toBe(1);
    await b.engine.stop();

    const back = start(device.db, alice, net);
    await back.engine.start();
    expect(await back.engine.sync()).toBe(true);
    const shares = await t.deps.db.selectFrom('shares').select('user_id').where('video_id', '=', videoId).execute();
    expect(shares).toEqual([{ user_id: alice.id }]);
  });

  it('refreshes the session once on 401 and retries', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    let token = 'expired.token.value';
    let refreshed = 0;
    const { engine } = start(device.db, alice, new Network(), {
      getAccessToken: () => token,
      refreshSession: async () => {
        refreshed += 1;
        token = alice.token;
        return token;
      },
    });
    await engine.start();
    await engine.mutate('like', { videoId });
    expect(await engine.sync()).toBe(true);
    expect(refreshed).toBeGreaterThanOrEqual(1);
    expect((await videoTruth(t.deps, videoId)).likes).toBe(1);
  });

  it('recovers from a server that lost its mutation ids (gap) and from a client id owned by someone else', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const net = new Network();
    const { engine } = start(device.db, alice, net);
    await engine.start();
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    expect(await engine.sync()).toBe(true);
    // The server forgets the client (e.g. restored from a backup): the next id is a gap for it.
    await t.deps.db.deleteFrom('sync_clients').where('user_id', '=', alice.id).execute();
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    expect(await engine.sync()).toBe(true);
    expect(await device.db.outbox.count()).toBe(0);
    expect((await videoTruth(t.deps, videoId)).shares).toBe(3);

    // Someone else owns this client id now: the device picks a new one and goes on.
    const state = (await device.db.meta.get(`client:${alice.id}`))!.value as { client_id: string };
    await t.deps.db.updateTable('sync_clients').set({ user_id: bob.id }).where('client_id', '=', state.client_id).execute();
    await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
    expect(await engine.sync()).toBe(true);
    expect((await videoTruth(t.deps, videoId)).shares).toBe(4);
    const after = (await device.db.meta.get(`client:${alice.id}`))!.value as { client_id: string };
    expect(after.client_id).not.toBe(state.client_id);
  });
});

describe('two users', () => {
  it('converge on both devices after interleaved actions', async () => {
    const v1 = await insertVideo(t.deps, alice.id, { title: 'Alice clip' });
    const v2 = await insertVideo(t.deps, bob.id, { title: 'Bob clip' });
    const da = newDevice();
    const db = newDevice();
    const netA = new Network();
    const netB = new Network();
    const a = start(da.db, alice, netA);
    const b = start(db.db, bob, netB);
    await Promise.all([a.engine.start(), b.engine.start()]);
    await Promise.all([a.engine.sync(), b.engine.sync()]);

    netA.offline = true;
    await a.engine.mutate('like', { videoId: v2 });
    await b.engine.mutate('like', { videoId: v1 });
    await b.engine.mutate('addComment', { commentId: randomUUID(), videoId: v1, content: 'from bob' });
    await b.engine.sync();
    await a.engine.mutate('addComment', { commentId: randomUUID(), videoId: v1, content: 'from alice' });
    await a.engine.mutate('like', { videoId: v1 });
    await b.engine.mutate('unlike', { videoId: v1 });
    await b.engine.mutate('like', { videoId: v2 });
    netA.offline = false;
    await Promise.all([a.engine.sync(), b.engine.sync()]);
    await Promise.all([a.engine.sync(), b.engine.sync()]);

    for (const id of [v1, v2]) {
      const truth = await videoTruth(t.deps, id);
      const ra = (await da.db.videos.get(id))!;
      const rb = (await db.db.videos.get(id))!;
      for (const row of [ra, rb]) {
        expect(row).toMatchObject({ likes_count: truth.likes, comments_count: truth.comments });
      }
      expect(truth.likes_count).toBe(truth.likes);
      expect(truth.comments_count).toBe(truth.comments);
    }
    expect((await da.db.videos.get(v1))?.liked_by_me).toBe(true);
    expect((await db.db.videos.get(v1))?.liked_by_me).toBe(false);
    expect((await db.db.videos.get(v2))?.liked_by_me).toBe(true);
    expect(await videoTruth(t.deps, v1)).toMatchObject({ likes: 1, comments: 2 });
    expect(await videoTruth(t.deps, v2)).toMatchObject({ likes: 2 });
  });

  it("shows another user's like through the live stream without a manual pull", async () => {
    const videoId = await insertVideo(t.deps, alice.id);
    const da = newDevice();
    const db = newDevice();
    const watcher = start(da.db, alice, new Network(), { live: true });
    const actor = start(db.db, bob, new Network());
    await Promise.all([watcher.engine.start(), actor.engine.start()]);
    await vi.waitFor(() => expect(watcher.engine.status.get().live).toBe(true), { timeout: 5000 });
    await actor.engine.sync();
    await vi.waitFor(async () => expect(await da.db.videos.get(videoId)).toBeDefined(), { timeout: 5000 });
    await actor.engine.mutate('like', { videoId });
    await vi.waitFor(async () => expect((await da.db.videos.get(videoId))?.likes_count).toBe(1), { timeout: 5000 });
  });

  it('loads comments of an opened video in full, then follows changes', async () => {
    const videoId = await insertVideo(t.deps, bob.id);
    const device = newDevice();
    const a = start(device.db, alice, new Network());
    const b = start(newDevice().db, bob, new Network());
    await Promise.all([a.engine.start(), b.engine.start()]);
    await b.engine.sync();
    await b.engine.mutate('addComment', { commentId: randomUUID(), videoId, content: 'before open' });
    await b.engine.sync();
    await a.engine.sync();
    expect(await device.db.comments.where('video_id').equals(videoId).count()).toBe(0);
    const close = a.engine.followComments(videoId);
    await a.engine.sync();
    expect((await device.db.comments.where('video_id').equals(videoId).toArray()).map((c) => c.content)).toEqual(['before open']);
    await b.engine.mutate('addComment', { commentId: randomUUID(), videoId, content: 'while open' });
    await b.engine.sync();
    await a.engine.sync();
    expect((await device.db.comments.where('video_id').equals(videoId).toArray()).map((c) => c.content).sort()).toEqual(['before open', 'while open']);
    close();
  });

  it('fetches older pages below the window on demand', async () => {
    const fresh = await createTestApp();
    const server = await listen(fresh.app.fetch);
    try {
      const u = await createUser(fresh.deps);
      for (let i = 0; i < 305; i++) await insertVideo(fresh.deps, u.id, { createdAt: 1_700_000_000_000 + i });
      const device = newDevice();
      const te = engineFor(device.db, u, server.url, new Network());
      running.push(te.engine);
      await te.engine.start();
      await te.engine.sync();
      expect(await device.db.videos.count()).toBe(300);
      expect(await te.engine.pullOlder()).toBe(false);
      expect(await device.db.videos.count()).toBe(305);
      expect(await te.engine.pullOlder()).toBe(false);
    } finally {
      await server.close();
      await fresh.close();
    }
  });
});
