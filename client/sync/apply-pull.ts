import { mutationDef } from '#sync/mutations/catalogue';
import type { PullResponse } from '#sync/protocol/messages';
import { FEED_WINDOW } from '#sync/protocol/limits';
import type { Table } from 'dexie';
import type { AnyEntity } from '#sync/entities/define-entity';
import { entities } from '#sync/entities/registry';
import { runTx } from './tx-queue';
import {
  CURSOR_KEY,
  commentsLoadedKey,
  FEED_END_KEY,
  getMeta,
  LAST_SYNCED_KEY,
  setMeta,
  toCommentRow,
  toVideoRow,
  type ClientDb,
  type OutboxEntry,
} from './db';
import { queuedFor, rebase } from './rebase';
import { trace } from './trace';
import { nextFill, WINDOW_FILL_KEY, type WindowFill } from './window-fill';

export { CURSOR_KEY, commentsLoadedKey, FEED_END_KEY, LAST_SYNCED_KEY } from './db';

/** Videos kept on the device at most: the window plus older pages; the oldest go first. */
export const MAX_CACHED_VIDEOS = 1000;

/**
 * Applies a pull in one transaction: the server rows, the deletions, the mutations the server has
 * confirmed leave the outbox, and the rest are re-applied on top (rebase). If another tab applied
 * a pull since this one was asked for (the cursor or the window's fill moved), nothing is written
 * and false is returned. A window page's fill is stored with its cursor (window-fill.ts).
 */
export async function applyPull(
  db: ClientDb,
  userId: string,
  clientId: string,
  askedCursor: string | null,
  res: PullResponse,
  now = Date.now(),
  cap = MAX_CACHED_VIDEOS,
  askedFill: WindowFill | null = null,
): Promise<boolean> {
  return runTx(db, async () => {
    const [current, fill] = await Promise.all([getMeta<string | null>(db, CURSOR_KEY), getMeta<WindowFill | null>(db, WINDOW_FILL_KEY)]);
    if ((current ?? null) !== askedCursor || (fill?.after ?? null) !== (askedFill?.after ?? null)) return false;
    await writePull(db, userId, clientId, res, now, cap);
    const next = nextFill(askedFill, res);
    if (next !== undefined) await setMeta(db, WINDOW_FILL_KEY, next);
    // The window's last page reached the end of the feed: nothing lies below it.
    if (!res.reset && res.window_next === null) await setMeta(db, FEED_END_KEY, true);
    return true;
  });
}

/**
 * The writes of a pull answer (or of a poke's delta, which has the same shape), for a caller that
 * is inside runTx and has checked the cursor. Only the rows the answer names are touched: the UI's
 * live queries wake for what changed, and a quiet answer costs a few requests.
 */
export async function writePull(
  db: ClientDb,
  userId: string,
  clientId: string,
  res: PullResponse,
  now: number,
  cap = MAX_CACHED_VIDEOS,
  /** Ids of the answer's videos the device already held (read before any write), if known. */
  held?: ReadonlySet<string>,
): Promise<void> {
  trace('apply:start');
  if (res.reset) {
    await Promise.all([db.server_videos.clear(), db.videos.clear()]);
    await setMeta(db, FEED_END_KEY, res.window_next !== undefined ? res.window_next === null : res.videos.length < FEED_WINDOW);
  }
  for (const id of res.deleted_videos) await dropVideos(db, [id]);
  // A deleted video's notifications went with it on the server (the trimmed cache's do not: dropVideos).
  if (res.deleted_videos.length) await db.notifications.where('video_id').anyOf(res.deleted_videos).delete();

  // One round trip for the usual answer (a few changed cards): the rows, profile, boards and
  // cursor are written, and the outbox read, all at once; they are different tables. Rows written
  // here are their server state already.
  const rows = res.videos.map(toVideoRow);
  const [confirmed, queued] = await Promise.all([
    db.outbox
      .where('[client_id+id]')
      .between([clientId, 0], [clientId, res.last_mutation_id], true, true)
      .filter((e) => e.user_id === userId)
      .toArray(),
    queuedFor(db, userId),
    rows.length ? Promise.all([db.server_videos.bulkPut(rows), db.videos.bulkPut(rows)]) : null,
    res.profile ? Promise.all([db.server_profile.put(res.profile), db.profile.put(res.profile)]) : null,
    res.leaderboards !== null ? db.leaderboards.put({ id: 'current', data: res.leaderboards, as_of: now }) : null,
    writeOwnRows(db, res),
    setMeta(db, CURSOR_KEY, res.cursor),
    setMeta(db, LAST_SYNCED_KEY, now),
  ]);

  // Rows the device held already cannot grow the cache: no count then (the usual like or comment).
  if (rows.length > 0 && (!held || rows.some((r) => !held.has(r.id)))) await trimCache(db, cap);
  await writeComments(db, res, now);
  trace('apply:confirmed');

  // Confirmed by the server and visible in these rows: the queued copies go now, not earlier, and
  // the rows they showed optimistically go back to the server's. Still-queued mutations are
  // applied again on top of the new rows. With neither, rebase would change nothing: skipped.
  if (confirmed.length || queued.length) await settle(db, userId, confirmed, new Set([...rows.map((r) => r.id), ...res.deleted_videos]));
  trace('apply:end');
}

type OwnStore = Extract<AnyEntity['client'], { kind: 'store' }> & { serverCopy: string | null };

/** The `own` entities' stores (sync/entities/define-entity.ts, PullRule) and their server copies. */
const ownStores: OwnStore[] = Object.values(entities).flatMap((e) =>
  e.log.pull === 'own' && e.client.kind === 'store' ? [{ ...e.client, serverCopy: typeof e.rebase === 'object' ? e.rebase.reset : null }] : [],
);

/**
 * Every own entity's rows the pull sent (under its store's name) and those gone (`deleted_<store>`),
 * into the store and its server copy; a snapshot replaces the store whole. A long list keeps its newest.
 */
async function writeOwnRows(db: ClientDb, res: PullResponse): Promise<void> {
  const fields = res as unknown as Record<string, Array<Record<string, unknown>> | undefined>;
  for (const o of ownStores) {
    const tables = [db.table(o.store), ...(o.serverCopy ? [db.table(o.serverCopy)] : [])];
    const rows = (fields[o.store] ?? []).map((r) => (o.fromServer ? o.fromServer(r) : r));
    const deleted = (fields[`deleted_${o.store}`] ?? []) as unknown as string[];
    if (res.reset) await Promise.all(tables.map((t) => t.clear()));
    if (!rows.length && !deleted.length) continue;
    await Promise.all(tables.map((t) => t.bulkPut(rows)));
    if (deleted.length) await Promise.all(tables.map((t) => t.bulkDelete(deleted)));
    if (o.newest) await keepNewest(db.table(o.store), o.newest);
  }
}

/** Keeps the newest `max` rows by the index `by`; older ones are not kept on the device. */
async function keepNewest(table: Table, { max, by }: { max: number; by: string }): Promise<void> {
  const count = await table.count();
  if (count > max)
    await table.bulkDelete(
      await table
        .orderBy(by)
        .limit(count - max)
        .primaryKeys(),
    );
}

/** Drops the confirmed mutations and rebases: the videos they showed and no pull row rewrote go back to the server's. */
async function settle(db: ClientDb, userId: string, confirmed: OutboxEntry[], written: ReadonlySet<string>): Promise<void> {
  if (confirmed.length) await db.outbox.bulkDelete(confirmed.map((e) => e.seq!));
  const reset = new Set<string>();
  for (const e of confirmed) if (e.video_id && !written.has(e.video_id)) reset.add(e.video_id);
  const renamed = confirmed.some((e) => mutationDef(e.name)?.changesProfile);
  const stores = confirmed.flatMap((e) => mutationDef(e.name)?.resetsStores ?? []);
  await rebase(db, userId, reset, renamed, [], stores);
}

/** Removes videos with their comments, server state and shown state alike. */
function dropVideos(db: ClientDb, ids: string[]): Promise<unknown> {
  return Promise.all([
    db.server_videos.bulkDelete(ids),
    db.videos.bulkDelete(ids),
    db.server_comments.where('video_id').anyOf(ids).delete(),
    db.comments.where('video_id').anyOf(ids).delete(),
  ]);
}

/** Bounded cache: new videos arrive on top, so the oldest leave (they can be paged in again). */
async function trimCache(db: ClientDb, cap: number): Promise<void> {
  const count = await db.server_videos.count();
  if (count <= cap) return;
  const oldest = (await db.server_videos
    .orderBy('[created_ms+id]')
    .limit(count - cap)
    .primaryKeys()) as string[];
  await dropVideos(db, oldest);
  await setMeta(db, FEED_END_KEY, false);
}

/** A comment list loaded whole replaces the cached one; then the changed and deleted comments. */
async function writeComments(db: ClientDb, res: PullResponse, now: number): Promise<void> {
  for (const videoId of res.comments_loaded) {
    await Promise.all([db.server_comments.where('video_id').equals(videoId).delete(), db.comments.where('video_id').equals(videoId).delete()]);
    await setMeta(db, commentsLoadedKey(videoId), now);
  }
  const comments = res.comments.map(toCommentRow);
  if (comments.length) await Promise.all([db.server_comments.bulkPut(comments), db.comments.bulkPut(comments)]);
  if (res.deleted_comments.length) await Promise.all([db.server_comments.bulkDelete(res.deleted_comments), db.comments.bulkDelete(res.deleted_comments)]);
}

/** Forgets everything cached for another user (kept: every user's outbox and client ids). */
export async function resetCacheFor(db: ClientDb, userId: string): Promise<void> {
  await runTx(db, async () => {
    if ((await getMeta<string>(db, 'owner')) === userId) return;
    for (const t of [db.videos, db.server_videos, db.comments, db.server_comments, db.profile, db.server_profile, db.leaderboards]) await t.clear();
    for (const o of ownStores) for (const t of [o.store, o.serverCopy]) if (t) await db.table(t).clear();
    const keys = (await db.meta.toCollection().primaryKeys()).filter((k) => !String(k).startsWith('client:'));
    await db.meta.bulkDelete(keys);
    await setMeta(db, 'owner', userId);
  });
}
