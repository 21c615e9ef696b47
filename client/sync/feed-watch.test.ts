import { describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { RangeSet } from 'dexie';
import { openClientDb, setMeta } from './db';
import { applyPull } from './apply-pull';
import { clientState, enqueueInTx } from './outbox';
import { runTx } from './tx-queue';
import { readFeed } from './queries';
import { createFeedWatch, keysOf } from './feed-watch';
import { emptyPullLists, feedItem } from '#tests/helpers/feed-item';

describe('keysOf', () => {
  it('lists the single keys of a tree, also one copied from another tab, and gives up on ranges', () => {
    const set = new RangeSet().addKeys(['b', 'a', 'c']);
    expect(keysOf(set)?.sort()).toEqual(['a', 'b', 'c']);
    expect(keysOf(structuredClone(set))?.sort()).toEqual(['a', 'b', 'c']);
    expect(keysOf(new RangeSet())).toEqual([]);
    expect(keysOf(new RangeSet('a', 'z'))).toBeNull();
    expect(keysOf(new RangeSet().addKeys(['a', 'b', 'c']), 2)).toBeNull();
  });
});

describe('createFeedWatch', () => {
  const item = (i: number, likes = 0) =>
    feedItem({
      id: `v${String(i).padStart(3, '0')}`,
      user_id: 'owner',
      user_name: 'Owner',
      title: `t${i}`,
      video_url: `/media/${i}`,
      created_at: new Date(1_700_000_000_000 + (i % 7) * 1000).toISOString(),
      likes_count: likes,
    });
  const base = emptyPullLists();

  it('always shows what a full read of the feed shows, after every kind of write', async () => {
    const factory = new IDBFactory();
    const db = openClientDb('feed-watch', { indexedDB: factory, IDBKeyRange });
    const watch = createFeedWatch(db, 'u');
    let notified = 0;
    const stop = watch.subscribe(() => (notified += 1));
    const same = () => vi.waitFor(async () => expect(watch.get()).toEqual(await readFeed(db, 'u')));

    await same();
    expect(watch.get()).toEqual({ items: [], synced: false, end: false });
    const { client_id } = await runTx(db, () => clientState(db, 'u'));
    // A snapshot (same created time for several rows: the id breaks the tie, as the index does).
    expect(await applyPull(db, 'u', client_id, null, { ...base, cursor: '5', reset: true, videos: [1, 2, 3, 8, 9].map((i) => item(i)) })).toBe(true);
    await same();
    // A local like: one row and the queue.
    await runTx(db, () => enqueueInTx(db, 'u', { name: 'like', args: { videoId: 'v002' } }));
    await same();
    expect(watch.get()!.items.find((v) => v.id === 'v002')).toMatchObject({ pending: true, likes_count: 1, liked_by_me: true });
    // An incremental pull: a changed row, a deletion, a new video, the like confirmed.
    expect(
      await applyPull(db, 'u', client_id, '5', {
        ...base,
        cursor: '9',
        reset: false,
        videos: [item(3, 4), item(4)],
        deleted_videos: ['v009'],
        last_mutation_id: 1,
      }),
    ).toBe(true);
    await same();
    // A write of 60 rows names a range, not keys: read in full.
    expect(await applyPull(db, 'u', client_id, '9', { ...base, cursor: '20', reset: true, videos: Array.from({ length: 60 }, (_, i) => item(i + 10)) })).toBe(
      true,
    );
    await same();
    // Another tab (a second connection) writes.
    const other = openClientDb('feed-watch', { indexedDB: factory, IDBKeyRange });
    await other.transaction('rw', other.videos, other.meta, async () => {
      await other.videos.delete('v010');
      await setMeta(other, 'feedEnd', true);
    });
    await same();
    expect(watch.get()!.end).toBe(true);
    // Nobody watching: events are not followed; the next subscriber gets a full read.
    stop();
    const before = notified;
    await runTx(db, () => db.videos.delete('v011'));
    const stop2 = watch.subscribe(() => undefined);
    await same();
    expect(watch.get()!.items.some((v) => v.id === 'v011')).toBe(false);
    expect(notified).toBe(before);
    stop2();
    other.close();
    db.close();
  });

  it("shows the first cards, a change after a quiet spell and the member's own changes at once, and a burst together", async () => {
    const db = openClientDb('feed-watch-batch', { indexedDB: new IDBFactory(), IDBKeyRange });
    // A long batch, so that "at once" and "batched" cannot be mistaken for each other on a slow machine.
    const batchMs = 2000;
    const watch = createFeedWatch(db, 'u', batchMs);
    const shown: number[] = [];
    const stop = watch.subscribe(() => shown.push(Date.now()));
    await vi.waitFor(() => expect(watch.get()).toBeDefined());
    const { client_id } = await runTx(db, () => clientState(db, 'u'));
    const ids = () => watch.get()!.items.map((v) => v.id);
    const page = (cursor: number, i: number) =>
      applyPull(db, 'u', client_id, String(cursor - 1), { ...base, cursor: String(cursor), reset: false, videos: [item(i)] });
    // The first cards: no wait.
    await applyPull(db, 'u', client_id, null, { ...base, cursor: '1', reset: true, videos: [item(1), item(2)] });
    await vi.waitFor(() => expect(ids()).toEqual(['v002', 'v001']), { timeout: batchMs - 500, interval: 5 });
    const firstShown = shown.at(-1)!;
    // Three more pages right after (the window filling): read together, a batch after the first cards' read.
    const before = shown.length;
    for (const [cursor, i] of [
      [2, 3],
      [3, 4],
      [4, 5],
    ] as const) {
      expect(await page(cursor, i)).toBe(true);
    }
    await vi.waitFor(() => expect(ids()).toHaveLength(5), { timeout: batchMs * 3, interval: 5 });
    expect(shown.length - before).toBe(1);
    expect(shown[before]! - firstShown).toBeGreaterThanOrEqual(batchMs - 100);
    // After a quiet spell, another member's change (a poke's delta) is live: at once.
    await new Promise((r) => setTimeout(r, batchMs + 100));
    const landed = Date.now();
    expect(await page(5, 6)).toBe(true);
    await vi.waitFor(() => expect(ids()).toHaveLength(6), { timeout: batchMs * 3, interval: 5 });
    expect(shown.at(-1)! - landed).toBeLessThan(batchMs / 2);
    // The member's own like, right after that read: at once too.
    const liked = Date.now();
    await runTx(db, () => enqueueInTx(db, 'u', { name: 'like', args: { videoId: 'v003' } }));
    await vi.waitFor(() => expect(watch.get()!.items.find((v) => v.id === 'v003')).toMatchObject({ pending: true }), { timeout: batchMs * 3, interval: 5 });
    expect(shown.at(-1)! - liked).toBeLessThan(batchMs / 2);
    stop();
    db.close();
  });
});
