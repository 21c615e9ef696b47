import type { Transaction, Kysely } from 'kysely';
import type { Database } from '#db/schema';

export type ChangeEntity = 'video' | 'comment' | 'like' | 'profile' | 'leaderboard' | 'settings';

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

/**
 * Appends to the change log in the caller's transaction, so a pull cursor (the log's seq) never
 * sees a change whose rows are not committed, and never misses one that is.
 */
export async function logChange(trx: Transaction<Database> | Kysely<Database>, change: Change, now: number): Promise<void> {
  await trx.insertInto('change_log').values(changeRow(change, now)).execute();
}
