import type { PullResponse } from '#sync/protocol/messages';
import { applyPull, MAX_CACHED_VIDEOS } from './apply-pull';
import type { ClientDb } from './db';
import { nextFill, type WindowFill } from './window-fill';

/**
 * A pull's answer as the server sent it, to be applied under the cursor (and window fill) it was
 * asked at (docs/decisions/0032-pulls-applied-in-a-worker.md). The text is parsed where it is
 * applied, so a worker that applies it spares the page the parse and the validation as well.
 */
export interface PullAsk {
  userId: string;
  clientId: string;
  askedCursor: string | null;
  fill: WindowFill | null;
  text: string;
  now: number;
}

/** What the puller needs back: whether it was written, the comment lists it loaded, whether window pages are left. */
export interface PullOutcome {
  applied: boolean;
  commentsLoaded: string[];
  more: boolean;
}

/**
 * Parses, validates and applies a pull's answer in one transaction with its cursor and fill
 * (apply-pull.ts). The same function runs in the worker and, where there is none, on the page.
 */
export async function applyPullAnswer(db: ClientDb, ask: PullAsk, parse: (raw: unknown) => PullResponse): Promise<PullOutcome> {
  const res = parse(JSON.parse(ask.text));
  const applied = await applyPull(db, ask.userId, ask.clientId, ask.askedCursor, res, ask.now, MAX_CACHED_VIDEOS, ask.fill);
  return { applied, commentsLoaded: res.comments_loaded, more: nextFill(ask.fill, res) != null };
}
