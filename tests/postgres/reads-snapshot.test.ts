import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '#server/context';
import { processPull } from '#server/sync/pull';
import { createDeltaSource } from '#server/realtime/poke-deltas';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../helpers/videos';

// A pull and a poke's delta read the change-log head first and the rows after it, in several
// statements. On PostgreSQL each statement of a READ COMMITTED transaction sees the commits made
// before it; a commit landing between the head and the rows would put a row above the cursor in
// the answer (and, for the delta, a change-log row above its own cursor). They read in one
// REPEATABLE READ snapshot instead: here a writer commits exactly after the head was read.

/** Runs `between` once, right after the `nth` statement that the armed read runs. */
class AfterStatement implements KyselyPlugin {
  private between: (() => Promise<void>) | null = null;
  private left = 0;
  arm(between: () => Promise<void>, nth = 1): void {
    this.between = between;
    this.left = nth;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const between = this.between;
    if (between && --this.left === 0) {
      this.between = null;
      await between();
    }
    return args.result;
  }
}

describe('reads that answer with a cursor see one snapshot', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const plugin = new AfterStatement();
  let deps: AppDeps;

  beforeAll(async () => {
    t = await createTestApp({ MEDIA_WORKER: 'off' });
    alice = await createUser(t.deps, { name: 'Alice' });
    bob = await createUser(t.deps, { name: 'Bob' });
    deps = { ...t.deps, db: t.deps.db.withPlugin(plugin) };
  });
  afterAll(async () => {
    await t?.close();
  });

  const asUser = (u: TestUser) => ({ id: u.id, email: u.email, name: u.name, isAdmin: false });
  const head = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('change_log')
          .select((eb) => eb.fn.max('seq').as('s'))
          .executeTakeFirstOrThrow()
      ).s ?? 0,
    );

  /** A new video and its change-log row, committed on another connection (through the plain t.deps.db). */
  const commitVideo = async (ids: string[]) => {
    await t.deps.db.transaction().execute(async (trx) => {
      const id = await insertVideo({ db: trx, now: t.deps.now }, bob.id);
      await trx
        .insertInto('change_log')
        .values({ entity: 'video', entity_id: id, video_id: id, user_id: bob.id, deleted: 0, created_at: t.deps.now() })
        .execute();
      ids.push(id);
    });
  };

  it('a pull answers the rows of its cursor, not a commit that landed after the cursor was read', async () => {
    const first = await insertVideo(t.deps, bob.id);
    const before = await head();
    const late: string[] = [];
    plugin.arm(() => commitVideo(late));
    const snapshot = await processPull(deps, asUser(alice), { cursor: null, open_videos: [], load_comments: [] });
    expect(late).toHaveLength(1);
    expect(snapshot.cursor).toBe(String(before));
    expect(snapshot.videos.map((v) => v.id)).toEqual([first]);
    // The next pull from that cursor brings it.
    const next = await processPull(t.deps, asUser(alice), { cursor: snapshot.cursor, open_videos: [], load_comments: [] });
    expect(next.videos.map((v) => v.id)).toEqual(late);
  });

  it("a poke's delta stops at its cursor, even when a change commits while it reads", async () => {
    const source = createDeltaSource(deps, asUser(alice), null, async () => true);
    await source.opened;
    const seen: string[] = [];
    await commitVideo(seen);
    const at = await head();
    const late: string[] = [];
    // The 1st statement only checks whether the log moved; the 2nd reads the head in the snapshot.
    plugin.arm(() => commitVideo(late), 2);
    const next = await source.next();
    expect(late).toHaveLength(1);
    expect(next.kind).toBe('delta');
    if (next.kind !== 'delta') return;
    expect(next.delta.cursor).toBe(String(at));
    expect(next.delta.videos.map((v) => v.id)).toEqual(seen);
    const after = await source.next();
    expect(after.kind === 'delta' && after.delta.videos.map((v) => v.id)).toEqual(late);
  });
});
