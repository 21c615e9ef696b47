import type { Kysely, Selectable } from 'kysely';
import type { Database } from '#db/schema';
import type { AnyEntity, RowOf, Table } from '#sync/entities/define-entity';
import { entities, likes, notifications, videos, type Entities, type EntityName } from '#sync/entities/registry';
import type { MutationTx } from '#sync/mutations/mutation-tx';
import { settleScores } from '#server/rewards/score-events';
import { deleteVideoInTx } from '#server/videos/delete-video';
import { deleteMediaFiles } from '#server/media/storage';
import type { ServerMutationContext } from './context';

type Row = Record<string, unknown>;
type Ops = Table<AnyEntity>;

/**
 * Every entity's row is its table's columns of the same names (a compile error here names the one
 * that drifted from db/tables/*.ts): the generic adapter below addresses tables by name.
 */
type Drifted = {
  [N in EntityName]: keyof RowOf<Entities[N]> extends keyof Selectable<Database[N]>
    ? Required<RowOf<Entities[N]>> extends Pick<Selectable<Database[N]>, keyof RowOf<Entities[N]> & keyof Selectable<Database[N]>>
      ? never
      : N
    : N;
}[EntityName];
const rowsMatchTheSchema: [Drifted] extends [never] ? true : Drifted = true;
void rowsMatchTheSchema;

const whereAll = (where: Row) => Object.entries(where).map(([c, v]) => (v === null ? ([c, 'is', null] as const) : ([c, '=', v] as const)));

/**
 * The Kysely adapter of one entity: every write stamps the server's time, declares its change as the
 * entity's declaration says (the change-log row and who it reaches) for each row it really changed,
 * and answers whether it changed one. `ctx` is read at call time (one per mutation of the push).
 */
export function serverTable(ctx: () => ServerMutationContext, e: AnyEntity): Ops {
  // The table is named by the registry; its columns are checked against the schema above.
  const db = () => ctx().trx as unknown as Kysely<Record<string, Row>>;
  const keyOf = (row: Row) => Object.fromEntries(e.key.map((k: string) => [k, row[k]]));
  const declare = (rows: Row[], deleted = false) => {
    for (const row of rows) ctx().changes.row(e, row, { deleted });
    return rows.length > 0;
  };
  const stamped = (row: Row) => (e.stamps?.insert ? { ...row, [e.stamps.insert]: ctx().now } : row);
  const filter = <Q extends { where: (...a: never[]) => Q }>(q: Q, where: Row): Q =>
    whereAll(where).reduce((acc, [c, op, v]) => (acc.where as (c: string, op: string, v: unknown) => Q)(c, op, v), q);
  return {
    get: (key) => filter(db().selectFrom(e.table).select(e.columns), key).executeTakeFirst(),
    insert: async (row) => {
      const full = stamped(row);
      const r = await db()
        .insertInto(e.table)
        .values(full)
        .onConflict((oc) => oc.columns(e.key).doNothing())
        .executeTakeFirst();
      return declare(Number(r.numInsertedOrUpdatedRows ?? 0n) > 0 ? [full] : []);
    },
    upsert: async (row) => {
      const full = stamped(row);
      await db()
        .insertInto(e.table)
        .values(full)
        .onConflict((oc) => oc.columns(e.key).doUpdateSet(full))
        .execute();
      declare([full]);
    },
    delete: async (key) => declare(await filter(db().deleteFrom(e.table), keyOf(key)).returning(e.columns).execute(), true),
    update: async (where, patch) => {
      const set = { ...patch, ...(e.stamps?.update ? { [e.stamps.update]: ctx().now } : {}), ...updateAlso[e.table] };
      return declare(await filter(db().updateTable(e.table).set(set), where).returning(e.columns).execute());
    },
    exists: async (where) => (await filter(db().selectFrom(e.table).select(e.key), where).limit(1).executeTakeFirst()) !== undefined,
    // An increment, not a write of a value read earlier: concurrent ones add up.
    increment: async (key, counter, by) => {
      const q = filter(
        db()
          .updateTable(e.table)
          .set((eb) => ({ [counter]: eb(eb.ref(counter), '+', by) })),
        keyOf(key),
      );
      if (e.countersChange) declare(await q.returning(e.columns).execute());
      else await q.execute();
    },
  };
}

/** Columns only the server keeps, set with every update of the entity. */
const updateAlso: Record<string, Row> = {
  // Read already: a like's batched push still waiting would tell of something seen (a new like reopens it).
  [notifications.table]: { push_due_at: null },
};

/**
 * The like fast path, an explicit override of the generic adapter: likes are most of what a feed
 * pushes, so their reads and writes go through the engine's hot statements (push-statements.ts:
 * SQLite's prepared statements; PostgreSQL's per-push cache and its writes deferred to the push's end).
 */
function likeFastPath(ctx: () => ServerMutationContext, generic: Ops): Ops {
  const s = () => ctx().batch.statements;
  const declare = (row: Row, changed: boolean, deleted = false) => {
    if (changed) ctx().changes.row(likes as AnyEntity, row, { deleted });
    return changed;
  };
  return {
    ...generic,
    get: async (k) => {
      const like = await s().like(k.video_id as string, k.user_id as string);
      return like && { ...k, created_at: like.created_at };
    },
    insert: async (row: Row) => declare(row, await s().insertLike(row.video_id as string, row.user_id as string, ctx().now)),
    delete: async (k) => declare(k, await s().deleteLike(k.video_id as string, k.user_id as string), true),
  };
}

/**
 * The video's overrides: its reads go through the hot statements (PostgreSQL's per-push cache and
 * lock order), `likes_count` moves with the like fast path, and a deletion takes everything that
 * hangs off the video (its comments, likes and views, its points, its files once committed).
 */
function videoOverrides(ctx: () => ServerMutationContext, generic: Ops): Ops {
  return {
    ...generic,
    get: (k) => ctx().batch.statements.video(k.id as string),
    // A push may pin twice on one video: its next read must see the first pin (PostgreSQL caches the push's videos).
    update: async (where, patch) => {
      const changed = await generic.update(where, patch);
      if (changed) ctx().batch.statements.videoUpdated(where.id as string, patch);
      return changed;
    },
    increment: (k, counter, by) => (counter === 'likes_count' ? ctx().batch.statements.bumpLikes(by, k.id as string) : generic.increment(k, counter, by)),
    delete: async (k) => {
      const { trx, changes, media, batch } = ctx();
      // The deletion takes points off from the scores rows: the push's buffered ones must be there.
      await settleScores(trx, batch.scores);
      const gone = await deleteVideoInTx(trx, changes, k.id as string);
      batch.statements.forgetVideo(k.id as string);
      // Files are not transactional: they go once the deletion committed.
      if (gone) changes.afterCommit(() => deleteMediaFiles(media, gone.fileKeys));
      return gone !== undefined && gone !== null;
    },
  };
}

const overrides: Partial<Record<string, (ctx: () => ServerMutationContext, generic: Ops) => Ops>> = {
  [likes.table]: likeFastPath,
  [videos.table]: videoOverrides,
};

/** The authoritative tables of one push: `ctx` is replaced for each of its mutations (the tables read it at call time). */
export type ServerMutationTx = MutationTx & { ctx: ServerMutationContext };

export function serverMutationTx(first: ServerMutationContext, registry: Record<string, AnyEntity> = entities): ServerMutationTx {
  const tx = {
    ctx: first,
    location: 'server' as const,
    get userId() {
      return tx.ctx.user.id;
    },
    get now() {
      return tx.ctx.now;
    },
    isAdmin: async () => tx.ctx.user.isAdmin,
  };
  const ctx = () => tx.ctx;
  // Each table's adapter is made when the push first uses it: making all of them (a score of
  // closures each) was a tenth of a small push's CPU under the mixed load (docs/benchmarks.md).
  for (const [name, e] of Object.entries(registry)) {
    Object.defineProperty(tx, name, {
      configurable: true,
      enumerable: true,
      get() {
        const generic = serverTable(ctx, e);
        const table = overrides[e.table]?.(ctx, generic) ?? generic;
        Object.defineProperty(tx, name, { value: table, enumerable: true });
        return table;
      },
    });
  }
  return tx as unknown as ServerMutationTx;
}
