import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { applyScoreEvent } from './score-events';

/** decisions.md: a view counts after 3 s of watching, or when a shorter video was watched to its end. */
export const QUALIFYING_WATCH_MS = 3000;
/**
 * Players measure less than the container's duration for a video watched to its end (time-update
 * events come every ~250 ms, so the first and last slices go unmeasured), and may round the other
 * way too.
 */
export const END_TOLERANCE_MS = 600;
export const OVERRUN_TOLERANCE_MS = 1000;
/** Slack on wall-clock spacing between two counted views (event timing, clock granularity). */
export const SPACING_TOLERANCE_MS = 250;

export type ViewRefusal = 'video_not_found' | 'own_video' | 'already_viewed' | 'too_short' | 'longer_than_video' | 'too_fast';

/** How long a viewer must have watched this video for the view to count. */
export function requiredWatchMs(durationMs: number): number {
  return Math.max(0, Math.min(QUALIFYING_WATCH_MS, durationMs - END_TOLERANCE_MS));
}

/** The wall-clock time a qualifying watch of this video takes at the least: counted views are at least this far apart. */
export function minimumPlayMs(durationMs: number): number {
  return Math.max(0, Math.min(QUALIFYING_WATCH_MS, durationMs) - SPACING_TOLERANCE_MS);
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
 * bursts), never in the future and never before the video existed.
 */
export function viewTime(v: { clientTime?: number | undefined; now: number; videoCreatedAt: number }): number {
  const claimed = v.clientTime ?? v.now;
  return Math.min(v.now, Math.max(v.videoCreatedAt, claimed));
}

export interface RecordViewInput {
  viewerId: string;
  videoId: string;
  watchedMs: number;
  /** The mutation's client_time, when the client sent one. */
  clientTime?: number | undefined;
  now: number;
}

export type RecordViewResult = { counted: true; creatorId: string; scored: boolean } | { counted: false; reason: ViewRefusal };

/**
 * The whole server side of "a viewer watched a video", in the caller's transaction: checks the
 * rule, stores the one view per viewer and video, bumps views_count and moves the viewer's points.
 * A view that does not count changes nothing and is not an error (the outbox must not retry it).
 *
 * Anti-cheat: one view per viewer and video ever (views primary key); no views of deleted videos;
 * no more watch time than the video has; and a viewer's counted views never overlap in time: each
 * needs the play time of a qualifying watch in wall clock after the previous one, and before the next one.
 */
export async function recordQualifyingView(trx: Transaction<Database>, input: RecordViewInput): Promise<RecordViewResult> {
  const video = await trx.selectFrom('videos').select(['id', 'user_id', 'duration_ms', 'created_at']).where('id', '=', input.videoId).executeTakeFirst();
  if (!video) return { counted: false, reason: 'video_not_found' };
  if (video.user_id === input.viewerId) return { counted: false, reason: 'own_video' };
  const rule = viewQualifies({ watchedMs: input.watchedMs, durationMs: video.duration_ms });
  if (!rule.ok) return { counted: false, reason: rule.reason };
  const seen = await trx.selectFrom('views').select('user_id').where('video_id', '=', input.videoId).where('user_id', '=', input.viewerId).executeTakeFirst();
  if (seen) return { counted: false, reason: 'already_viewed' };

  const t = viewTime({ clientTime: input.clientTime, now: input.now, videoCreatedAt: Number(video.created_at) });
  const need = minimumPlayMs(video.duration_ms);
  const before = await trx
    .selectFrom('views')
    .select('created_at')
    .where('user_id', '=', input.viewerId)
    .where('created_at', '<=', t)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (before && t - Number(before.created_at) < need) return { counted: false, reason: 'too_fast' };
  const after = await trx
    .selectFrom('views')
    .innerJoin('videos', 'videos.id', 'views.video_id')
    .select(['views.created_at', 'videos.duration_ms'])
    .where('views.user_id', '=', input.viewerId)
    .where('views.created_at', '>', t)
    .orderBy('views.created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  if (after && Number(after.created_at) - t < minimumPlayMs(after.duration_ms)) return { counted: false, reason: 'too_fast' };

  await trx.insertInto('views').values({ video_id: input.videoId, user_id: input.viewerId, watched_ms: input.watchedMs, created_at: t }).execute();
  await trx.updateTable('videos').set((eb) => ({ views_count: eb('views_count', '+', 1) })).where('id', '=', input.videoId).execute();
  const scored = await applyScoreEvent(trx, { kind: 'view', actorId: input.viewerId, creatorId: video.user_id, delta: 1, occurredAt: t, at: input.now });
  return { counted: true, creatorId: video.user_id, scored };
}
