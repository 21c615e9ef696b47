import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { CommentItem } from '#sync/protocol/messages';
import { commentThreads, readComments } from './queries';
import { commentItem } from '#tests/helpers/comment-item';
import { commentsLoadedKey, openClientDb, setMeta, toCommentRow, type CommentRow } from './db';

const at = (s: number) => new Date(1_700_000_000_000 + s * 1000).toISOString();
const row = (id: string, s: number, over: Partial<CommentItem> = {}): CommentRow => toCommentRow(commentItem({ id, created_at: at(s), ...over }));

const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);

describe('commentThreads', () => {
  it('puts the pinned comment first, then the others newest first, and each thread oldest first', () => {
    const rows = [
      row('a', 1),
      row('b', 5, { pinned: true }),
      row('c', 9),
      row('r2', 12, { parent_id: 'a' }),
      row('r1', 11, { parent_id: 'a' }),
      row('r3', 10, { parent_id: 'c' }),
      // Its top-level comment is not on the device: not shown.
      row('orphan', 13, { parent_id: 'elsewhere' }),
    ];
    const { comments, replies } = commentThreads(rows, []);
    expect(ids(comments)).toEqual(['b', 'c', 'a']);
    expect(ids(replies.a!)).toEqual(['r1', 'r2']);
    expect(ids(replies.c!)).toEqual(['r3']);
    expect(replies.elsewhere).toBeUndefined();
    expect(
      Object.values(replies)
        .flat()
        .some((r) => r.id === 'orphan'),
    ).toBe(false);
  });

  it('breaks a tie of times by id, the way the server pages do', () => {
    const { comments, replies } = commentThreads([row('x', 1), row('y', 1), row('r-b', 2, { parent_id: 'x' }), row('r-a', 2, { parent_id: 'x' })], []);
    expect(ids(comments)).toEqual(['y', 'x']);
    expect(ids(replies.x!)).toEqual(['r-a', 'r-b']);
  });

  it('marks queued comments pending and applies the queued pins and unpins over the stored flags, one pin per video', () => {
    const rows = [row('a', 1, { pinned: true }), row('b', 2), row('c', 3)];
    const pinB = [{ seq: 1, name: 'pinComment', args: { commentId: 'b' } }];
    expect(commentThreads(rows, pinB).comments.map((c) => [c.id, c.pinned])).toEqual([
      ['b', true],
      ['c', false],
      ['a', false],
    ]);
    // A pin on another video's comment leaves this list's pin alone.
    expect(ids(commentThreads(rows, [{ seq: 1, name: 'pinComment', args: { commentId: 'elsewhere' } }]).comments.filter((c) => c.pinned))).toEqual(['a']);
    const thenUnpin = [...pinB, { seq: 2, name: 'unpinComment', args: { commentId: 'b' } }];
    expect(commentThreads(rows, thenUnpin).comments.filter((c) => c.pinned)).toEqual([]);
    const added = [{ seq: 3, name: 'addComment', args: { commentId: 'c', videoId: 'v1', content: 'text c' } }];
    expect(commentThreads(rows, added).comments.map((c) => [c.id, c.pending])).toEqual([
      ['a', false],
      ['c', true],
      ['b', false],
    ]);
  });

  it("shows a queued reply's @handle from the comment it answers, a reply to a reply too", () => {
    const rows = [
      row('top', 1, { reply_count: 2 }),
      row('theirs', 2, { parent_id: 'top', reply_to_user_id: 'author-top', reply_to_handle: 'h_top' }),
      // Written on this device: the device does not know the handle yet.
      row('mine', 3, { parent_id: 'top', reply_to_user_id: 'author-theirs' }),
    ];
    const queued = [{ seq: 1, name: 'addComment', args: { commentId: 'mine', videoId: 'v1', content: 'x', parentId: 'theirs' } }];
    const { replies } = commentThreads(rows, queued);
    expect(replies.top!.map((r) => [r.id, r.reply_to_handle, r.pending])).toEqual([
      ['theirs', 'h_top', false],
      ['mine', 'h_theirs', true],
    ]);
  });
});

describe('readComments', () => {
  it("reads one video's rows with the member's queue, and when the list was loaded whole", async () => {
    const db = openClientDb('comment-threads', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.comments.bulkPut([row('a', 1), row('r', 2, { parent_id: 'a' }), { ...row('other', 3), video_id: 'v2' }]);
    expect(await readComments(db, 'u', 'v1')).toMatchObject({ loaded: false, loadedAt: null });
    await setMeta(db, commentsLoadedKey('v1'), 42);
    await db.outbox.add({
      user_id: 'u',
      client_id: 'c',
      id: 1,
      name: 'likeComment',
      args: { commentId: 'r' },
      client_time: 0,
      status: 'pending',
      video_id: 'v1',
    });
    const snap = await readComments(db, 'u', 'v1');
    expect(snap).toMatchObject({ loaded: true, loadedAt: 42 });
    expect(ids(snap.comments)).toEqual(['a']);
    expect(ids(snap.replies.a!)).toEqual(['r']);
    db.close();
  });
});
