import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { CommentItem } from '#sync/protocol/messages';
import { commentItem } from '#tests/helpers/comment-item';
import { openClientDb, toCommentRow } from './db';
import { enqueueInTx } from './outbox';
import { readComments } from './queries';
import { rebase } from './rebase';
import { loadThreadPage, threadPagePath } from './thread-page';
import { runTx } from './tx-queue';

// A reply of the thread under "top", answering its owner.
const item = (id: string, s: number, over: Partial<CommentItem> = {}): CommentItem =>
  commentItem({
    id,
    user_id: 'someone',
    created_at: new Date(1_700_000_000_000 + s * 1000).toISOString(),
    parent_id: 'top',
    reply_to_user_id: 'owner',
    reply_to_handle: 'owner',
    ...over,
  });

describe('loadThreadPage', () => {
  it("asks for the thread's page and keeps its replies through a rebase, with the member's queued changes on top", async () => {
    const db = openClientDb('thread-page', { indexedDB: new IDBFactory(), IDBKeyRange });
    const top = toCommentRow(item('top', 0, { parent_id: null, reply_to_user_id: null, reply_to_handle: null, reply_count: 3 }));
    await Promise.all([db.server_comments.put(top), db.comments.put(top)]);
    // Liked before the reply was on the device (a like queued from another screen): shown once it is.
    await runTx(db, () => enqueueInTx(db, 'me', { name: 'likeComment', args: { commentId: 'r1' } }, 1));

    const asked: string[] = [];
    const pages: Record<string, { items: CommentItem[]; next_cursor: string | null }> = {
      [threadPagePath('v1', 'top', null)]: { items: [item('r1', 1), item('r2', 2), item('stray', 3, { parent_id: 'other' })], next_cursor: 'c2' },
      [threadPagePath('v1', 'top', 'c2')]: { items: [item('r3', 4)], next_cursor: null },
    };
    const get = async (path: string) => {
      asked.push(path);
      return pages[path];
    };
    expect(await loadThreadPage(db, 'me', { videoId: 'v1', parentId: 'top' }, null, get)).toBe('c2');
    expect(asked).toEqual(['/api/videos/v1/comments?parent=top']);
    let snap = await readComments(db, 'me', 'v1');
    expect(snap.replies.top!.map((r) => [r.id, r.liked_by_me, r.likes_count])).toEqual([
      ['r1', true, 1],
      ['r2', false, 0],
    ]);
    expect(await db.server_comments.get('r1')).toMatchObject({ liked_by_me: false, likes_count: 0 });
    expect(await db.comments.get('stray')).toBeUndefined();

    expect(await loadThreadPage(db, 'me', { videoId: 'v1', parentId: 'top' }, 'c2', get)).toBeNull();
    expect(asked[1]).toBe('/api/videos/v1/comments?parent=top&cursor=c2');
    // Another rebase (a pull's) starts from the server copy: the thread's replies stay.
    await runTx(db, () => rebase(db, 'me', [], false, ['v1']));
    snap = await readComments(db, 'me', 'v1');
    expect(snap.replies.top!.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
    db.close();
  });

  it('refuses an answer of the wrong shape and writes nothing', async () => {
    const db = openClientDb('thread-page-bad', { indexedDB: new IDBFactory(), IDBKeyRange });
    await expect(loadThreadPage(db, 'me', { videoId: 'v1', parentId: 'top' }, null, async () => ({ items: [{ id: 'x' }] }))).rejects.toThrow();
    expect(await db.server_comments.count()).toBe(0);
    db.close();
  });
});
