import { describe, expect, it } from 'vitest';
import { commentItem } from '#tests/helpers/comment-item';
import type { CommentView } from './types';
import { canDelete, canPin } from './types';
import { collapsedThread, viewRepliesLabel } from './thread-view';

const comment = (over: Partial<CommentView>): CommentView => ({ ...commentItem({ id: 'c', user_id: 'author' }), pending: false, ...over });

describe('a collapsed thread', () => {
  it("still shows the viewer's own replies and counts the rest", () => {
    const top = comment({ id: 't', reply_count: 3 });
    const replies = [comment({ id: 'r1', parent_id: 't' }), comment({ id: 'r2', parent_id: 't', user_id: 'me' })];
    expect(collapsedThread(top, replies, 'me')).toEqual({ shown: [replies[1]], hidden: 2 });
    expect(collapsedThread(top, replies, null)).toEqual({ shown: [], hidden: 3 });
    expect(collapsedThread(comment({ reply_count: 1 }), [comment({ user_id: 'me' })], 'me').hidden).toBe(0);
  });

  it('says how many replies it hides', () => {
    expect(viewRepliesLabel(1, false)).toBe('View 1 reply');
    expect(viewRepliesLabel(4, false)).toBe('View 4 replies');
    expect(viewRepliesLabel(1, true)).toBe('View 1 more reply');
    expect(viewRepliesLabel(2, true)).toBe('View 2 more replies');
  });
});

describe("a comment's actions", () => {
  const viewer = { userId: 'me', isAdmin: false, videoOwnerId: 'owner' };
  it('lets the author, the video owner and an admin delete, nobody a tombstone', () => {
    expect(canDelete(comment({ user_id: 'me' }), viewer)).toBe(true);
    expect(canDelete(comment({}), viewer)).toBe(false);
    expect(canDelete(comment({}), { ...viewer, userId: 'owner' })).toBe(true);
    expect(canDelete(comment({}), { ...viewer, isAdmin: true })).toBe(true);
    expect(canDelete(comment({ user_id: 'me', deleted: true }), viewer)).toBe(false);
    expect(canDelete(comment({}), { userId: null, isAdmin: false, videoOwnerId: null })).toBe(false);
  });

  it("lets only the video's owner pin, and only a top-level comment", () => {
    const owner = { ...viewer, userId: 'owner' };
    expect(canPin(comment({}), owner)).toBe(true);
    expect(canPin(comment({ parent_id: 'x' }), owner)).toBe(false);
    expect(canPin(comment({ deleted: true }), owner)).toBe(false);
    expect(canPin(comment({}), { ...viewer, isAdmin: true })).toBe(false);
  });
});
