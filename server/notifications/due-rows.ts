import type { AppDeps } from '../context';

// The notifications whose push is due, claimed by this sender (docs/notifications.md, "Delivery").

export interface ClaimedRow {
  id: string;
  kind: string;
  user_id: string;
  video_id: string | null;
  actor_id: string | null;
  created_at: number;
}

/**
 * Reads up to `limit` rows due now and claims each with `UPDATE … SET push_due_at = NULL WHERE id = ?
 * AND push_due_at = ?`: of two instances (or a like that moved it) one wins, so no row is sent twice.
 * Answers how many were due and the ones claimed here.
 */
export async function claimDue(deps: Pick<AppDeps, 'db' | 'now'>, limit: number): Promise<{ found: number; rows: ClaimedRow[] }> {
  const due = await deps.db
    .selectFrom('notifications')
    .select(['id', 'push_due_at', 'kind', 'user_id', 'video_id', 'actor_id', 'created_at'])
    .where('push_due_at', '<=', deps.now())
    .orderBy('push_due_at')
    .limit(limit)
    .execute();
  const rows: ClaimedRow[] = [];
  for (const { push_due_at, ...row } of due) {
    const r = await deps.db
      .updateTable('notifications')
      .set({ push_due_at: null })
      .where('id', '=', row.id)
      .where('push_due_at', '=', push_due_at)
      .executeTakeFirst();
    // Another instance (or a newer like that moved it) got there first.
    if (Number(r.numUpdatedRows)) rows.push(row);
  }
  return { found: due.length, rows };
}

/** The kinds that are one member's words on a video: a comment on one's video, a reply, a mention. */
const WORDS: ReadonlySet<string> = new Set(['comment', 'reply', 'mention']);

/**
 * The ids to push: comments (replies, mentions) claimed together from one member on one video are
 * one push, the newest (as a video's likes are one row): a hundred comments in one sync push were a
 * hundred pushes. Each comment stays its own row in the list.
 */
export function newestPerCommenter(rows: readonly ClaimedRow[]): string[] {
  const newest = new Map<string, ClaimedRow>();
  for (const row of rows) {
    const key = WORDS.has(row.kind) && row.actor_id ? `${row.user_id}\u0000${row.video_id ?? ''}\u0000${row.actor_id}` : row.id;
    const kept = newest.get(key);
    if (!kept || row.created_at > kept.created_at || (row.created_at === kept.created_at && row.id > kept.id)) newest.set(key, row);
  }
  return [...newest.values()].map((r) => r.id);
}
