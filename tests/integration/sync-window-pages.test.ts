import { describe, expect, it, vi } from 'vitest';
import { call } from '../helpers/test-app';
import { emptyPullLists } from '../helpers/feed-item';
import { engineFor, insertVideo, Network, newDevice, useSyncServer, videoTruth } from './sync-harness';
import { applyPull, CURSOR_KEY, FEED_END_KEY } from '#client/sync/apply-pull';
import { getMeta } from '#client/sync/db';
import { readFeed } from '#client/sync/queries';
import { FIRST_WINDOW_PAGE, WINDOW_FILL_KEY, WINDOW_PAGE, type WindowFill } from '#client/sync/window-fill';
import type { PullRequest, PullResponse } from '#sync/protocol/messages';
import { readFeedPage, readVia } from '#server/videos/feed-rows';

// The feed window in pages (docs/decisions/0028-the-window-in-pages.md): the first screen's cards
// come first, each page is one apply with its cursor, and a reload in the middle resumes.
const s = useSyncServer();

/** The feed as the server shows it to a member now, newest first. */
async function serverFeed(userId: string): Promise<string[]> {
  const page = await readFeedPage(readVia(s.t.deps.engine, s.t.deps.db), userId, 300, null);
  return page.items.map((v) => v.id);
}

/**
 * A device's fetch that records each pull's body, holds the second pull until released, and fails
 * the third before it leaves (the page is closed then).
 */
function pagedNetwork() {
  const net = new Network();
  const pulls: PullRequest[] = [];
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const fetchFn: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/api/sync/pull')) {
      const n = pulls.push(JSON.parse(String(init?.body)) as PullRequest);
      if (n === 2) await held;
      if (n === 3) throw new TypeError('fetch failed (the page was closed)');
    }
    return net.fetch(input, init);
  };
  return { pulls, release, fetch: fetchFn };
}

describe('the feed window in pages', () => {
  it('shows the first cards before the window is written, and a reload mid-window resumes without gaps or repeats', async () => {
    const { alice, bob } = s;
    const base = 1_800_000_000_000;
    const ids: string[] = [];
    for (let i = 0; i < 70; i++) ids.push(await insertVideo(s.t.deps, bob.id, { createdAt: base + i * 1000 }));
    const newestFirst = [...ids].reverse();

    const device = newDevice();
    const net = pagedNetwork();
    const first = engineFor(device.db, alice, s.http.url, new Network(), { fetch: net.fetch });
    s.running.push(first.engine);
    await first.engine.start();

    // The first pull asked for a small snapshot; its cards are on the device while the next page is held.
    await vi.waitFor(() => expect(net.pulls.length).toBe(2));
    expect(net.pulls[0]).toMatchObject({ cursor: null, window_page: FIRST_WINDOW_PAGE });
    expect(net.pulls[0]?.window_after).toBeUndefined();
    const shown = await readFeed(device.db, alice.id);
    expect(shown.items.map((v) => v.id)).toEqual(newestFirst.slice(0, FIRST_WINDOW_PAGE));
    const fill = await getMeta<WindowFill>(device.db, WINDOW_FILL_KEY);
    expect(fill?.left).toBe(300 - FIRST_WINDOW_PAGE);
    expect(net.pulls[1]).toMatchObject({ window_page: WINDOW_PAGE, window_after: fill?.after });
    expect(await getMeta(device.db, FEED_END_KEY)).toBe(false);

    // A like queued on a shown card, then the second page arrives, and the third pull never leaves.
    const liked = newestFirst[0]!;
    await first.engine.mutate('like', { videoId: liked });
    net.release();
    await vi.waitFor(() => expect(net.pulls.length).toBe(3));
    await first.engine.stop();
    const applied = FIRST_WINDOW_PAGE + WINDOW_PAGE;
    expect(await device.db.videos.count()).toBe(applied);
    const midFill = await getMeta<WindowFill>(device.db, WINDOW_FILL_KEY);
    expect(midFill?.left).toBe(300 - applied);

    // Meanwhile the server moves: a new video on top, one below the device's pages deleted, one liked.
    const fresh = await insertVideo(s.t.deps, bob.id, { createdAt: base + 100_000 });
    const gone = newestFirst[50]!;
    const likedBelow = newestFirst[60]!;
    const bobDevice = newDevice();
    const bobs = engineFor(bobDevice.db, bob, s.http.url, new Network());
    s.running.push(bobs.engine);
    await bobs.engine.start();
    await bobs.engine.mutate('deleteVideo', { videoId: gone });
    await bobs.engine.mutate('like', { videoId: likedBelow });
    expect(await bobs.engine.sync()).toBe(true);

    // The reload: a new engine on the same IndexedDB continues the window from the stored fill.
    const reloaded = device.reopen();
    const bodies: PullRequest[] = [];
    const net2 = new Network();
    const record: typeof fetch = (input, init) => {
      if (String(input).endsWith('/api/sync/pull')) bodies.push(JSON.parse(String(init?.body)) as PullRequest);
      return net2.fetch(input, init);
    };
    const second = engineFor(reloaded, alice, s.http.url, net2, { fetch: record });
    s.running.push(second.engine);
    await second.engine.start();
    expect(await second.engine.sync()).toBe(true);

    expect(bodies[0]).toMatchObject({ cursor: expect.any(String), window_after: midFill?.after });
    const feed = await readFeed(reloaded, alice.id);
    const want = await serverFeed(alice.id);
    expect(want).toContain(fresh);
    expect(want).not.toContain(gone);
    expect(feed.items.map((v) => v.id)).toEqual(want);
    expect(await getMeta(reloaded, WINDOW_FILL_KEY)).toBeNull();
    expect(await getMeta(reloaded, FEED_END_KEY)).toBe(true);
    expect((await reloaded.videos.get(likedBelow))?.likes_count).toBe(1);
    // The like queued before the reload was applied once and left the outbox.
    expect((await videoTruth(s.t.deps, liked)).likes).toBe(1);
    expect((await reloaded.videos.get(liked))?.likes_count).toBe(1);
    expect(await reloaded.outbox.count()).toBe(0);
  });

  it('does not apply a window page another tab applied first', async () => {
    const device = newDevice();
    const empty = { ...emptyPullLists(), videos: [] } satisfies Omit<PullResponse, 'cursor' | 'reset'>;
    expect(await applyPull(device.db, 'u', 'c', null, { ...empty, cursor: '5', reset: true, window_next: 'A' })).toBe(true);
    const fill = (await getMeta<WindowFill>(device.db, WINDOW_FILL_KEY))!;
    expect(fill).toEqual({ after: 'A', left: 300 });
    // Tab one applies the page below A; tab two, which asked at the same cursor and fill, is refused.
    expect(await applyPull(device.db, 'u', 'c', '5', { ...empty, cursor: '5', reset: false, window_next: 'B' }, Date.now(), 1000, fill)).toBe(true);
    expect(await applyPull(device.db, 'u', 'c', '5', { ...empty, cursor: '5', reset: false, window_next: 'C' }, Date.now(), 1000, fill)).toBe(false);
    expect(await getMeta(device.db, WINDOW_FILL_KEY)).toEqual({ after: 'B', left: 300 - WINDOW_PAGE });
    expect(await getMeta(device.db, CURSOR_KEY)).toBe('5');
  });

  it('refuses a window cursor it never made or a page size out of range, and pages only when asked', async () => {
    const pull = (body: Record<string, unknown>) => call(s.t.app, 'POST', '/api/sync/pull', { cursor: null, ...body }, s.alice.token);
    const bad = await pull({ cursor: '0', window_page: 5, window_after: 'not a cursor!' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 'invalid_cursor' } });
    for (const window_page of [0, 301, 2.5]) expect((await pull({ window_page })).status).toBe(400);
    // Without window fields the answer is as before: the whole window, no window_next.
    const whole = await pull({});
    expect(whole.status).toBe(200);
    expect(whole.json).not.toHaveProperty('window_next');
    const paged = await pull({ window_page: 2 });
    expect((paged.json as PullResponse).videos).toHaveLength(2);
    expect((paged.json as PullResponse).window_next).toEqual(expect.any(String));
  });
});
