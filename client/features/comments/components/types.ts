import type { LocalComment } from '#client/sync/queries';

/** A comment as the dialog shows it: the local row (sync/protocol/messages.ts, CommentItem) and whether it waits to sync. */
export type CommentView = LocalComment;
