import { randomUUID } from 'node:crypto';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientMutationTx } from '#client/sync/client-tables';
import { Changes } from '#server/changes/changes';
import { kyselySink } from '#server/changes/write-tx';
import { serverMutationTx } from '#server/sync/mutations/server-tables';
import { newPushBatch } from '#server/sync/push';
import { defineEntity, type Table } from '#sync/entities/define-entity';
import { entities } from '#sync/entities/registry';
import { defineMutation } from '#sync/mutations/define-mutation';
import type { MutationTx } from '#sync/mutations/mutation-tx';
import { requireShownVideo } from '#sync/mutations/require-video';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from './sync-harness';

// The worked example of docs/sync.md ("Adding a mutation"), made true: a new entity needs its
// declaration, its mutation module, one catalogue line and its migration. The two table adapters
// are not touched: the entity goes through both as declared (the catalogue line is what
// mutations-both-sides.test.ts then runs on both sides; this file cannot add it to the real catalogue).

// 1. The declaration (in sync/entities/member-entities.ts, added to registry.ts's `entities`).
interface BookmarkRow {
  id: string;
  video_id: string;
  user_id: string;
  created_at: number;
}
const bookmarks = defineEntity<BookmarkRow>()({
  table: 'bookmarks',
  key: ['id'],
  columns: ['id', 'video_id', 'user_id', 'created_at'],
  stamps: { insert: 'created_at' },
  // A member's bookmarks are their own: only their devices pull and are poked.
  log: { entity: 'bookmark', pull: 'own' },
  changes: (b) => ({ entityId: b.id, videoId: b.video_id, userId: b.user_id, reaches: `user:${b.user_id}` }),
  client: { kind: 'store', store: 'bookmarks', indexes: 'id, video_id', serverIndexes: 'id, video_id', since: 4 },
  rebase: { reset: 'server_bookmarks', by: 'id' },
});
const registry = { ...entities, bookmarks };
// With `bookmarks` in the registry, MutationTx has `tx.bookmarks` itself; here it is added by hand.
type Tx = MutationTx & { bookmarks: Table<typeof bookmarks> };

// 2. The mutation module (sync/mutations/<name>.ts, here bookmark-video.ts; its catalogue line: `bookmarkVideo,`).
const bookmarkVideo = defineMutation({
  name: 'bookmarkVideo',
  args: (k) => k.z.strictObject({ bookmarkId: k.id, videoId: k.id }),
  refusedTitle: 'Bookmark not saved',
  pendingOnCard: true,
  sample: ({ videoId, id }) => ({ bookmarkId: id('bookmark'), videoId }),
  run: async (tx, { bookmarkId, videoId }) => {
    await requireShownVideo(tx, videoId);
    const inserted = await (tx as Tx).bookmarks.insert({ id: bookmarkId, video_id: videoId, user_id: tx.userId });
    return inserted === false ? null : { bookmarkId };
  },
});

// 3. The migration (db/migrations/<NNNN>_bookmarks.ts, and its table in db/tables/).
async function migrate(t: TestApp): Promise<void> {
  await t.deps.db.schema
    .createTable('bookmarks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

describe('a new entity through both table adapters, untouched', () => {
  let t: TestApp;
  let member: TestUser;
  let videoId: string;

  beforeAll(async () => {
    t = await createTestApp();
    await migrate(t);
    const owner = await createUser(t.deps, { name: 'Owner' });
    member = await createUser(t.deps, { name: 'Member' });
    videoId = await insertVideo(t.deps, owner.id);
  });
  afterAll(() => t.close());

  /** The mutation in a push's transaction, over the server's adapter with the new entity registered. */
  async function onServer(args: { bookmarkId: string; videoId: string }) {
    return t.deps.db.transaction().execute(async (trx) => {
      const changes = new Changes(t.deps.now());
      const user = { id: member.id, email: member.email, name: member.name, isAdmin: false };
      const ctx = { trx, user, now: changes.now, clientTime: undefined, batch: newPushBatch(t.deps.engine, trx), changes, media: t.deps.media };
      const outcome = await bookmarkVideo.run(serverMutationTx(ctx, registry), args);
      const scopes = [...changes.scopes];
      await changes.flush(kyselySink(trx));
      return { outcome, scopes };
    });
  }

  it('the server stores it, stamps its time and declares its change to its member alone; a replay changes nothing', async () => {
    const args = bookmarkVideo.sample({
      videoId,
      commentId: 'no-comment',
      ownerId: member.id,
      strangerId: 'no-stranger',
      id: (label) => `${label}-${randomUUID()}`,
      notificationIds: [],
    });
    const before = t.deps.now();
    const first = await onServer(args);
    expect(first).toEqual({ outcome: { bookmarkId: args.bookmarkId }, scopes: [`user:${member.id}`] });
    const row = await t.deps.db
      .selectFrom('bookmarks' as never)
      .selectAll()
      .where('id' as never, '=', args.bookmarkId as never)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: args.bookmarkId, video_id: videoId, user_id: member.id });
    expect(Number((row as BookmarkRow).created_at)).toBeGreaterThanOrEqual(before);
    const logged = await t.deps.db
      .selectFrom('change_log')
      .selectAll()
      .where('entity', '=', 'bookmark' as never)
      .execute();
    expect(logged.map((c) => [c.entity_id, c.video_id, c.user_id, c.deleted])).toEqual([[args.bookmarkId, videoId, member.id, 0]]);
    expect(await onServer(args)).toEqual({ outcome: null, scopes: [] });
    const removed = await t.deps.db.transaction().execute(async (trx) => {
      const changes = new Changes(t.deps.now());
      const user = { id: member.id, email: member.email, name: member.name, isAdmin: false };
      const ctx = { trx, user, now: changes.now, clientTime: undefined, batch: newPushBatch(t.deps.engine, trx), changes, media: t.deps.media };
      const tx = serverMutationTx(ctx, registry) as MutationTx as Tx;
      const gone = [await tx.bookmarks.delete({ id: args.bookmarkId }), await tx.bookmarks.delete({ id: args.bookmarkId })];
      await changes.flush(kyselySink(trx));
      return gone;
    });
    expect(removed).toEqual([true, false]);
    const last = await t.deps.db
      .selectFrom('change_log')
      .select('deleted')
      .where('entity', '=', 'bookmark' as never)
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.deleted).toBe(1);
  });

  it('the device keeps it in the store its declaration names, and its adapter reads and deletes it', async () => {
    const db = new Dexie(`recipe-${randomUUID()}`, { indexedDB: new IDBFactory(), IDBKeyRange }) as Dexie;
    const stores = bookmarks.client.kind === 'store' ? bookmarks.client : null;
    db.version(1).stores({ videos: 'id', profile: 'id', [stores!.store]: stores!.indexes });
    await db.table('videos').put({ id: videoId, user_id: 'owner', duration_ms: 1000, likes_count: 0 });
    const args = { bookmarkId: `bookmark-${randomUUID()}`, videoId };
    await db.transaction('rw', db.tables, async () => {
      const tx = clientMutationTx(db, member.id, 1234, registry) as Tx;
      expect(await bookmarkVideo.run(tx, args)).toEqual({ bookmarkId: args.bookmarkId });
      expect(await tx.bookmarks.get({ id: args.bookmarkId })).toEqual({ id: args.bookmarkId, video_id: videoId, user_id: member.id, created_at: 1234 });
      expect([await tx.bookmarks.exists({ video_id: videoId, user_id: member.id }), await tx.bookmarks.exists({ video_id: 'another' })]).toEqual([true, false]);
    });
    expect(await db.table('bookmarks').get(args.bookmarkId)).toMatchObject({ video_id: videoId, created_at: 1234 });
    await db.transaction('rw', db.tables, async () => {
      const tx = clientMutationTx(db, member.id, 1235, registry) as Tx;
      await tx.bookmarks.delete({ id: args.bookmarkId });
      expect(await tx.bookmarks.exists({ id: args.bookmarkId })).toBe(false);
    });
    expect(await db.table('bookmarks').count()).toBe(0);
  });
});
