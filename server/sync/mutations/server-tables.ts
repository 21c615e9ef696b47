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

/** Adds `where`'s columns to `q`, `is null` for a null. */
function filtered<Q extends { where: (...a: never[]) => Q }>(q: Q, where: Row): Q {
  let out = q;
  for (const [c, v] of Object.entries(where)) out = (out.where as (c: string, op: string, v: unknown) => Q)(c, v === null ? 'is' : '=', v);
  return out;
}

/** Where a push's tables read its context at call time (one per mutation of the push). */
type TxSelf = { ctx: ServerMutationContext; tables?: Record<string, Ops> };

// The adapters are classes, their methods made once: a push made each adapter's dozen closures
// afresh, and under tsx (whose every named function is wrapped to keep its name) that was ~4 us a
// table, ~30 us a push of likes with the getters below (docs/benchmarks.md, "Mixed load").

/**
 * The Kysely adapter of one entity: every write stamps the server's time, declares its change as the
 * entity's declaration says (the change-log row and who it reaches) for each row it really changed,
 * and answers whether it changed one.
 */
class ServerTable implements Ops {
  constructor(
    protected readonly tx: TxSelf,
    protected readonly e: AnyEntity,
  ) {}

  protected get ctx(): ServerMutationContext {
    return this.tx.ctx;
  }

  // The table is named by the registry; its columns are checked against the schema above.
  private get db() {
    return this.ctx.trx as unknown as Kysely<Record<string, Row>>;
  }

  private keyOf(row: Row): Row {
    const key: Row = {};
    for (const k of this.e.key as string[]) key[k] = row[k];
    return key;
  }

  protected declare(rows: Row[], deleted = false): boolean {
    const { changes } = this.ctx;
    for (const row of rows) changes.row(this.e, row, { deleted });
    return rows.length > 0;
  }

  private stamped(row: Row): Row {
    const at = this.e.stamps?.insert;
    return at ? { ...row, [at]: this.ctx.now } : row;
  }

  get(key: Row) {
    return filtered(this.db.selectFrom(this.e.table).select(this.e.columns), key).executeTakeFirst() as ReturnType<Ops['get']>;
  }

  async insert(row: Row) {
    const full = this.stamped(row);
    const r = await this.db
      .insertInto(this.e.table)
      .values(full)
      .onConflict((oc) => oc.columns(this.e.key).doNothing())
      .executeTakeFirst();
    return this.declare(Number(r.numInsertedOrUpdatedRows ?? 0n) > 0 ? [full] : []);
  }

  async upsert(row: Row) {
    const full = this.stamped(row);
    await this.db
      .insertInto(this.e.table)
      .values(full)
      .onConflict((oc) => oc.columns(this.e.key).doUpdateSet(full))
      .execute();
    this.declare([full]);
  }

  async delete(key: Row) {
    return this.declare(await filtered(this.db.deleteFrom(this.e.table), this.keyOf(key)).returning(this.e.columns).execute(), true);
  }

  async update(where: Row, patch: Row) {
    const at = this.e.stamps?.update;
    const set = { ...patch, ...(at ? { [at]: this.ctx.now } : {}), ...updateAlso[this.e.table] };
    return this.declare(await filtered(this.db.updateTable(this.e.table).set(set), where).returning(this.e.columns).execute());
  }

  async exists(where: Row) {
    return (await filtered(this.db.selectFrom(this.e.table).select(this.e.key), where).limit(1).executeTakeFirst()) !== undefined;
  }

  // An increment, not a write of a value read earlier: concurrent ones add up.
  async increment(key: Row, counter: string, by: 1 | -1) {
    const q = filtered(
      this.db.updateTable(this.e.table).set((eb) => ({ [counter]: eb(eb.ref(counter), '+', by) })),
      this.keyOf(key),
    );
    if (this.e.countersChange) this.declare(await q.returning(this.e.columns).execute());
    else await q.execute();
  }
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
class LikeTable extends ServerTable {
  private mark(row: Row, changed: boolean, deleted = false): boolean {
    if (changed) this.ctx.changes.row(likes as AnyEntity, row, { deleted });
    return changed;
  }

  override async get(k: Row) {
    const like = await this.ctx.batch.statements.like(k.video_id as string, k.user_id as string);
    return (like && { ...k, created_at: like.created_at }) as Awaited<ReturnType<Ops['get']>>;
  }

  override async insert(row: Row) {
    return this.mark(row, await this.ctx.batch.statements.insertLike(row.video_id as string, row.user_id as string, this.ctx.now));
  }

  override async delete(k: Row) {
    return this.mark(k, await this.ctx.batch.statements.deleteLike(k.video_id as string, k.user_id as string), true);
  }
}

/**
 * The video's overrides: its reads go through the hot statements (PostgreSQL's per-push cache and
 * lock order), `likes_count` moves with the like fast path, and a deletion takes everything that
 * hangs off the video (its comments, likes and views, its points, its files once committed).
 */
class VideoTable extends ServerTable {
  override get(k: Row) {
    return this.ctx.batch.statements.video(k.id as string) as ReturnType<Ops['get']>;
  }

  // A push may pin twice on one video: its next read must see the first pin (PostgreSQL caches the push's videos).
  override async update(where: Row, patch: Row) {
    const changed = await super.update(where, patch);
    if (changed) this.ctx.batch.statements.videoUpdated(where.id as string, patch);
    return changed;
  }

  override increment(k: Row, counter: string, by: 1 | -1) {
    return counter === 'likes_count' ? this.ctx.batch.statements.bumpLikes(by, k.id as string) : super.increment(k, counter, by);
  }

  override async delete(k: Row) {
    const { trx, changes, media, batch } = this.ctx;
    // The deletion takes points off from the scores rows: the push's buffered ones must be there.
    await settleScores(trx, batch.scores);
    const gone = await deleteVideoInTx(trx, changes, k.id as string);
    batch.statements.forgetVideo(k.id as string);
    // Files are not transactional: they go once the deletion committed.
    if (gone) changes.afterCommit(() => deleteMediaFiles(media, gone.fileKeys));
    return gone !== undefined && gone !== null;
  }
}

const tableClasses: Partial<Record<string, typeof ServerTable>> = {
  [likes.table]: LikeTable,
  [videos.table]: VideoTable,
};

/** The authoritative tables of one push: `ctx` is replaced for each of its mutations (the tables read it at call time). */
export type ServerMutationTx = MutationTx & { ctx: ServerMutationContext };

export function serverMutationTx(first: ServerMutationContext, registry: Record<string, AnyEntity> = entities): ServerMutationTx {
  const tx = Object.create(txPrototype(registry)) as ServerMutationTx & TxSelf;
  tx.ctx = first;
  return tx;
}

const prototypes = new WeakMap<Record<string, AnyEntity>, object>();

/** What every push's object shares, made once per registry: each table is made when the push first uses it. */
function txPrototype(registry: Record<string, AnyEntity>): object {
  let proto = prototypes.get(registry);
  if (proto) return proto;
  proto = {
    location: 'server' as const,
    get userId() {
      return (this as TxSelf).ctx.user.id;
    },
    get now() {
      return (this as TxSelf).ctx.now;
    },
    isAdmin(this: TxSelf) {
      return Promise.resolve(this.ctx.user.isAdmin);
    },
  };
  for (const [name, e] of Object.entries(registry)) {
    Object.defineProperty(proto, name, {
      enumerable: true,
      get(this: TxSelf) {
        const made = (this.tables ??= {});
        return (made[name] ??= new (tableClasses[e.table] ?? ServerTable)(this, e));
      },
    });
  }
  prototypes.set(registry, proto);
  return proto;
}
