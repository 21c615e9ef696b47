import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/schema';
import { Changes } from '#server/changes/changes';
import { newPushBatch } from '#server/sync/push';
import { serverMutationTx } from '#server/sync/mutations/server-tables';
import { runServerMutation } from '#server/sync/mutations/effects';
import type { AnyMutation } from '#sync/mutations/catalogue';
import { MutationError } from '#sync/protocol/error-codes';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// A mutation reads, then writes. Two transactions that both read before either wrote must not both
// move the counter: the counter follows the row that really changed (docs/sync.md, "Concurrency on
// PostgreSQL"). Pushes also serialize a member's transactions and lock their rows first; these run
// the mutations bare, on two connections, to show the counters are right without those locks.
describe('counters move only when a row really changed', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ MEDIA_WORKER: 'off' });
    alice = await createUser(t.deps, { name: 'Alice' });
    bob = await createUser(t.deps, { name: 'Bob' });
    carol = await createUser(t.deps, { name: 'Carol' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One mutation in a transaction of its own; resolves to 'refused' on a refusal. */
  async function mutate(trx: Transaction<Database>, actor: TestUser, mutation: AnyMutation): Promise<'done' | 'refused'> {
    const changes = new Changes(t.deps.now());
    const user = { id: actor.id, email: actor.email, name: actor.name, isAdmin: false };
    const tx = serverMutationTx({
      trx,
      user,
      now: changes.now,
      clientTime: undefined,
      batch: newPushBatch(t.deps.engine, trx),
      changes,
      media: t.deps.media,
    });
    try {
      await runServerMutation(tx, mutation);
      return 'done';
    } catch (err) {
      if (err instanceof MutationError) return 'refused';
      throw err;
    }
  }

  /**
   * T1 runs `first` and stays open; T2 runs `second`, reads what T1 has not committed yet and waits
   * on T1's row; then T1 commits and T2 finishes. Returns both outcomes.
   */
  async function race(first: [TestUser, AnyMutation], second: [TestUser, AnyMutation]) {
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let ranFirst!: () => void;
    const firstRan = new Promise<void>((resolve) => (ranFirst = resolve));
    const t1 = t.deps.db.transaction().execute(async (trx) => {
      const outcome = await mutate(trx, ...first);
      ranFirst();
      await held;
      return outcome;
    });
    await firstRan;
    const t2 = t.deps.db.transaction().execute((trx) => mutate(trx, ...second));
    await waitingForALock();
    commit();
    return Promise.all([t1, t2]);
  }

  async function waitingForALock(): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_locks WHERE NOT granted`.execute(t.deps.db);
      if (Number(rows[0]?.n) > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the second transaction never waited for the first');
  }

  const video = (id: string) => t.deps.db.selectFrom('videos').select(['likes_count', 'comments_count']).where('id', '=', id).executeTakeFirstOrThrow();
  const likes = async (id: string) => (await t.deps.db.selectFrom('likes').select('user_id').where('video_id', '=', id).execute()).length;

  it('two unlikes of one like at once take the counter down once', async () => {
    const videoId = await insertVideo(t.deps, carol.id);
    await t.deps.db.transaction().execute((trx) => mutate(trx, alice, { name: 'like', args: { videoId } }));
    expect(await video(videoId)).toMatchObject({ likes_count: 1 });

    const unlike: AnyMutation = { name: 'unlike', args: { videoId } };
    expect(await race([alice, unlike], [alice, unlike])).toEqual(['done', 'done']);
    expect(await likes(videoId)).toBe(0);
    expect(await video(videoId)).toMatchObject({ likes_count: 0 });
  });

  it('two likes at once add one like and count it once', async () => {
    const videoId = await insertVideo(t.deps, carol.id);
    const like: AnyMutation = { name: 'like', args: { videoId } };
    expect(await race([alice, like], [alice, like])).toEqual(['done', 'done']);
    expect(await likes(videoId)).toBe(1);
    expect(await video(videoId)).toMatchObject({ likes_count: 1 });
  });

  it('one comment id sent by two members at once: one comment, counted once, the other refused', async () => {
    const videoId = await insertVideo(t.deps, carol.id);
    const commentId = randomUUID();
    const comment: AnyMutation = { name: 'addComment', args: { commentId, videoId, content: 'first!' } };
    expect(await race([alice, comment], [bob, comment])).toEqual(['done', 'refused']);
    expect(await video(videoId)).toMatchObject({ comments_count: 1 });
  });
});
