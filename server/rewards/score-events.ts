import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * One thing that moves leaderboard points. Every write path that adds or removes a like, comment or
 * qualifying view calls applyScoreEvent in the same transaction, so the maintained counters in
 * `scores` always equal a full recomputation.
 */
export interface ScoreEvent {
  kind: 'like' | 'comment' | 'view';
  /** Who liked, commented or watched. */
  actorId: string;
  /** Owner of the video. */
  creatorId: string;
  /** +1 when added, -1 when removed. */
  delta: 1 | -1;
  /** When the like/comment/view was originally made (a removal passes the original time). */
  occurredAt: number;
  /** Now: the time the new total was reached. */
  at: number;
}

/** Start of the current scoring period: the newest distribution's time, or 0. */
export async function currentPeriodStart(trx: Transaction<Database>): Promise<number> {
  const row = await trx.selectFrom('distributions').select((eb) => eb.fn.max('created_at').as('start')).executeTakeFirst();
  return Number(row?.start ?? 0);
}

export async function applyScoreEvent(trx: Transaction<Database>, e: ScoreEvent): Promise<void> {
  // Own videos never score (spec section 9, decisions.md), and only this period's actions count.
  if (e.actorId === e.creatorId) return;
  if (e.occurredAt < (await currentPeriodStart(trx))) return;
  if (e.kind !== 'view') await bump(trx, e.creatorId, 'creator', e.delta, e.at);
  await bump(trx, e.actorId, 'viewer', e.delta, e.at);
}

async function bump(trx: Transaction<Database>, userId: string, board: 'creator' | 'viewer', delta: number, at: number) {
  const points = board === 'creator' ? 'creator_points' : 'viewer_points';
  const reached = board === 'creator' ? 'creator_reached_at' : 'viewer_reached_at';
  await trx
    .insertInto('scores')
    .values({ user_id: userId, creator_points: 0, viewer_points: 0, creator_reached_at: at, viewer_reached_at: at })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  await trx
    .updateTable('scores')
    .set((eb) => ({ [points]: eb(points, '+', delta), [reached]: at }))
    .where('user_id', '=', userId)
    .execute();
}
