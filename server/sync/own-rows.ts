import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { entities } from '#sync/entities/registry';
import { readNewestNotifications, readOwnNotifications } from '../notifications/notification-rows';
import { MAX_FOLLOWING } from '#sync/protocol/limits';

type Trx = Transaction<Database>;
type OwnRow = { id: string };

/**
 * How the server reads one `own` entity's rows for their member (sync/entities/define-entity.ts,
 * PullRule): the rows a snapshot sends, and those of changed ids. A changed id with no row is sent
 * as deleted.
 */
interface OwnRowsReader {
  snapshot(trx: Trx, userId: string): Promise<OwnRow[]>;
  byIds(trx: Trx, userId: string, ids: ReadonlySet<string>): Promise<OwnRow[]>;
}

const followColumns = ['follower_id', 'followee_id', 'created_at'] as const;
const followItem = (r: { follower_id: string; followee_id: string; created_at: number }) => ({
  id: `${r.follower_id}:${r.followee_id}`,
  follower_id: r.follower_id,
  followee_id: r.followee_id,
  created_at: Number(r.created_at),
});

/**
 * A member's own edges to other members (blocks, mutes), all of them: few per member, and the
 * device filters its cached rows by them offline. Sent as `{ id: 'me:other', <me>, <other>,
 * created_at, name, handle }`: the other member's name and handle as they are now (the lists in /profile).
 */
function edgesReader(table: 'blocks' | 'mutes', me: 'blocker_id' | 'muter_id', other: 'blocked_id' | 'muted_id'): OwnRowsReader {
  const item = (r: Record<string, unknown>) => ({
    id: `${String(r[me])}:${String(r[other])}`,
    [me]: r[me],
    [other]: r[other],
    created_at: Number(r.created_at),
    name: r.name as string,
    handle: r.handle as string,
  });
  const base = (trx: Trx, userId: string) =>
    (trx as unknown as Transaction<Record<string, Record<string, unknown>>>)
      .selectFrom(`${table} as e`)
      .innerJoin('profiles as p', 'p.id', `e.${other}`)
      .select([`e.${me} as ${me}`, `e.${other} as ${other}`, 'e.created_at as created_at', 'p.name as name', 'p.handle as handle'])
      .where(`e.${me}`, '=', userId);
  return {
    snapshot: async (trx, userId) => (await base(trx, userId).execute()).map(item),
    byIds: async (trx, userId, ids) => {
      const others = [...ids].filter((id) => id.startsWith(`${userId}:`)).map((id) => id.slice(userId.length + 1));
      return others.length ? (await base(trx, userId).where(`e.${other}`, 'in', others).execute()).map(item) : [];
    },
  };
}

/** Keyed by the change log's entity (`log.entity` in the registry). */
const readers: Record<string, OwnRowsReader> = {
  notification: {
    snapshot: readNewestNotifications,
    byIds: (trx, userId, ids) => readOwnNotifications(trx, userId, new Map([[userId, ids]])),
  },
  // All of them: the device answers "do I follow them" offline (a member follows MAX_FOLLOWING at most).
  follow: {
    snapshot: async (trx, userId) =>
      (await trx.selectFrom('follows').select(followColumns).where('follower_id', '=', userId).limit(MAX_FOLLOWING).execute()).map(followItem),
    byIds: async (trx, userId, ids) => {
      const followees = [...ids].filter((id) => id.startsWith(`${userId}:`)).map((id) => id.slice(userId.length + 1));
      if (!followees.length) return [];
      const rows = await trx.selectFrom('follows').select(followColumns).where('follower_id', '=', userId).where('followee_id', 'in', followees).execute();
      return rows.map(followItem);
    },
  },
  block: edgesReader('blocks', 'blocker_id', 'blocked_id'),
  mute: edgesReader('mutes', 'muter_id', 'muted_id'),
};

/** The `own` entities: their change-log name and the pull's field (their client store). */
export const ownEntities = Object.values(entities).flatMap((e) =>
  e.log.pull === 'own' && e.client.kind === 'store' ? [{ entity: e.log.entity, field: e.client.store }] : [],
);
for (const { entity } of ownEntities) if (!readers[entity]) throw new Error(`no reader of the own entity ${entity}: add one to server/sync/own-rows.ts`);

/** The pull's own-row fields: `<store>` rows and `deleted_<store>` ids, for every own entity. */
export type OwnFields = Record<string, unknown[]>;

/** A snapshot's own rows: each own entity's rows whole, nothing deleted. */
export async function readOwnSnapshot(trx: Trx, userId: string): Promise<OwnFields> {
  const out: OwnFields = {};
  for (const { entity, field } of ownEntities) {
    out[field] = await readers[entity]!.snapshot(trx, userId);
    out[`deleted_${field}`] = [];
  }
  return out;
}

/** The changed own rows of `userId` (`changed`: ChangeSets.own); no query for an entity with none. */
export async function readOwnChanges(trx: Trx, userId: string, changed: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>): Promise<OwnFields> {
  const out: OwnFields = {};
  for (const { entity, field } of ownEntities) {
    const ids = changed.get(entity)?.get(userId);
    const rows = ids?.size ? await readers[entity]!.byIds(trx, userId, ids) : [];
    const present = new Set(rows.map((r) => r.id));
    out[field] = rows;
    out[`deleted_${field}`] = ids ? [...ids].filter((id) => !present.has(id)) : [];
  }
  return out;
}
