import { cmp, Dexie, type IntervalTree, type ObservabilitySet } from 'dexie';
import { CURSOR_KEY, FEED_END_KEY, getMeta, type ClientDb, type OutboxEntry, type VideoRow } from './db';
import { feedItems, NO_HIDDEN, readHiddenMembers, type FeedSnapshot, type HiddenMembers } from './queries';
import { trace } from './trace';

/** More changed rows than this in one event: reading the whole table is as cheap. */
const MAX_PATCH_KEYS = 50;

/**
 * Once cards are shown, changes that are not the member's own (a pull's page, a poke's delta) are
 * read at most once in this long: the window's pages arrive a dozen in the first seconds, and each
 * was a read, a sort and a render of the feed on a slow phone's main thread. A change after a quiet
 * spell (another member's like, live) is read at once, and so are the member's own changes (the
 * outbox, blocks and mutes) and the first cards.
 */
export const FEED_BATCH_MS = 250;

/**
 * The exact keys a Dexie mutated-part tree names, or null when it names a range (a clear, a bulk
 * write of 50 rows or more). Trees that came from another tab are plain objects, so they are
 * walked here rather than through RangeSet's iterator.
 */
export function keysOf(tree: IntervalTree | undefined, max = MAX_PATCH_KEYS): string[] | null {
  const out: string[] = [];
  const walk = (node: IntervalTree | null | undefined): boolean => {
    if (!node || !('from' in node)) return true;
    if (cmp(node.from, node.to) !== 0 || typeof node.from !== 'string') return false;
    out.push(node.from);
    return out.length <= max && walk(node.l) && walk(node.r);
  };
  return walk(tree) ? out : null;
}

const byNewest = (a: VideoRow, b: VideoRow) => b.created_ms - a.created_ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The feed (what readFeed returns) kept in memory and patched from Dexie's change events, for
 * useSyncExternalStore. A live query would re-read every cached video (300 to 1000) after each
 * like or pull; this reads only the rows an event names, plus the queue and two meta keys when
 * those changed. Events of other tabs arrive the same way (Dexie relays them).
 */
export function createFeedWatch(db: ClientDb, userId: string | null, batchMs = FEED_BATCH_MS) {
  const prefix = `idb://${db.name}/`;
  const listeners = new Set<() => void>();
  const rows = new Map<string, VideoRow>();
  let queued: OutboxEntry[] = [];
  let cursor: unknown;
  let feedEnd: unknown;
  let hidden: HiddenMembers = NO_HIDDEN;
  let snapshot: FeedSnapshot | undefined;
  // What the events since the last refresh changed; one refresh runs at a time.
  let full = true;
  let outbox = false;
  let meta = false;
  // The member's blocks or mutes changed: the members left out are read again.
  let safety = false;
  const keys = new Set<string>();
  let running = false;
  let batch: ReturnType<typeof setTimeout> | null = null;
  // When the last read started: the next change that can wait is read batchMs after it.
  let lastRead = -Infinity;

  const onParts = (parts: ObservabilitySet) => {
    if ('all' in parts) full = true;
    const videos = parts[`${prefix}videos/`];
    if (videos) {
      const ks = keysOf(videos);
      if (ks === null) full = true;
      else for (const k of ks) keys.add(k);
    }
    if (parts[`${prefix}outbox/`]) outbox = true;
    if (parts[`${prefix}blocks/`] || parts[`${prefix}mutes/`]) safety = true;
    const m = parts[`${prefix}meta/`];
    if (m) {
      const ks = keysOf(m);
      if (ks === null || ks.includes(CURSOR_KEY) || ks.includes(FEED_END_KEY)) meta = true;
    }
    kick();
  };

  const changed = () => full || outbox || meta || safety || keys.size > 0;
  // Not the member's own change, and cards are shown: it can wait for the next ones.
  const canWait = () => !outbox && !safety && !!snapshot?.items.length;

  function kick(now = false): void {
    if (running || !listeners.size || !changed()) return;
    const wait = lastRead + batchMs - Date.now();
    if (!now && wait > 0 && canWait()) {
      batch ??= setTimeout(() => {
        batch = null;
        kick(true);
      }, wait);
      return;
    }
    if (batch) clearTimeout(batch);
    batch = null;
    running = true;
    lastRead = Date.now();
    refresh()
      .catch(() => {
        // The database closed or failed: start over with a full read on the next event.
        full = true;
      })
      .finally(() => {
        running = false;
        kick();
      });
  }

  async function refresh(): Promise<void> {
    const whole = full;
    const patch = [...keys];
    const readQueue = whole || outbox;
    const readMeta = whole || meta;
    const readHidden = whole || safety;
    full = outbox = meta = safety = false;
    keys.clear();
    const [fresh, q, c, e, h] = await Promise.all([
      whole ? db.videos.toArray() : patch.length ? db.videos.bulkGet(patch) : null,
      readQueue ? (userId ? db.outbox.where('user_id').equals(userId).toArray() : []) : null,
      readMeta ? getMeta(db, CURSOR_KEY) : cursor,
      readMeta ? getMeta<boolean>(db, FEED_END_KEY) : feedEnd,
      readHidden ? readHiddenMembers(db, userId) : hidden,
    ]);
    if (whole) rows.clear();
    if (fresh) {
      fresh.forEach((row, i) => {
        if (row) rows.set(row.id, row);
        else rows.delete(patch[i]!);
      });
    }
    if (q) queued = q;
    cursor = c;
    feedEnd = e;
    hidden = h;
    snapshot = feedItems([...rows.values()].sort(byNewest), queued, cursor, feedEnd, hidden);
    trace('feed:rows');
    for (const l of listeners) l();
  }

  return {
    get: (): FeedSnapshot | undefined => snapshot,
    subscribe(listener: () => void): () => void {
      if (!listeners.size) {
        Dexie.on('storagemutated', onParts);
        full = true;
      }
      listeners.add(listener);
      kick();
      return () => {
        listeners.delete(listener);
        if (listeners.size) return;
        Dexie.on.storagemutated.unsubscribe(onParts);
        if (batch) clearTimeout(batch);
        batch = null;
      };
    },
  };
}
export type FeedWatch = ReturnType<typeof createFeedWatch>;
