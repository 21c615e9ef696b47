import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/test-app';
import type { TestUser } from '../helpers/users';
import { emptyPullLists, feedItem } from '../helpers/feed-item';
import { engineFor, insertVideo, Network, newDevice, useSyncServer } from './sync-harness';
import { applyDelta } from '#client/sync/apply-delta';
import { applyPull, CURSOR_KEY } from '#client/sync/apply-pull';
import { getMeta, setMeta } from '#client/sync/db';
import { clientState } from '#client/sync/outbox';
import { runTx } from '#client/sync/tx-queue';
import type { SyncEngine } from '#client/sync/sync-engine';
import { PokeMessageSchema, PullResponseSchema, type PokeDelta, type PokeMessage } from '#sync/protocol/messages';
import { createDeltaSource, MAX_DELTA_BYTES } from '#server/realtime/poke-deltas';

// Pokes that carry the changed rows (docs/sync.md, "Live"): the server side over real HTTP, the
// client's rule for applying one, and the engine falling back to a pull whenever it cannot.

const s = useSyncServer();
const push = (user: TestUser, clientId: string, mutations: unknown[]) =>
  call(s.t.app, 'POST', '/api/sync/push', { client_id: clientId, mutations }, user.token);
const head = async () =>
  Number(
    (
      await s.t.deps.db
        .selectFrom('change_log')
        .select((eb) => eb.fn.max('seq').as('s'))
        .executeTakeFirstOrThrow()
    ).s,
  );
const setActive = (userId: string, active: 0 | 1) => s.t.deps.db.updateTable('profiles').set({ is_active: active }).where('id', '=', userId).execute();

/** The events stream of `user` over real HTTP, read event by event. */
async function openStream(user: TestUser, clientId?: string) {
  const ctl = new AbortController();
  const q = clientId ? `?client_id=${clientId}` : '';
  const res = await fetch(`${s.http.url}/api/sync/events${q}`, { headers: { authorization: `Bearer ${user.token}` }, signal: ctl.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const cut = buf.indexOf('\n\n');
      if (cut >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) return { event, data: data ?? '' };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buf += decoder.decode(value, { stream: true });
    }
  };
  const poke = async (): Promise<PokeMessage> => {
    for (;;) {
      const e = await next();
      if (e.event === 'poke') return PokeMessageSchema.parse(JSON.parse(e.data));
    }
  };
  const close = () => {
    ctl.abort();
    void reader.cancel().catch(() => undefined);
  };
  return { next, poke, close };
}

describe('poke deltas (server)', () => {
  it("carries the rows that changed since the last event, tiling the change log, with the device's last_mutation_id", async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const aliceClient = randomUUID();
    const at = await head();
    const stream = await openStream(s.alice, aliceClient);
    expect((await stream.next()).event).toBe('ready');

    expect((await push(s.bob, randomUUID(), [{ id: 1, name: 'like', args: { videoId } }])).status).toBe(200);
    const first = (await stream.poke()).delta!;
    expect(first).toMatchObject({ from: String(at), cursor: String(await head()), reset: false, client_id: aliceClient, last_mutation_id: 0 });
    expect(first.videos.find((v) => v.id === videoId)).toMatchObject({ likes_count: 1, liked_by_me: false });
    // Same shape as a pull answer, so the client applies it with the same code.
    expect(PullResponseSchema.safeParse(first).success).toBe(true);

    // Alice's own like: the next delta starts where the first ended and confirms her mutation.
    expect((await push(s.alice, aliceClient, [{ id: 1, name: 'like', args: { videoId } }])).status).toBe(200);
    const second = (await stream.poke()).delta!;
    expect(second).toMatchObject({ from: first.cursor, cursor: String(await head()), last_mutation_id: 1 });
    expect(second.videos.find((v) => v.id === videoId)).toMatchObject({ likes_count: 2, liked_by_me: true });
    stream.close();
  });

  it('sends a plain poke when the delta would be too large, and the next delta starts after it', async () => {
    const stream = await openStream(s.alice);
    expect((await stream.next()).event).toBe('ready');
    // Enough new videos (each with a long title) to exceed the limit in one event.
    const ids: string[] = [];
    const title = 'x'.repeat(200);
    for (let i = 0; i * 300 < MAX_DELTA_BYTES + 4000; i++) ids.push(await insertVideoQuiet(s.bob.id, title));
    s.t.deps.pokes.notify(['feed']);
    const plain = await stream.poke();
    expect(plain.delta).toBeUndefined();
    const after = await head();
    const small = await insertVideo(s.t.deps, s.bob.id);
    const delta = (await stream.poke()).delta!;
    expect(delta).toMatchObject({ from: String(after), cursor: String(await head()), client_id: null });
    expect(delta.videos.map((v) => v.id)).toEqual([small]);
    stream.close();
  });

  it('has nothing to send for a poke that changed nothing a pull would bring', async () => {
    const user = { id: s.alice.id, email: s.alice.email, name: s.alice.name, isAdmin: false };
    const source = createDeltaSource(s.t.deps, user, null, async () => true);
    const at = await head();
    // E.g. a settings poke: settings are not part of pulls and leave the change log as it is.
    expect(await source.next()).toEqual({ kind: 'none' });
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const next = await source.next();
    expect(next.kind).toBe('delta');
    if (next.kind !== 'delta') return;
    expect(next.delta).toMatchObject({ from: String(at), cursor: String(await head()) });
    expect(next.delta.videos.map((v) => v.id)).toEqual([videoId]);
    expect(await source.next()).toEqual({ kind: 'none' });
  });

  it('sends no rows to a member suspended while the stream is open, only a plain poke', async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const stream = await openStream(s.alice, randomUUID());
    expect((await stream.next()).event).toBe('ready');
    await setActive(s.alice.id, 0);
    try {
      expect((await push(s.bob, randomUUID(), [{ id: 1, name: 'like', args: { videoId } }])).status).toBe(200);
      expect((await stream.poke()).delta).toBeUndefined();
    } finally {
      await setActive(s.alice.id, 1);
      stream.close();
    }
  });

  it('refuses a client id that is not a uuid', async () => {
    const res = await fetch(`${s.http.url}/api/sync/events?client_id=nope`, { headers: { authorization: `Bearer ${s.alice.token}` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBeTypeOf('string');
  });
});

/** insertVideo without its poke, so a test decides when the stream hears about a batch. */
async function insertVideoQuiet(ownerId: string, title: string): Promise<string> {
  const notify = s.t.deps.pokes.notify;
  s.t.deps.pokes.notify = () => undefined;
  try {
    return await insertVideo(s.t.deps, ownerId, { title });
  } finally {
    s.t.deps.pokes.notify = notify;
  }
}

describe('applying a delta (client)', () => {
  const item = (id: string, likes: number) => feedItem({ id, likes_count: likes });
  const empty = emptyPullLists();

  async function deviceAt(cursor: string) {
    const device = newDevice();
    const { client_id } = await runTx(device.db, () => clientState(device.db, 'u'));
    expect(await applyPull(device.db, 'u', client_id, null, { ...empty, cursor, reset: true, videos: [item('v1', 0)] })).toBe(true);
    const delta = (from: string, to: string, likes: number, clientId: string | null = client_id): PokeDelta => ({
      ...empty,
      reset: false,
      from,
      cursor: to,
      client_id: clientId,
      videos: [item('v1', likes)],
    });
    return { db: device.db, delta };
  }

  it('applies a delta that starts at the cursor or before it, and moves the cursor to its end', async () => {
    const { db, delta } = await deviceAt('10');
    expect(await applyDelta(db, 'u', delta('10', '12', 1))).toBe('applied');
    expect(await getMeta(db, CURSOR_KEY)).toBe('12');
    expect((await db.videos.get('v1'))?.likes_count).toBe(1);
    // Starts before the cursor (a pull got part of the way): its rows are newer, so it still applies.
    expect(await applyDelta(db, 'u', delta('11', '15', 2))).toBe('applied');
    expect(await getMeta(db, CURSOR_KEY)).toBe('15');
    expect((await db.videos.get('v1'))?.likes_count).toBe(2);
  });

  it('keeps the cache bounded when a delta brings new videos, and skips that check for known ones', async () => {
    const { db, delta } = await deviceAt('10');
    const grown = { ...delta('10', '11', 0), videos: [item('v1', 3), item('v2', 0)] };
    expect(await applyDelta(db, 'u', grown, Date.now(), 1)).toBe('applied');
    expect((await db.videos.toArray()).map((v) => v.id)).toEqual(['v2']);
    expect(await applyDelta(db, 'u', { ...delta('11', '12', 0), videos: [item('v2', 5)] }, Date.now(), 1)).toBe('applied');
    expect((await db.videos.toArray()).map((v) => [v.id, v.likes_count])).toEqual([['v2', 5]]);
  });

  it('ignores a delta the device is already past, and refuses one that would skip changes', async () => {
    const { db, delta } = await deviceAt('10');
    expect(await applyDelta(db, 'u', delta('8', '10', 5))).toBe('stale');
    expect(await applyDelta(db, 'u', delta('11', '13', 5))).toBe('gap');
    expect(await applyDelta(db, 'u', delta('10', '13', 5, randomUUID()))).toBe('gap');
    expect(await applyDelta(db, 'u', delta('10', '13', 5, null))).toBe('gap');
    expect(await getMeta(db, CURSOR_KEY)).toBe('10');
    expect((await db.videos.get('v1'))?.likes_count).toBe(0);
  });
});

describe('the engine with live deltas', () => {
  /** A device of `user` whose engine follows the live stream, started and idle. */
  async function startLive(user: TestUser, net: Network, beforeIdle: (engine: SyncEngine) => void = () => undefined) {
    const { db } = newDevice();
    const { engine } = engineFor(db, user, s.http.url, net, { live: true });
    s.running.push(engine);
    await engine.start();
    await vi.waitFor(() => expect(engine.status.get().live).toBe(true), { timeout: 5000 });
    beforeIdle(engine);
    await engine.sync();
    return { engine, db };
  }
  const pulls = (net: Network) => net.requests.filter((r) => r === 'POST /api/sync/pull').length;

  it("shows another member's like from the poke alone, without pulling", async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const net = new Network();
    const { db } = await startLive(s.alice, net);
    expect(await db.videos.get(videoId)).toBeDefined();
    const before = pulls(net);
    const cursor = Number(await getMeta(db, CURSOR_KEY));
    expect((await push(s.bob, randomUUID(), [{ id: 1, name: 'like', args: { videoId } }])).status).toBe(200);
    await vi.waitFor(async () => expect((await db.videos.get(videoId))?.likes_count).toBe(1), { timeout: 5000 });
    expect(Number(await getMeta(db, CURSOR_KEY))).toBeGreaterThan(cursor);
    expect(pulls(net)).toBe(before);
  });

  it('pulls instead when a delta does not start at or before its cursor', async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const net = new Network();
    const { db } = await startLive(s.alice, net);
    // The device's cursor falls behind the stream (as if it had missed an event): the next delta
    // would skip the changes in between, so the engine must pull them.
    await runTx(db, () => setMeta(db, CURSOR_KEY, '0'));
    const before = pulls(net);
    expect((await push(s.bob, randomUUID(), [{ id: 1, name: 'like', args: { videoId } }])).status).toBe(200);
    await vi.waitFor(async () => expect((await db.videos.get(videoId))?.likes_count).toBe(1), { timeout: 5000 });
    expect(pulls(net)).toBeGreaterThan(before);
    expect(Number(await getMeta(db, CURSOR_KEY))).toBe(await head());
  });

  it('pulls instead while it follows a comment list, which only a pull brings', async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id);
    const net = new Network();
    let close = () => undefined as void;
    const { db } = await startLive(s.alice, net, (engine) => (close = engine.followComments(videoId)));
    const before = pulls(net);
    const commentId = randomUUID();
    expect((await push(s.bob, randomUUID(), [{ id: 1, name: 'addComment', args: { commentId, videoId, content: 'live' } }])).status).toBe(200);
    await vi.waitFor(async () => expect((await db.comments.get(commentId))?.content).toBe('live'), { timeout: 5000 });
    expect(pulls(net)).toBeGreaterThan(before);
    close();
  });
});
