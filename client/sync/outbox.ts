import { newId } from './ids';
import { MutationError } from '#sync/protocol/error-codes';
import { mutationVideoId } from '#sync/mutations/video-id';
import { mutationDef, type AnyMutation } from '#sync/mutations/catalogue';
import { runTx } from './tx-queue';
import { getMeta, setMeta, type ClientDb, type OutboxEntry } from './db';
import { applyOptimistic, rebase } from './rebase';

/** Per user on this device: the client id the server knows, and the next mutation id to hand out. */
export interface ClientState {
  client_id: string;
  next_id: number;
}

const clientKey = (userId: string) => `client:${userId}`;

function newClientId(): string {
  return newId();
}

/** The user's client state, created on first use. Call inside a read-write transaction including meta. */
export async function clientState(db: ClientDb, userId: string): Promise<ClientState> {
  const cur = await getMeta<ClientState>(db, clientKey(userId));
  if (cur) return cur;
  const fresh = { client_id: newClientId(), next_id: 1 };
  await setMeta(db, clientKey(userId), fresh);
  return fresh;
}

/**
 * The video of a mutation that names only a comment (deleteComment, likeComment, pinComment): its
 * card shows pending and rebase resets its comment list. Null when the device does not hold it.
 */
async function commentVideoId(db: ClientDb, m: { args: unknown }): Promise<string | null> {
  const commentId = (m.args as { commentId?: unknown } | null)?.commentId;
  if (typeof commentId !== 'string') return null;
  return (await db.comments.get(commentId))?.video_id ?? null;
}

/**
 * Queues a mutation durably and shows its effect at once, inside the caller's runTx (a reload right
 * after still has both); its args were parsed by the caller (SyncEngine.mutate), so the service
 * worker, which sends this queue too, never loads zod. `known` is the client state when the caller
 * has read it already (in the same transaction). Returns the queued entry.
 */
export async function enqueueInTx(db: ClientDb, userId: string, mutation: AnyMutation, now = Date.now(), known?: ClientState): Promise<OutboxEntry> {
  const state = known ?? (await clientState(db, userId));
  const entry: OutboxEntry = {
    user_id: userId,
    client_id: state.client_id,
    id: state.next_id,
    name: mutation.name,
    args: mutation.args,
    client_time: now,
    status: 'pending',
    video_id: mutationVideoId(mutation) ?? (await commentVideoId(db, mutation)),
  };
  // Issued together: IndexedDB runs them in order inside the transaction, so the click waits for one
  // round trip instead of three. They touch different tables; any failure aborts all of them.
  const [seq] = await Promise.all([
    db.outbox.add(entry),
    setMeta(db, clientKey(userId), { ...state, next_id: state.next_id + 1 }),
    applyOptimistic(db, userId, entry),
  ]);
  entry.seq = seq as number;
  return entry;
}

/**
 * The user's client state if it exists, read without a write transaction: a read-write transaction
 * over every table would queue behind the live queries a fresh local write has just woken.
 */
export async function readClientState(db: ClientDb, userId: string): Promise<ClientState | undefined> {
  return getMeta<ClientState>(db, clientKey(userId));
}

/** The next batch to push: this user's unacknowledged mutations of its current client id, oldest first. */
export async function nextBatch(db: ClientDb, userId: string, max: number): Promise<{ clientId: string; entries: OutboxEntry[] }> {
  // The client id changes only under the flush lock (renumber, rotate), which the caller holds; the
  // two reads go out together.
  const [known, pending] = await Promise.all([readClientState(db, userId), pendingOf(db, userId)]);
  const state = known ?? (await runTx(db, () => clientState(db, userId)));
  return { clientId: state.client_id, entries: batchOf(pending, state.client_id, max) };
}

/** The user's unacknowledged mutations, any client id (also usable inside a transaction). */
export function pendingOf(db: ClientDb, userId: string): Promise<OutboxEntry[]> {
  return db.outbox.where('[user_id+status]').equals([userId, 'pending']).toArray();
}

/** Those of `clientId`, oldest first, at most `max`. */
export function batchOf(pending: OutboxEntry[], clientId: string, max: number): OutboxEntry[] {
  return pending
    .filter((e) => e.client_id === clientId)
    .sort((a, b) => a.id - b.id)
    .slice(0, max);
}

/**
 * Gives this user's queued mutations new ids from `firstId` on (in their original order), under
 * `clientId`. Used when the server's last id is behind ours (a gap: e.g. its database was restored)
 * or when the client id has to change; nothing the server acknowledged at or below its last id is
 * touched, so nothing can apply twice.
 */
export async function renumber(db: ClientDb, userId: string, clientId: string, firstId: number, onlyAbove: number | null): Promise<void> {
  await runTx(db, async () => {
    const rows = (await db.outbox.where('user_id').equals(userId).toArray()).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    let next = firstId;
    for (const e of rows) {
      if (onlyAbove !== null && e.status === 'sent' && e.id <= onlyAbove) continue;
      await db.outbox.update(e.seq!, { client_id: clientId, id: next, status: 'pending' });
      next += 1;
    }
    await setMeta(db, clientKey(userId), { client_id: clientId, next_id: next } satisfies ClientState);
  });
}

export async function rotateClientId(db: ClientDb, userId: string): Promise<void> {
  await renumber(db, userId, newClientId(), 1, null);
}

/** Marks acknowledged mutations; their effect stays shown until the pull that carries it. */
export async function markSent(db: ClientDb, clientId: string, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await runTx(db, () =>
    db.outbox
      .where('[client_id+id]')
      .anyOf(ids.map((id) => [clientId, id]))
      .modify({ status: 'sent' }),
  );
}

export interface Rejection {
  name: string;
  args: unknown;
  error: { code: string; message: string };
}

/** Drops refused mutations and rolls their effect back (rebase without them). */
export async function dropRejected(
  db: ClientDb,
  userId: string,
  clientId: string,
  rejected: Array<{ id: number; error: { code: string; message: string } }>,
): Promise<Rejection[]> {
  if (!rejected.length) return [];
  return runTx(db, async () => {
    const out: Rejection[] = [];
    const videos: string[] = [];
    const commentVideos: string[] = [];
    const stores: string[] = [];
    for (const r of rejected) {
      const e = await db.outbox.where('[client_id+id]').equals([clientId, r.id]).first();
      if (!e) continue;
      await db.outbox.delete(e.seq!);
      if (e.video_id) videos.push(e.video_id);
      // A refused comment must leave the shown list too, not only the video's count.
      const videoId = e.video_id ?? mutationVideoId(e);
      if (videoId && mutationDef(e.name)?.rewritesComments) commentVideos.push(videoId);
      stores.push(...(mutationDef(e.name)?.resetsStores ?? []));
      out.push({ name: e.name, args: e.args, error: r.error });
    }
    await rebase(db, userId, videos, true, commentVideos, stores);
    return out;
  });
}

export function isMutationError(err: unknown): err is MutationError {
  return err instanceof MutationError;
}
