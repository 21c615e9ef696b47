import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kyselySink, writeTx } from '#server/changes/write-tx';
import { Changes } from '#server/changes/changes';
import { processPull } from '#server/sync/pull';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// The late commit (docs/sync.md, "Concurrency on PostgreSQL"): a change-log seq is drawn when its
// row is inserted but seen at the commit. If T1 draws seq 1, T2 draws seq 2 and commits, and a pull
// answers cursor 2 before T1 commits, no later pull ever returns seq 1. Change-log rows are written
// last, under a lock held to the commit: seqs are drawn in commit order.
describe('a transaction that commits late is not skipped by the pull cursor', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ MEDIA_WORKER: 'off', PUSH_RATE_BURST: '1000' });
    alice = await createUser(t.deps, { name: 'Alice' });
    bob = await createUser(t.deps, { name: 'Bob' });
    carol = await createUser(t.deps, { name: 'Carol' });
    dave = await createUser(t.deps, { name: 'Dave' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const asUser = (u: TestUser) => ({ id: u.id, email: u.email, name: u.name, isAdmin: false });
  const pull = (cursor: string) => processPull(t.deps, asUser(alice), { cursor, open_videos: [], load_comments: [] });
  const videoIds = (r: { videos: Array<{ id: string }> }) => r.videos.map((v) => v.id);

  /** Resolves once some session of the database waits for a lock (T1 is parked where the test wants it). */
  async function someoneWaits(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_locks WHERE NOT granted`.execute(t.deps.db);
      if (Number(rows[0]?.n) > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no session ever waited for a lock');
  }

  it('writeTx: T2 cannot draw its seq while T1, whose rows are written, is still open', async () => {
    const v1 = await insertVideo(t.deps, carol.id);
    const v2 = await insertVideo(t.deps, dave.id);
    const start = (await pull('0')).cursor;

    let commitT1!: () => void;
    const t1Parked = new Promise<void>((parked) => {
      // T1 as writeTx runs it, stopped between its change-log insert (its last write) and its commit.
      const t1 = t.deps.db.transaction().execute(async (trx) => {
        await new Changes(t.deps.now()).video(v1).flush(kyselySink(trx));
        parked();
        await new Promise<void>((resolve) => (commitT1 = resolve));
      });
      void t1.then(() => undefined);
    });
    await t1Parked;
    // T2 changes another video and commits (or waits for T1: it may not draw a seq before T1 commits).
    let t2Done = false;
    const t2 = writeTx(t.deps, async (_trx, changes) => void changes.video(v2)).then(() => (t2Done = true));
    await new Promise((r) => setTimeout(r, 200));

    const during = await pull(start);
    commitT1();
    await t2;
    expect(t2Done).toBe(true);
    const after = await pull(during.cursor);
    // Whatever the pull answered while T1 was open, T1's change is at or before what the next pull reads.
    expect([...videoIds(during), ...videoIds(after)]).toContain(v1);
    expect([...videoIds(during), ...videoIds(after)]).toContain(v2);
  });

  it('a push whose first mutation waits behind a lock does not lose its change to a push that commits first', async () => {
    const vA = await insertVideo(t.deps, carol.id);
    const vB = await insertVideo(t.deps, carol.id);
    const vC = await insertVideo(t.deps, dave.id);
    const start = (await pull('0')).cursor;

    // Another session holds vB: Alice's push likes vA, then waits on vB with its transaction open.
    const blocker = await t.deps.db.startTransaction().execute();
    await sql`SELECT id FROM videos WHERE id = ${vB} FOR UPDATE`.execute(blocker);
    const like = (id: number, videoId: string) => ({ id, name: 'like', args: { videoId } });
    const t1 = call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [like(1, vA), like(2, vB)] }, alice.token);
    await someoneWaits();

    // Bob's push commits while Alice's is open; a pull answers a cursor past it.
    const t2 = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [like(1, vC)] }, bob.token);
    expect(t2.json.results).toEqual([{ id: 1, status: 'applied' }]);
    const during = await pull(start);
    expect(videoIds(during)).toContain(vC);

    await blocker.commit().execute();
    expect((await t1).json.results).toEqual([
      { id: 1, status: 'applied' },
      { id: 2, status: 'applied' },
    ]);
    // From the cursor the pull gave while Alice's push was open, her likes are still ahead.
    const after = await pull(during.cursor);
    expect(videoIds(after)).toEqual(expect.arrayContaining([vA, vB]));
  });
});
