import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { runMutation } from '#sync/mutations/catalogue';
import { commentItem } from '#tests/helpers/comment-item';
import { clientMutationTx } from './client-tables';
import { openClientDb, toCommentRow, type ClientDb } from './db';
import { runTx } from './tx-queue';

// deleteComment on the device (sync/mutations/delete-comment.ts): whether the comment stays as a
// tombstone is read from its reply count, not from the replies the device holds (a thread is on the
// device only once it was opened there).

async function deviceWith(...comments: Parameters<typeof commentItem>[0][]): Promise<ClientDb> {
  const db = openClientDb(`delete-comment-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.comments.bulkPut(comments.map((c) => toCommentRow(commentItem(c))));
  return db;
}

async function deleteOnDevice(db: ClientDb, userId: string, commentId: string): Promise<void> {
  await runTx(db, () => runMutation(clientMutationTx(db, userId, Date.now()), { name: 'deleteComment', args: { commentId } }));
}

describe('deleteComment on the device', () => {
  it('keeps a comment whose replies the device never loaded as a tombstone', async () => {
    const db = await deviceWith({ id: 'top', user_id: 'me', reply_count: 2 });
    await deleteOnDevice(db, 'me', 'top');
    expect(await db.comments.get('top')).toMatchObject({ deleted: true, content: '' });
  });

  it('removes a comment without replies, and an emptied tombstone with its last reply', async () => {
    const db = await deviceWith(
      { id: 'lonely', user_id: 'me' },
      { id: 'tomb', user_id: 'x', deleted: true, content: '', reply_count: 1 },
      { id: 'r', user_id: 'me', parent_id: 'tomb' },
    );
    await deleteOnDevice(db, 'me', 'lonely');
    await deleteOnDevice(db, 'me', 'r');
    expect(await db.comments.toArray()).toEqual([]);
  });
});
