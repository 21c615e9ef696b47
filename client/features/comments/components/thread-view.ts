import type { CommentView } from './types';

// What a thread shows while collapsed and the words of its button (pure: tested without a browser).

/**
 * The replies a collapsed thread still shows: the viewer's own, so a reply written here appears at
 * once under its comment; `hidden` is how many more the thread holds (its reply count, the server's
 * or the device's with the queued replies).
 */
export function collapsedThread(top: CommentView, replies: readonly CommentView[], userId: string | null): { shown: CommentView[]; hidden: number } {
  const shown = userId ? replies.filter((r) => r.user_id === userId) : [];
  return { shown, hidden: Math.max(0, top.reply_count - shown.length) };
}

/** "View 3 replies", "View 1 reply"; "View 2 more replies" when some are shown already. */
export function viewRepliesLabel(hidden: number, someShown: boolean): string {
  const more = someShown ? ' more' : '';
  return hidden === 1 ? `View 1${more} reply` : `View ${hidden}${more} replies`;
}
