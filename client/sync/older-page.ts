import { encodeFeedCursor } from '#sync/protocol/feed-cursor';
import { FEED_END_KEY, MAX_CACHED_VIDEOS } from './apply-pull';
import { getMeta, setMeta, toVideoRow, type ClientDb } from './db';
import { loadValidators } from './load-validators';
import { rebase } from './rebase';
import { TemporaryError, type Requester } from './sync-transport';
import { runTx } from './tx-queue';

export const PAGE_SIZE = 20;

/** Fetches the page below the oldest cached video. Resolves false when there is nothing more. */
export async function loadOlderPage(db: ClientDb, userId: string, request: Requester): Promise<boolean> {
  if ((await getMeta<boolean>(db, FEED_END_KEY)) === true) return false;
  if ((await db.videos.count()) >= MAX_CACHED_VIDEOS) return false;
  const oldest = await db.server_videos.orderBy('[created_ms+id]').first();
  const q = `limit=${PAGE_SIZE}${oldest ? `&cursor=${encodeFeedCursor(oldest.created_ms, oldest.id)}` : ''}`;
  const res = await request(`/api/videos?${q}`, { method: 'GET' });
  if (!res.ok) throw new TemporaryError(`feed page: ${res.status}`);
  const [{ FeedPageSchema }, raw] = await Promise.all([loadValidators(), res.json()]);
  const page = FeedPageSchema.parse(raw);
  await runTx(db, async () => {
    const rows = page.items.map(toVideoRow);
    const fresh = [];
    for (const r of rows) if (!(await db.server_videos.get(r.id))) fresh.push(r);
    await db.server_videos.bulkPut(fresh);
    await db.videos.bulkPut(fresh);
    await rebase(
      db,
      userId,
      fresh.map((r) => r.id),
    );
    if (!page.next_cursor) await setMeta(db, FEED_END_KEY, true);
  });
  return page.next_cursor !== null;
}
