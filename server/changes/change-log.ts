import type { Transaction, Kysely } from 'kysely';
import type { Database } from '#db/schema';
import { lockChangeLog } from '#db/locks';

export type ChangeEntity =
  'video' | 'comment' | 'like' | 'profile' | 'leaderboard' | 'settings' | 'notification' | 'follow' | 'block' | 'mute' | 'account' | 'resync';

export interface Change {
  entity: ChangeEntity;
  entityId: string;
  /** The video a comment or like belongs to (pulls are scoped by it). */
  videoId?: string | null;
  /** The owner of a private row (own like, own profile). */
  userId?: string | null;
  deleted?: boolean;
}

/** The row a change becomes; also what the push's prepared insert takes (named parameters). */
export function changeRow(change: Change, now: number) {
  return {
    entity: change.entity,
    entity_id: change.entityId,
    video_id: change.videoId ?? null,
    user_id: change.userId ?? null,
    deleted: change.deleted ? 1 : 0,
    created_at: now,
  };
}

export type ChangeRow = ReturnType<typeof changeRow>;

/**
 * The one way change-log rows are written (docs/sync.md, "Concurrency on PostgreSQL"): in the
 * caller's transaction, as its LAST write, after taking the change-log lock that is held until the
 * commit. The log's seq is the pull cursor. On PostgreSQL a seq is drawn when the row is inserted
 * but seen only at the commit: without the lock, a transaction that drew seq 1 and committed after
 * the one that drew seq 2 would be skipped by a pull that already answered cursor 2. Under the lock
 * seqs are drawn in commit order. SQLite runs one writer at a time: there the lock is a no-op.
 */
export async function writeChangeLog(trx: Transaction<Database> | Kysely<Database>, rows: readonly ChangeRow[]): Promise<void> {
  if (!rows.length) return;
  await lockChangeLog(trx);
  await trx
    .insertInto('change_log')
    .values([...rows])
    .execute();
}
