import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recomputeScores, standingsOf } from '#server/rewards/recompute';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// A push buffers its leaderboard points and writes them once at its end, on both engines
// (server/rewards/score-events.ts, ScoreMemo.pending). What a push applies must count exactly, and
// what it does not apply must not: a mutation that fails after its points were buffered (on SQLite
// it is rolled back to its savepoint, on PostgreSQL the push runs again without it), and one that
// fails after it wrote the buffer of the mutations before it. The faults are a database trigger.

let t: TestApp;
beforeAll(async () => void (t = await createTestApp({ MEDIA_WORKER: 'off', PUSH_RATE_BURST: '100000' })));
afterAll(() => t?.close());

type Result = { id: number; status: string };
async function push(user: TestUser, mutations: Array<{ name: string; args: Record<string, unknown> }>) {
  const body = { client_id: randomUUID(), mutations: mutations.map((m, i) => ({ id: i + 1, ...m })) };
  const res = await call(t.app, 'POST', '/api/sync/push', body, user.token);
  expect(res.status).toBe(200);
  return res.json as { results: Result[]; last_mutation_id: number };
}
const people = (...names: string[]) => Promise.all(names.map((name) => createUser(t.deps, { name })));
/** [creator, viewer] points of each member, as the maintained rows say; and the same rows recomputed from scratch must agree. */
async function pointsOf(...users: TestUser[]): Promise<Array<[number, number]>> {
  const rows = await t.deps.db.selectFrom('scores').selectAll().execute();
  expect(standingsOf(rows.map((r) => ({ ...r })))).toEqual(standingsOf(await recomputeScores(t.deps.db)));
  return users.map((u) => rows.find((r) => r.user_id === u.id)).map((r) => [Number(r?.creator_points ?? 0), Number(r?.viewer_points ?? 0)]);
}

/** Makes the database refuse an insert into `table` whose `column` is `value`, until removed. */
async function faultOn(table: 'notifications' | 'audit_log', column: string, value: string): Promise<() => Promise<void>> {
  const db = t.deps.db;
  if (t.deps.engine.dialect === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER injected_fault BEFORE INSERT ON ${table} WHEN NEW.${column} = '${value}' BEGIN SELECT RAISE(ABORT, 'injected fault'); END`)
      .execute(db);
    return async () => void (await sql`DROP TRIGGER injected_fault`.execute(db));
  }
  await sql`CREATE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`.execute(db);
  await sql
    .raw(`CREATE TRIGGER injected_fault BEFORE INSERT ON ${table} FOR EACH ROW WHEN (NEW.${column} = '${value}') EXECUTE FUNCTION injected_fault()`)
    .execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER injected_fault ON ${table}`).execute(db);
    await sql`DROP FUNCTION injected_fault()`.execute(db);
  };
}

describe('a push writes its points once, at its end', () => {
  it('likes, unlikes, a like again, comments and a comment deleted in one push count as they would one by one', async () => {
    const [ann, o1, o2] = await people('Ann', 'Owner One', 'Owner Two');
    const [v1, v2, v3] = [await insertVideo(t.deps, o1!.id), await insertVideo(t.deps, o2!.id), await insertVideo(t.deps, o2!.id)];
    const [c1, c2] = [randomUUID(), randomUUID()];
    const r = await push(ann!, [
      { name: 'like', args: { videoId: v1 } },
      { name: 'like', args: { videoId: v2 } },
      { name: 'unlike', args: { videoId: v1 } },
      { name: 'like', args: { videoId: v1 } },
      { name: 'addComment', args: { commentId: c1, videoId: v3, content: 'first' } },
      { name: 'addComment', args: { commentId: c2, videoId: v2, content: 'second' } },
      // Reads the scores rows (the pair's removal): the buffer so far is written first.
      { name: 'deleteComment', args: { commentId: c1 } },
      { name: 'unlike', args: { videoId: v2 } },
    ]);
    expect(r.results.map((x) => x.status)).toEqual(Array(8).fill('applied'));
    // Left: the like of v1 and the comment pair on v2.
    expect(await pointsOf(ann!, o1!, o2!)).toEqual([
      [0, 2],
      [1, 0],
      [1, 0],
    ]);
  });

  it('a mutation that fails after its points were buffered moves none, and the ones before it count', async () => {
    const [bob, o1, o2, o3] = await people('Bob', 'Owner A', 'Owner B', 'Owner C');
    const videos = [await insertVideo(t.deps, o1!.id), await insertVideo(t.deps, o2!.id), await insertVideo(t.deps, o3!.id)];
    const commentId = randomUUID();
    // The comment's pair is buffered, then its owner's notification fails.
    const heal = await faultOn('notifications', 'comment_id', commentId);
    let r;
    try {
      r = await push(bob!, [
        { name: 'like', args: { videoId: videos[0] } },
        { name: 'like', args: { videoId: videos[1] } },
        { name: 'addComment', args: { commentId, videoId: videos[2], content: 'fails' } },
        { name: 'like', args: { videoId: videos[2] } },
      ]);
    } finally {
      await heal();
    }
    expect(r.results).toEqual([
      { id: 1, status: 'applied' },
      { id: 2, status: 'applied' },
    ]);
    expect(r.last_mutation_id).toBe(2);
    expect(await t.deps.db.selectFrom('comments').select('id').where('id', '=', commentId).executeTakeFirst()).toBeUndefined();
    expect(await pointsOf(bob!, o3!)).toEqual([
      [0, 2],
      [0, 0],
    ]);
  });

  it('a mutation that fails after it wrote the buffer of the ones before it leaves their points in place', async () => {
    const [cat, owner] = await people('Cat', 'Owner D');
    const admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
    const [v1, v2] = [await insertVideo(t.deps, owner!.id), await insertVideo(t.deps, owner!.id)];
    const commentId = randomUUID();
    expect((await push(cat!, [{ name: 'addComment', args: { commentId, videoId: v1, content: 'stays' } }])).results[0]!.status).toBe('applied');
    // An admin's deletion of Cat's comment settles the buffer (the admin's like of v2), then its audit fails.
    const heal = await faultOn('audit_log', 'target', commentId);
    let r;
    try {
      r = await push(admin, [
        { name: 'like', args: { videoId: v2 } },
        { name: 'deleteComment', args: { commentId } },
      ]);
    } finally {
      await heal();
    }
    expect(r.results).toEqual([{ id: 1, status: 'applied' }]);
    expect(await t.deps.db.selectFrom('comments').select('deleted').where('id', '=', commentId).executeTakeFirstOrThrow()).toEqual({ deleted: 0 });
    expect(await pointsOf(admin, owner!)).toEqual([
      [0, 1],
      [2, 0],
    ]);
  });
});
