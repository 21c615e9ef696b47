import type { Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { QUALIFYING_WATCH_MS } from '#sync/protocol/limits';
import { applyScoreEvent, type ScoreMemo } from './score-events';

/**
 * Players measure less than the container's duration for a video watched to its end (time-update
 * events come every ~250 ms, so the first and last slices go unmeasured), and may round the other
 * way too.
 */
export const END_TOLERANCE_MS = 600;
export const OVERRUN_TOLERANCE_MS = 1000;
/**
 * How far a viewer's credited watch time may run ahead of the server's clock: covers the gap between
 * a watch ending and its push leaving the device, and clock granularity. Spent once, not per push.
 */
export const WATCH_ALLOWANCE_MS = 10_000;

/** The least watch time a credited view costs: a video of a split second still takes time to play. */
export const MIN_VIEW_CHARGE_MS = 250;

export type ViewRefusal = 'video_not_found' | 'own_video' | 'already_viewed' | 'too_short' | 'longer_than_video' | 'too_fast';

/** How long a viewer must have watched this video for the view to count. */
export function requiredWatchMs(durationMs: number): number {
  return Math.max(0, Math.min(QUALIFYING_WATCH_MS, durationMs - END_TOLERANCE_MS));
}

/**
 * The watch-time part of the rule, on its own: long enough, and not longer than the video (a
 * player that loops reports at most the duration; more is a forged report).
 */
export function viewQualifies(v: { watchedMs: number; durationMs: number }): { ok: true } | { ok: false; reason: ViewRefusal } {
  if (!Number.isFinite(v.watchedMs) || v.watchedMs < 0) return { ok: false, reason: 'too_short' };
  if (v.durationMs > 0 && v.watchedMs > v.durationMs + OVERRUN_TOLERANCE_MS) return { ok: false, reason: 'longer_than_video' };
  if (v.watchedMs < requiredWatchMs(v.durationMs)) return { ok: false, reason: 'too_short' };
  return { ok: true };
}

/**
 * When the watch ended: the client's time if it sent one (views are queued offline and arrive in
 * bursts), but never before the earliest end the credited timeline allows (`earliest`), never
 * before the video existed and never in the future. So it lies within [previous credited push, now].
 */
export function viewTime(v: { clientTime?: number | undefined; now: number; videoCreatedAt: number; earliest: number }): number {
  const claimed = v.clientTime ?? v.now;
  return Math.min(v.now, Math.max(v.earliest, v.videoCreatedAt, claimed));
}

export interface RecordViewInput {
  viewerId: string;
  videoId: string;
  watchedMs: number;
  /** The mutation's client_time, when the client sent one. */
  clientTime?: number | undefined;
  now: number;
  /** The push batch's facts; its viewWindows make the views of one push share one window. Without it, each call is a push of its own. */
  memo?: ScoreMemo;
}

export type RecordViewResult = { counted: true; creatorId: string; scored: boolean } | { counted: false; reason: ViewRefusal };

/**
 * The viewer's watch-time window for this push. Credited watches are laid end to end on a timeline
 * that starts at the server time of their previous credited push, or where their credited watches
 * already end if that is later (the allowance is spent once, not per push); for a first view ever,
 * when the account was created. `used` is the watch time credited in this push so far.
 */
async function windowOf(trx: Transaction<Database>, viewerId: string, memo: ScoreMemo | undefined): Promise<{ start: number; used: number }> {
  const known = memo?.viewWindows.get(viewerId);
  if (known) return known;
  const row = await trx.selectFrom('view_credits').select(['credited_at', 'credited_until']).where('user_id', '=', viewerId).executeTakeFirst();
  const start = row
    ? Math.max(Number(row.credited_at), Number(row.credited_until))
    : Number((await trx.selectFrom('profiles').select('created_at').where('id', '=', viewerId).executeTakeFirst())?.created_at ?? 0);
  const w = { start, used: 0 };
  memo?.viewWindows.set(viewerId, w);
  return w;
}

/**
 * The whole server side of "a viewer watched a video", in the caller's transaction: checks the
 * rule, stores the one view per viewer and video, bumps views_count and moves the viewer's points.
 * A view that does not count changes nothing and is not an error (the outbox must not retry it).
 *
 * Anti-cheat: one view per viewer and video ever (views primary key); no views of deleted videos;
 * no more watch time than the video has; and the watch time credited in a push never exceeds the
 * server time elapsed since the viewer's previous credited push plus WATCH_ALLOWANCE_MS. The
 * client's clock decides nothing: a backdated batch buys nothing, and an offline session of any
 * length is covered by the time that really passed.
 */
export async function recordQualifyingView(trx: Transaction<Database>, input: RecordViewInput): Promise<RecordViewResult> {
  const video = await trx.selectFrom('videos').select(['id', 'user_id', 'duration_ms', 'created_at']).where('id', '=', input.videoId).executeTakeFirst();
  if (!video) return { counted: false, reason: 'video_not_found' };
  if (video.user_id === input.viewerId) return { counted: false, reason: 'own_video' };
  const rule = viewQualifies({ watchedMs: input.watchedMs, durationMs: video.duration_ms });
  if (!rule.ok) return { counted: false, reason: rule.reason };
  const seen = await trx.selectFrom('views').select('user_id').where('video_id', '=', input.videoId).where('user_id', '=', input.viewerId).executeTakeFirst();
  if (seen) return { counted: false, reason: 'already_viewed' };

  const window = await windowOf(trx, input.viewerId, input.memo);
  // The credited watches laid end to end from the window's start: this one ends at `earliest`.
  const charge = Math.max(input.watchedMs, requiredWatchMs(video.duration_ms), MIN_VIEW_CHARGE_MS);
  const earliest = window.start + window.used + charge;
  if (earliest > input.now + WATCH_ALLOWANCE_MS) return { counted: false, reason: 'too_fast' };
  window.used += charge;
  const credit = { credited_at: input.now, credited_until: earliest };
  await trx
    .insertInto('view_credits')
    .values({ user_id: input.viewerId, ...credit })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(credit))
    .execute();

  const t = viewTime({ clientTime: input.clientTime, now: input.now, videoCreatedAt: Number(video.created_at), earliest });
  await trx.insertInto('views').values({ video_id: input.videoId, user_id: input.viewerId, watched_ms: input.watchedMs, created_at: t }).execute();
  await trx
    .updateTable('videos')
    .set((eb) => ({ views_count: eb('views_count', '+', 1) }))
    .where('id', '=', input.videoId)
    .execute();
  const scored = await applyScoreEvent(
    trx,
    { kind: 'view', actorId: input.viewerId, creatorId: video.user_id, delta: 1, occurredAt: t, at: input.now },
    input.memo,
  );
  return { counted: true, creatorId: video.user_id, scored };
}
