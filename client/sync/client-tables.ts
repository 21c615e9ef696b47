import type { Dexie } from 'dexie';
import { keyString, type AnyEntity, type LocalContext, type Table } from '#sync/entities/define-entity';
import { entities, profiles } from '#sync/entities/registry';
import type { MutationTx } from '#sync/mutations/mutation-tx';

type Row = Record<string, unknown>;

/**
 * The rows one mutation reads and writes, by store and key: a get then a like costs one IndexedDB
 * round trip, and a counter write is one put of the row instead of a cursor walk. Valid because the
 * whole mutation runs in one read-write transaction: nothing else writes the row meanwhile.
 */
class LocalRows {
  private readonly cache = new Map<string, Promise<Row | undefined>>();

  constructor(private readonly db: Dexie) {}

  get(store: string, key: string): Promise<Row | undefined> {
    const at = `${store}\n${key}`;
    let r = this.cache.get(at);
    if (!r) {
      r = this.db.table(store).get(key) as Promise<Row | undefined>;
      this.cache.set(at, r);
    }
    return r;
  }

  async put(store: string, key: string, row: Row): Promise<void> {
    this.cache.set(`${store}\n${key}`, Promise.resolve(row));
    await this.db.table(store).put(row);
  }

  async delete(store: string, key: string): Promise<void> {
    this.cache.set(`${store}\n${key}`, Promise.resolve(undefined));
    await this.db.table(store).delete(key);
  }

  async deleteWhere(store: string, by: string, value: unknown): Promise<void> {
    for (const at of this.cache.keys()) if (at.startsWith(`${store}\n`)) this.cache.delete(at);
    await this.db
      .table(store)
      .where(by)
      .equals(value as string)
      .delete();
  }

  /** Removes the rows whose `column` is `value` (a walk: for columns the store has no index of). */
  async deleteMatching(store: string, column: string, value: unknown): Promise<void> {
    for (const at of this.cache.keys()) if (at.startsWith(`${store}\n`)) this.cache.delete(at);
    await this.db
      .table(store)
      .filter((r: Row) => r[column] === value)
      .delete();
  }

  /** The first row of a store that `test` accepts (a walk: for a lookup by other columns than the key). */
  async find(store: string, test: (row: Row) => boolean): Promise<Row | undefined> {
    return (await this.db.table(store).filter(test).first()) as Row | undefined;
  }

  async patch(store: string, key: string, change: (row: Row) => Row): Promise<void> {
    const row = await this.get(store, key);
    if (row) await this.put(store, key, { ...row, ...change(row) });
  }
}

const pick = (row: Row, columns: readonly string[]) => Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]]));
const matches = (row: Row, where: Row) => Object.entries(where).every(([c, v]) => row[c] === v);

/**
 * An entity kept in a store of its own. Only the rows this device holds, all of them its member's:
 * an update's `where` picks the row by its key (the server alone checks the other values).
 */
function storeTable(rows: LocalRows, e: AnyEntity & { client: { kind: 'store' } }, local: () => Promise<LocalContext>): Table<AnyEntity> {
  const { store, read, write, patch, cascade = [], purges = [] } = e.client;
  const shown = (stored: Row) => (read ? read(stored) : pick(stored, e.columns));
  const put = async (row: Row) => {
    const l = await local();
    const full = e.stamps?.insert ? { ...row, [e.stamps.insert]: l.now } : row;
    await rows.put(store, keyString(e, full), write ? write(full, l) : full);
    for (const p of purges) await rows.deleteMatching(p.store, p.by, full[p.from]);
  };
  return {
    get: async (key) => {
      const stored = await rows.get(store, keyString(e, key));
      return stored && shown(stored);
    },
    insert: put,
    upsert: put,
    delete: async (key) => {
      const k = keyString(e, key);
      await rows.delete(store, k);
      for (const c of cascade) await rows.deleteWhere(c.store, c.by, k);
    },
    update: (where, changed) => rows.patch(store, keyString(e, where), () => (patch ? patch(changed) : changed)),
    exists: async (where) => {
      const byKey = e.key.every((k: string) => k in where);
      const row = byKey ? await rows.get(store, keyString(e, where)) : await rows.find(store, (r) => matches(shown(r), where));
      return row !== undefined && matches(shown(row), where);
    },
    increment: (key, counter, by) => rows.patch(store, keyString(e, key), (r) => ({ [counter]: Math.max(0, (r[counter] as number) + by) })),
  };
}

/** An entity the device holds as a flag on another store's row, for its own member only (a like: the card's `liked_by_me`). */
function flagTable(rows: LocalRows, e: AnyEntity & { client: { kind: 'flag' } }, userId: string): Table<AnyEntity> {
  const { store, key, flag, owner } = e.client;
  const own = (row: Row) => row[owner] === userId;
  const set = (row: Row, on: boolean) => (own(row) ? rows.patch(store, String(row[key]), () => ({ [flag]: on })) : Promise.resolve());
  const get = async (row: Row) => {
    if (!own(row) || !(await rows.get(store, String(row[key])))?.[flag]) return undefined;
    // The device does not know when: a stamped column reads as 0.
    return e.stamps?.insert ? { ...row, [e.stamps.insert]: 0 } : { ...row };
  };
  return {
    get,
    insert: (row) => set(row, true),
    upsert: (row) => set(row, true),
    delete: (row) => set(row, false),
    update: async () => {},
    exists: async (where) => (await get(where)) !== undefined,
    increment: async () => {},
  };
}

/** An entity the device does not keep: the server's answer brings its effect. */
const notKept: Table<AnyEntity> = {
  get: async () => undefined,
  insert: async () => {},
  upsert: async () => {},
  delete: async () => {},
  update: async () => {},
  exists: async () => false,
  increment: async () => {},
};

/** The Dexie adapter of one entity, as its declaration says the device keeps it. */
function clientTable(rows: LocalRows, e: AnyEntity, userId: string, local: () => Promise<LocalContext>): Table<AnyEntity> {
  const c = e.client;
  if (c.kind === 'store') return storeTable(rows, e as AnyEntity & { client: typeof c }, local);
  if (c.kind === 'flag') return flagTable(rows, e as AnyEntity & { client: typeof c }, userId);
  return notKept;
}

/**
 * The optimistic tables: a mutation runs inside one Dexie read-write transaction on the stores the UI
 * reads (make one per mutation: it caches the rows it read). They only know the rows this device
 * holds; the server's answer replaces all of it on rebase. `registry` is the entities' registry
 * (tests pass one with an entity of their own).
 */
export function clientMutationTx(db: Dexie, userId: string, now: number, registry: Record<string, AnyEntity> = entities): MutationTx {
  const rows = new LocalRows(db);
  const me = () => rows.get((profiles.client as { store: string }).store, userId);
  const local = async (): Promise<LocalContext> => {
    const profile = await me();
    return { now, userName: (profile?.name as string | undefined) ?? '', userHandle: (profile?.handle as string | undefined) ?? '' };
  };
  const tables = Object.fromEntries(Object.entries(registry).map(([name, e]) => [name, clientTable(rows, e, userId, local)]));
  return { location: 'client', userId, now, isAdmin: async () => (await me())?.is_admin === true, ...tables } as unknown as MutationTx;
}
