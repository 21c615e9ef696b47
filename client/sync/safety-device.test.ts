import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { runMutation } from '#sync/mutations/catalogue';
import { commentItem } from '#tests/helpers/comment-item';
import { feedItem } from '#tests/helpers/feed-item';
import { clientMutationTx } from './client-tables';
import { openClientDb, setMeta, toCommentRow, toVideoRow, CURSOR_KEY, type ClientDb, type NotificationRow } from './db';
import { createFeedWatch } from './feed-watch';
import { readComments, readFeed } from './queries';
import { runTx } from './tx-queue';

// A block or a mute on the device (docs/decisions/0024-safety.md): the mutation purges the other
// member's cached rows in its own Dexie transaction (sync/entities/registry.ts, `purges`), and the
// local reads leave out what a later page or pull brings before the server has seen it.

const ME = 'me';

function freshDb(): ClientDb {
  return openClientDb(`safety-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

const video = (id: string, owner: string) =>
  toVideoRow(feedItem({ id, user_id: owner, created_at: new Date(1_700_000_000_000 + id.charCodeAt(1) * 1000).toISOString() }));
const comment = (id: string, author: string, parent: string | null = null) =>
  toCommentRow(commentItem({ id, user_id: author, video_id: 'v1', parent_id: parent }));
const notification = (id: string, actor: string) => ({ id, actor_id: actor, updated_ms: 1 }) as unknown as NotificationRow;

async function onDevice(db: ClientDb, name: 'block' | 'unblock' | 'mute' | 'unmute', userId: string): Promise<void> {
  await runTx(db, () => runMutation(clientMutationTx(db, ME, Date.now()), { name, args: { userId } }));
}

/** A device holding videos, comments and notifications of `bad` and `good`, in the shown and the server_ stores. */
async function deviceWithTwoMembers(): Promise<ClientDb> {
  const db = freshDb();
  const videos = [video('v1', 'good'), video('v2', 'bad'), video('v3', 'bad')];
  const comments = [comment('c1', 'good'), comment('c2', 'bad'), comment('c3', 'good', 'c2')];
  await Promise.all([
    db.videos.bulkPut(videos),
    db.server_videos.bulkPut(videos),
    db.comments.bulkPut(comments),
    db.server_comments.bulkPut(comments),
    db.notifications.bulkPut([notification('n1', 'good'), notification('n2', 'bad')]),
  ]);
  return db;
}

const ids = async (table: { toCollection(): { primaryKeys(): Promise<unknown[]> } }) => ((await table.toCollection().primaryKeys()) as string[]).sort();

describe('a block on the device', () => {
  it("removes the member's videos, comments and notifications from the shown and the server_ stores, and nobody else's", async () => {
    const db = await deviceWithTwoMembers();
    await onDevice(db, 'block', 'bad');
    expect(await ids(db.videos)).toEqual(['v1']);
    expect(await ids(db.server_videos)).toEqual(['v1']);
    expect(await ids(db.comments)).toEqual(['c1', 'c3']);
    expect(await ids(db.server_comments)).toEqual(['c1', 'c3']);
    expect(await ids(db.notifications)).toEqual(['n1']);
    expect(await db.blocks.get(`${ME}:bad`)).toMatchObject({ blocker_id: ME, blocked_id: 'bad' });
  });

  it('purges in the same transaction as the block: a failing transaction leaves every row', async () => {
    const db = await deviceWithTwoMembers();
    await expect(
      runTx(db, async () => {
        await runMutation(clientMutationTx(db, ME, Date.now()), { name: 'block', args: { userId: 'bad' } });
        throw new Error('the transaction fails after the block');
      }),
    ).rejects.toThrow('fails');
    expect(await ids(db.videos)).toEqual(['v1', 'v2', 'v3']);
    expect(await ids(db.server_comments)).toEqual(['c1', 'c2', 'c3']);
    expect(await ids(db.notifications)).toEqual(['n1', 'n2']);
    expect(await db.blocks.count()).toBe(0);
  });

  it('a mute takes the videos and notifications but keeps the comments (shown collapsed)', async () => {
    const db = await deviceWithTwoMembers();
    await onDevice(db, 'mute', 'bad');
    expect(await ids(db.videos)).toEqual(['v1']);
    expect(await ids(db.server_videos)).toEqual(['v1']);
    expect(await ids(db.notifications)).toEqual(['n1']);
    expect(await ids(db.comments)).toEqual(['c1', 'c2', 'c3']);
  });
});

describe('the local reads', () => {
  it("readFeed leaves out a blocked and a muted member's videos that arrive after the purge, and shows them again after unblock and unmute", async () => {
    const db = freshDb();
    await onDevice(db, 'block', 'bad');
    await onDevice(db, 'mute', 'dull');
    // A pull or an older page brings their rows before the server has seen the block.
    await db.videos.bulkPut([video('v1', 'good'), video('v2', 'bad'), video('v3', 'dull')]);
    expect((await readFeed(db, ME)).items.map((v) => v.id)).toEqual(['v1']);
    // Another member's blocks on this device are not this member's.
    expect((await readFeed(db, 'someone-else')).items.map((v) => v.id).sort()).toEqual(['v1', 'v2', 'v3']);
    await onDevice(db, 'unblock', 'bad');
    await onDevice(db, 'unmute', 'dull');
    await db.videos.bulkPut([video('v2', 'bad'), video('v3', 'dull')]);
    expect((await readFeed(db, ME)).items.map((v) => v.id).sort()).toEqual(['v1', 'v2', 'v3']);
  });

  it('the feed watch follows the blocks store: a block written later takes their videos off the watched feed', async () => {
    const db = freshDb();
    await setMeta(db, CURSOR_KEY, 'c');
    await db.videos.bulkPut([video('v1', 'good'), video('v2', 'bad')]);
    const watch = createFeedWatch(db, ME);
    const shown = () => watch.get()?.items.map((v) => v.id) ?? [];
    const next = () => new Promise<void>((resolve) => void unsubscribe.push(watch.subscribe(resolve)));
    const unsubscribe: Array<() => void> = [];
    await next();
    expect(shown().sort()).toEqual(['v1', 'v2']);
    // Written straight to the store (no purge): only the watch's filter can take v2 out.
    const changed = next();
    await db.blocks.put({ id: `${ME}:bad`, blocker_id: ME, blocked_id: 'bad', created_at: 1 });
    // A watch that does not follow the blocks store never calls: it fails on the check below, not by the test's timeout.
    await Promise.race([changed, new Promise((resolve) => setTimeout(resolve, 2000))]);
    expect(shown()).toEqual(['v1']);
    expect(shown()).toEqual((await readFeed(db, ME)).items.map((v) => v.id));
    for (const u of unsubscribe) u();
  });

  it("readComments leaves out a blocked member's comments and the replies under them, and marks a muted member's", async () => {
    const db = freshDb();
    await onDevice(db, 'block', 'bad');
    await onDevice(db, 'mute', 'dull');
    await db.comments.bulkPut([
      comment('c1', 'good'),
      comment('c2', 'bad'),
      comment('c3', 'good', 'c2'),
      comment('c4', 'dull'),
      comment('c5', 'bad', 'c1'),
      comment('c6', 'dull', 'c1'),
    ]);
    const { comments, replies } = await readComments(db, ME, 'v1');
    expect(comments.map((c) => [c.id, c.muted ?? false]).sort()).toEqual([
      ['c1', false],
      ['c4', true],
    ]);
    expect(replies.c1?.map((c) => [c.id, c.muted ?? false])).toEqual([['c6', true]]);
    expect(replies.c2).toBeUndefined();
  });
});
