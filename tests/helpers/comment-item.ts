import type { CommentItem } from '#sync/protocol/messages';

/** A top-level CommentItem as a pull sends it (every field set, no counts), with `overrides` applied. */
export function commentItem(overrides: Partial<CommentItem> & Pick<CommentItem, 'id'>): CommentItem {
  return {
    video_id: 'v1',
    user_id: `author-${overrides.id}`,
    name: `Name ${overrides.id}`,
    handle: `h_${overrides.id}`,
    content: `text ${overrides.id}`,
    created_at: new Date(1_700_000_000_000).toISOString(),
    parent_id: null,
    reply_to_user_id: null,
    reply_to_handle: null,
    reply_count: 0,
    likes_count: 0,
    liked_by_me: false,
    pinned: false,
    deleted: false,
    mentions: [],
    ...overrides,
  };
}
