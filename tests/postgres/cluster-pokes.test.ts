import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../integration/sync-harness';
import { sharedDeltasFor } from '#server/realtime/shared-deltas';
import { FULL_POKE_SCOPE } from '#server/changes/pokes';
import { PokeMessageSchema } from '#sync/protocol/messages';
import { createSharedPokes } from '#server/changes/pokes-postgres';
import { onOwnConnection, openStream, terminateConnections, twoInstances, type Instance } from './cluster-apps';

// Several instances on one database (issue 16): a change made through one instance reaches the
// live streams held by another, through PostgreSQL's NOTIFY (server/changes/pokes-postgres.ts).

let cluster: Awaited<ReturnType<typeof twoInstances>>;
let a: Instance;
let b: Instance;
let owner: TestUser;

beforeAll(async () => {
  cluster = await twoInstances();
  ({ a, b } = cluster);
  owner = await createUser(a.deps, { name: 'Owner' });
});
afterAll(() => cluster?.close());

const like = async (through: Instance, user: TestUser, videoId: string) => {
  const res = await call(
    through.app,
    'POST',
    '/api/sync/push',
    { client_id: randomUUID(), mutations: [{ id: 1, name: 'like', args: { videoId } }] },
    user.token,
  );
  expect(res.status).toBe(200);
};

const pokeOf = (e: { data: string }) => PokeMessageSchema.parse(JSON.parse(e.data));

describe('pokes across instances', () => {
  it('a like pushed through A reaches a live stream on B, with its row', async () => {
    const videoId = await insertVideo(a.deps, owner.id);
    const [watcher, liker] = await Promise.all([createUser(a.deps, { name: 'Watcher' }), createUser(a.deps, { name: 'Liker' })]);
    const stream = await openStream(b.url, watcher);
    await stream.nextEvent('ready');
    expect(b.deps.liveStreams.count(watcher.id)).toBe(1);

    await like(a, liker, videoId);
    const poke = pokeOf(await stream.nextEvent('poke'));
    expect(poke.scopes).toContain(`video:${videoId}`);
    expect(poke.delta?.videos.find((v) => v.id === videoId)?.likes_count).toBe(1);
    stream.close();
  });

  it('computes the shared part of a remote change once on B for all its streams', async () => {
    const videoId = await insertVideo(a.deps, owner.id);
    const watchers = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(a.deps, { name: `Watcher ${i}` })));
    const streams = await Promise.all(watchers.map((w) => openStream(b.url, w)));
    await Promise.all(streams.map((s) => s.nextEvent('ready')));
    const sharedB = sharedDeltasFor(b.deps);
    const sharedA = sharedDeltasFor(a.deps);
    const [beforeB, beforeA] = [sharedB.reads, sharedA.reads];

    await like(a, watchers[0]!, videoId);
    const pokes = await Promise.all(streams.map(async (s) => pokeOf(await s.nextEvent('poke'))));
    for (const [i, poke] of pokes.entries()) {
      const row = poke.delta?.videos.find((v) => v.id === videoId);
      expect(row?.likes_count).toBe(1);
      // The personal part is still each member's own.
      expect(row?.liked_by_me).toBe(i === 0);
    }
    expect(sharedB.reads - beforeB).toBe(1);
    // A holds no stream: it reads nothing for the change it made.
    expect(sharedA.reads - beforeA).toBe(0);
    for (const s of streams) s.close();
  });

  it('after its LISTEN connection is killed, B reconnects, gives its streams a full poke, and later pokes flow again', async () => {
    const watcher = await createUser(a.deps, { name: 'Patient' });
    const stream = await openStream(b.url, watcher);
    await stream.nextEvent('ready');
    // A change nobody is poked about: what a NOTIFY sent while B was not listening would have said.
    const missed = await insertVideo({ ...a.deps, pokes: { notify: () => {}, subscribe: () => () => {} } }, owner.id, { title: 'Missed while down' });

    expect(await terminateConnections(cluster.databaseUrl, `vidi-pokes-${b.pokes.instanceId}`)).toBe(1);
    const full = pokeOf(await stream.nextEvent('poke'));
    expect(full.scopes).toEqual([FULL_POKE_SCOPE]);
    expect(full.delta?.videos.map((v) => v.id)).toContain(missed);
    expect(b.pokes.listening()).toBe(true);

    const liker = await createUser(a.deps, { name: 'Later' });
    await like(a, liker, missed);
    const later = pokeOf(await stream.nextEvent('poke'));
    expect(later.scopes).toContain(`video:${missed}`);
    expect(later.delta?.videos.find((v) => v.id === missed)?.likes_count).toBe(1);
    stream.close();
  });

  it('a poke of B reaches A too (both directions), and neither instance hears its own poke twice', async () => {
    const videoId = await insertVideo(a.deps, owner.id);
    const [onA, onB, liker] = await Promise.all([createUser(a.deps), createUser(a.deps), createUser(a.deps)]);
    const heardOnB: string[][] = [];
    const unsubscribe = b.deps.pokes.subscribe((scopes) => heardOnB.push(scopes));
    const streamA = await openStream(a.url, onA);
    const streamB = await openStream(b.url, onB);
    await Promise.all([streamA.nextEvent('ready'), streamB.nextEvent('ready')]);

    await like(b, liker, videoId);
    expect(pokeOf(await streamA.nextEvent('poke')).delta?.videos.find((v) => v.id === videoId)?.likes_count).toBe(1);
    expect(pokeOf(await streamB.nextEvent('poke')).delta?.videos.find((v) => v.id === videoId)?.likes_count).toBe(1);
    // Its own NOTIFY comes back to B's LISTEN connection: give it time to arrive, then count.
    await new Promise((r) => setTimeout(r, 300));
    expect(heardOnB.filter((s) => s.includes(`video:${videoId}`))).toHaveLength(1);
    unsubscribe();
    streamA.close();
    streamB.close();
  });

  it('a media worker’s pokes (send only) reach B, and it opens no LISTEN connection', async () => {
    const videoId = randomUUID();
    const heardOnB: string[][] = [];
    const unsubscribe = b.deps.pokes.subscribe((scopes) => heardOnB.push(scopes));
    const engine = b.deps.engine;
    if (engine.dialect !== 'postgres') throw new Error('the postgres project runs this');
    const worker = createSharedPokes({ url: cluster.databaseUrl, pool: engine.pool, log: b.deps.log, listen: false });
    try {
      const named = `vidi-pokes-${worker.instanceId}`;
      const listeners = await onOwnConnection<{ n: string }>(cluster.databaseUrl, 'SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [
        named,
      ]);
      expect(Number(listeners[0]?.n)).toBe(0);
      expect(worker.listening()).toBe(false);
      worker.notify([`video:${videoId}`]);
      await vi.waitFor(() => expect(heardOnB).toContainEqual([`video:${videoId}`]));
    } finally {
      unsubscribe();
      await worker.close();
    }
  });
});
