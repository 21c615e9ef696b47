import { MutationError } from '#sync/protocol/error-codes';
import { mutationDef, runMutation, type AnyMutation } from '#sync/mutations/catalogue';
import { mutationVideoId } from '#sync/mutations/video-id';
import type { AnyEntity } from '#sync/entities/define-entity';
import { comments, entities, videos } from '#sync/entities/registry';
import { clientMutationTx } from './client-tables';
import type { ClientDb, OutboxEntry } from './db';

/** A user's queued mutations in the order they were made. */
export async function queuedFor(db: ClientDb, userId: string): Promise<OutboxEntry[]> {
  const rows = await db.outbox.where('user_id').equals(userId).toArray();
  return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/** Runs one mutation optimistically; a refusal here only means "nothing to show yet": the server decides. */
export async function applyOptimistic(db: ClientDb, userId: string, entry: Pick<OutboxEntry, 'name' | 'args' | 'client_time'>): Promise<void> {
  try {
    await runMutation(clientMutationTx(db, userId, entry.client_time), { name: entry.name, args: entry.args } as AnyMutation);
  } catch (err) {
    if (!(err instanceof MutationError)) throw err;
  }
}

/**
 * Rebase (must run inside a read-write transaction over allTables): the rows the queued mutations
 * touch, plus `alsoVideos` and the comment lists of `alsoCommentVideos` (those of mutations just
 * dropped, whose optimistic rows would otherwise stay), are reset to the server's last state, then
 * every queued mutation of `userId` is applied again on top. Readers see only the result, never the
 * state in between.
 */
export async function rebase(
  db: ClientDb,
  userId: string,
  alsoVideos: Iterable<string> = [],
  alsoProfile = true,
  alsoCommentVideos: Iterable<string> = [],
  alsoStores: Iterable<string> = [],
): Promise<void> {
  const [queued, read] = await Promise.all([queuedFor(db, userId), alsoProfile ? db.server_profile.get(userId) : null]);
  // Only a name change makes the shown profile differ from the server's: without one queued (or
  // just dropped, `alsoProfile`), the row is left alone and its readers are not woken.
  const profile = alsoProfile || queued.some((e) => mutationDef(e.name)?.changesProfile) ? (read ?? (await db.server_profile.get(userId))) : null;
  const { videoIds, commentVideos } = touchedBy(queued, alsoVideos, alsoCommentVideos);
  await resetFromServer(db, videos, videoIds);
  await resetFromServer(db, comments, commentVideos);
  for (const store of storesTouchedBy(queued, alsoStores)) await resetStoreFromServer(db, store);
  // A profile the server has not sent yet stays as the device made it (it is the member's own).
  if (profile) await db.profile.put(profile);
  for (const e of queued) await applyOptimistic(db, userId, e);
}

/**
 * An entity's shown rows reset to the server's copy as its rebase rule says: by its key, a row put
 * back or gone with it; by another column (a video's comment list), the whole group replaced.
 */
async function resetFromServer(db: ClientDb, e: AnyEntity, values: Iterable<string>): Promise<void> {
  const rule = e.rebase;
  if (typeof rule !== 'object' || e.client.kind !== 'store') return;
  const shown = db.table(e.client.store);
  const server = db.table(rule.reset);
  for (const v of values) {
    if (rule.by === e.key[0]) {
      const s: unknown = await server.get(v);
      await (s ? shown.put(s) : shown.delete(v));
    } else {
      await shown.where(rule.by).equals(v).delete();
      await shown.bulkPut(await server.where(rule.by).equals(v).toArray());
    }
  }
}

/** The stores (besides videos, comments and the profile) that queued mutations, or `also`, change. */
function storesTouchedBy(queued: OutboxEntry[], also: Iterable<string>): Set<string> {
  const stores = new Set(also);
  for (const e of queued) for (const s of mutationDef(e.name)?.resetsStores ?? []) stores.add(s);
  return stores;
}

/** A store reset whole to its server copy (its entity's rebase rule names the copy): a small store of the member's own rows. */
async function resetStoreFromServer(db: ClientDb, store: string): Promise<void> {
  const e = Object.values(entities).find((x) => x.client.kind === 'store' && x.client.store === store);
  if (!e || typeof e.rebase !== 'object') return;
  const server = await db.table(e.rebase.reset).toArray();
  await db.table(store).clear();
  await db.table(store).bulkPut(server);
}

/** The videos the queued mutations touch (plus `alsoVideos`), and those whose comment lists they change. */
function touchedBy(
  queued: OutboxEntry[],
  alsoVideos: Iterable<string>,
  alsoCommentVideos: Iterable<string>,
): { videoIds: Set<string>; commentVideos: Set<string> } {
  const videoIds = new Set(alsoVideos);
  const commentVideos = new Set(alsoCommentVideos);
  for (const e of queued) {
    const v = e.video_id ?? mutationVideoId(e);
    if (!v) continue;
    videoIds.add(v);
    if (mutationDef(e.name)?.rewritesComments) commentVideos.add(v);
  }
  return { videoIds, commentVideos };
}
