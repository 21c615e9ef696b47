import type { LocalComment } from '#client/sync/queries';

/** A comment as the dialog shows it: the local row (sync/protocol/messages.ts, CommentItem) and whether it waits to sync. */
export type CommentView = LocalComment;

/** Who is looking, for what each comment offers them (docs/sync.md, "Mutations"). */
export interface CommentViewer {
  /** Null when signed out: nothing but reading. */
  userId: string | null;
  isAdmin: boolean;
  /** The video's creator: they delete any comment on it and pin one. */
  videoOwnerId: string | null;
}

/** The author, the video's owner and an admin may delete a comment; a tombstone is already deleted. */
export function canDelete(c: CommentView, v: CommentViewer): boolean {
  if (c.deleted || !v.userId) return false;
  return c.user_id === v.userId || v.videoOwnerId === v.userId || v.isAdmin;
}

/** A signed-in member may report another member's comment, and mute or block its author. */
export function canModerateAuthor(c: CommentView, v: CommentViewer): boolean {
  return !c.deleted && !c.pending && v.userId !== null && c.user_id !== v.userId;
}

/** Only the video's owner pins, and only a top-level comment. */
export function canPin(c: CommentView, v: CommentViewer): boolean {
  return !c.deleted && c.parent_id === null && v.userId !== null && v.videoOwnerId === v.userId;
}
