import type { CommentItem } from '#sync/protocol/messages';
import { toCommentRow, type ClientDb } from './db';
import { loadValidators } from './load-validators';
import { rebase } from './rebase';
import { runTx } from './tx-queue';

/** The API path of one page of a thread's replies, oldest first (docs/sync.md, "Mutations"). */
export function threadPagePath(videoId: string, parentId: string, cursor: string | null): string {
  const q = `parent=${encodeURIComponent(parentId)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  return `/api/videos/${encodeURIComponent(videoId)}/comments?${q}`;
}

/**
 * Loads one page of a thread's replies into the local database and answers the next page's cursor
 * (null: none). The replies go into the server copy as well as the shown rows, so a rebase keeps
 * them, and the member's queued changes are applied again on top (a queued like of a reply shows).
 * `get` is the caller's authenticated GET (client/lib/http), which throws when no answer came.
 */
export async function loadThreadPage(
  db: ClientDb,
  userId: string,
  thread: { videoId: string; parentId: string },
  cursor: string | null,
  get: (path: string) => Promise<unknown>,
): Promise<string | null> {
  const { videoId, parentId } = thread;
  const [{ CommentsPageSchema }, raw] = await Promise.all([loadValidators(), get(threadPagePath(videoId, parentId, cursor))]);
  const page = CommentsPageSchema.parse(raw);
  const rows = page.items.filter((c: CommentItem) => c.video_id === videoId && c.parent_id === parentId).map(toCommentRow);
  await runTx(db, async () => {
    await db.server_comments.bulkPut(rows);
    await rebase(db, userId, [], false, [videoId]);
  });
  return page.next_cursor;
}
