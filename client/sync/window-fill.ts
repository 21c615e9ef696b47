import { FEED_WINDOW } from '#sync/protocol/limits';
import type { PullResponse } from '#sync/protocol/messages';

/**
 * The feed window in pages (docs/decisions/0028-the-window-in-pages.md): a snapshot brings the
 * first screen's videos, and each later pull brings the next page with the changes since the last
 * one, all under one cursor. What is left to fetch is stored with the cursor, in the same
 * transaction, so a reload resumes where the last applied page ended.
 */
export const WINDOW_FILL_KEY = 'windowFill';

/** Videos of a snapshot: the first screen's cards, few enough to apply and draw at once. */
export const FIRST_WINDOW_PAGE = 8;
/** Videos of each later page of the window. */
export const WINDOW_PAGE = 25;

/** The window being filled: the feed cursor its next page starts below, and how many videos it still lacks. */
export interface WindowFill {
  after: string;
  left: number;
}

/** The pull request's window fields for a device at `fill` (null: no window being filled). */
export function windowRequest(fill: WindowFill | null): { window_page: number; window_after?: string } {
  return fill ? { window_page: Math.min(WINDOW_PAGE, fill.left), window_after: fill.after } : { window_page: FIRST_WINDOW_PAGE };
}

/**
 * The fill after applying `res`, asked at `fill`; undefined when the answer carried no window page
 * (an older server, or a quiet pull): the stored fill stays as it was.
 */
export function nextFill(fill: WindowFill | null, res: PullResponse): WindowFill | null | undefined {
  if (res.window_next === undefined) return res.reset ? null : undefined;
  if (res.window_next === null) return null;
  const left = res.reset ? FEED_WINDOW - res.videos.length : fill ? fill.left - windowRequest(fill).window_page : 0;
  return left > 0 ? { after: res.window_next, left } : null;
}
