// Zod-free: the client replays queued mutations (and so reads these declarations) on its first screen.

/**
 * Who receives a change of one row (docs/sync.md, "Entities"): the change-log entry a pull folds
 * and the poke scope a live stream filters by. `reaches` is `video:<id>` (whoever shows that
 * video), `feed` (every member), or `user:<id>` (that member's devices only).
 */
export interface EntityChange {
  entityId: string;
  videoId?: string | null;
  userId?: string | null;
  reaches: string;
}

/**
 * How the device keeps an entity: in a Dexie store of its own (`store`, its primary key the entity's
 * single key column, `indexes` the store's Dexie schema), folded into another store's row as a flag
 * (a like is the card's `liked_by_me`), or not at all (the server's answer brings the effect).
 */
export type ClientKeeping<R> =
  | {
      kind: 'store';
      store: string;
      /** The Dexie schema of the store and of its `server_` copy (none: no server copy, see `rebase`). */
      indexes: string;
      serverIndexes?: string;
      /** The Dexie version that added the store (db.ts opens the versions in order; a new entity takes the next). */
      since: number;
      /** The entity row a mutation reads, from the stored row (default: the stored row's own columns). */
      read?: (stored: Record<string, unknown>) => R;
      /** A stored row from a new entity row (default: the row as it is). */
      write?: (row: R, local: LocalContext) => Record<string, unknown>;
      /** A stored row's columns for a patch of entity columns (default: the patch as it is). */
      patch?: (patch: Partial<R>) => Record<string, unknown>;
      /** Rows of other stores that go with a deleted row (a video's comments). */
      cascade?: ReadonlyArray<{ store: string; by: string }>;
      /**
       * Rows of other stores that go when a row is written: `by` (a stored column) equal to the new
       * row's `from` (a block takes the blocked member's cached videos, comments and notifications,
       * in the same Dexie transaction). The server's answer then brings what is still to be shown.
       */
      purges?: ReadonlyArray<{ store: string; by: string; from: keyof R & string }>;
      /** A stored row from a row a pull sent (an `own` entity; default: the row as it is). */
      fromServer?: (item: Record<string, unknown>) => Record<string, unknown>;
      /** The device keeps only the newest rows by this index (an `own` entity's long list). */
      newest?: { max: number; by: string };
    }
  | { kind: 'flag'; store: string; key: keyof R & string; flag: string; owner: keyof R & string }
  | { kind: 'none' };

/**
 * What rebase does with the entity's shown rows (client/sync/rebase.ts): reset them from the `server_`
 * copy by `by` (the video id for comments: a comment list is reset whole) before the queue is applied
 * again; `replay` (no server copy: the changes only go one way, the queue is applied again on top of
 * what is shown); `none` (nothing kept on the device).
 */
export type RebaseRule = { reset: string; by: string } | 'replay' | 'none';

/**
 * What a pull does with a change-log entry of the entity (server/sync/pull-changes.ts, the one
 * builder of pulls and live deltas):
 * - `video`: the entry is a video's (its row changed or went): the card is read again or dropped;
 * - `video-counts`: the row moved its video's counters: the card is read again;
 * - `video-list`: a row of a video's list (a comment): the card is read again, and the row itself
 *   by the devices that follow that list;
 * - `author`: a member's shown name or handle changed: their cards and comments are read again;
 * - `own`: a row only its member sees (a notification, a follow): read again for that member and
 *   sent in the pull's field named after its client store (and `deleted_<store>` when it is gone).
 */
export type PullRule = 'video' | 'video-counts' | 'video-list' | 'author' | 'own';

/** What the client's adapter knows besides the row: the action's time and the member's shown name and handle. */
export interface LocalContext {
  now: number;
  userName: string;
  userHandle: string;
}

/**
 * One synced entity, declared once: its row as mutations see it (R), its primary key, the counters
 * a mutation may move, the columns each side stamps with its clock, who receives its changes, and
 * how the device keeps and rebases it. The two table adapters (client/sync/client-tables.ts over
 * Dexie, server/sync/mutations/server-tables.ts over Kysely) read nothing else, and MutationTx's
 * `tx.<table>` is derived from it (mutation-tx.ts), as zbugs derives `tx.mutate.<table>` from its schema.
 */
export interface EntityDef<R, K extends keyof R & string, C extends string = never, S extends keyof R & string = never> {
  /** The server's table, and the name of `tx.<table>`. */
  readonly table: string;
  readonly key: readonly K[];
  /** The columns a mutation reads (`get`), in the server's table. */
  readonly columns: ReadonlyArray<keyof R & string>;
  /** Counters `increment` may move (never a write of a value read earlier). */
  readonly counters?: readonly C[];
  /** An increment declares the row's change (a comment's counts show on its row; a video's card is read again anyway). */
  readonly countersChange?: boolean;
  /** Columns the writing side sets to its clock: on insert, and on every update. */
  readonly stamps?: { insert?: S; update?: string };
  /**
   * The change log's entity its changes are written under (a share or a view is its video's
   * change) and what a pull does with them.
   */
  readonly log: { entity: string; pull: PullRule };
  /** The change a written row declares; null: nobody needs to pull for it. */
  readonly changes: (row: R) => EntityChange | null;
  readonly client: ClientKeeping<R>;
  readonly rebase: RebaseRule;
}

/** Declares an entity: `defineEntity<Row>()({...})` (the row type given, the rest inferred). */
export function defineEntity<R>() {
  return <const K extends keyof R & string, const C extends string = never, const S extends keyof R & string = never>(
    def: EntityDef<R, K, C, S>,
  ): EntityDef<R, K, C, S> => def;
}

export type AnyEntity = EntityDef<any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type RowOf<E> = E extends EntityDef<infer R, infer _K, infer _C, infer _S> ? R : never;
export type KeyOf<E> = E extends EntityDef<infer R, infer K, infer _C, infer _S> ? Pick<R, K> : never;
export type CounterOf<E> = E extends EntityDef<infer _R, infer _K, infer C, infer _S> ? C : never;
/** A new row as a mutation gives it: without the columns the writing side stamps. */
export type NewRowOf<E> = E extends EntityDef<infer R, infer _K, infer _C, infer S> ? Omit<R, S> : never;

/**
 * The generic operations over one entity, the same on both sides. Inserts, deletes and updates may
 * answer `false`: nothing changed (the row was already there, already gone, or did not match), and
 * the mutation moves no counter. The server answers from the rows it really wrote (another
 * transaction may have changed them since the mutation read them); the client answers nothing
 * (its optimistic write always lands, and it holds only the acting member's rows).
 */
export interface Table<E> {
  get(key: KeyOf<E>): Promise<RowOf<E> | undefined>;
  insert(row: NewRowOf<E>): Promise<boolean | void>;
  /** Inserts, or overwrites the row with the same key. */
  upsert(row: NewRowOf<E>): Promise<void>;
  delete(key: KeyOf<E>): Promise<boolean | void>;
  /** Sets `patch` on the row with `where`'s key, if it also has `where`'s other values (on the server). */
  update(where: KeyOf<E> & Partial<RowOf<E>>, patch: Partial<RowOf<E>>): Promise<boolean | void>;
  /** Whether a row has these values. */
  exists(where: Partial<RowOf<E>>): Promise<boolean>;
  increment(key: KeyOf<E>, counter: CounterOf<E>, by: 1 | -1): Promise<void>;
}

/** The key of a row as one string (a Dexie key, a cache key, a change's id). */
export function keyString(entity: AnyEntity, row: Record<string, unknown>): string {
  return entity.key.map((k: string) => String(row[k])).join(':');
}
