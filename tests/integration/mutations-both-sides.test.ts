import { feedItem } from '#tests/helpers/feed-item';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { allTables, openClientDb, type ClientDb, type VideoRow } from '#client/sync/db';
import { clientMutationTx } from '#client/sync/client-tables';
import { mutationDef, mutationNames, runMutation, type AnyMutation, type MutationName } from '#sync/mutations/catalogue';
import type { SampleFixture } from '#sync/mutations/define-mutation';
import { parseMutation } from '#sync/mutations/parse-mutation';
import { MutationError } from '#sync/protocol/error-codes';
import { createTestApp, call, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo, videoTruth } from './sync-harness';

// Each mutation is written once and run on both sides: optimistically over the device's Dexie
// tables, authoritatively by the server's push. Run the same steps on both; the card the device
// shows must be what the server then holds.

type Step = { name: AnyMutation['name']; args: Record<string, unknown> };

describe('the mutation catalogue', () => {
  it('gives every mutation a schema, its metadata and its logic, and refuses what it does not know', () => {
    for (const name of mutationNames) {
      const def = mutationDef(name)!;
      expect(def.name).toBe(name);
      expect(typeof def.run).toBe('function');
      expect(def.refusedTitle === null || def.refusedTitle.length > 0).toBe(true);
      expect(parseMutation(name, {}).ok).toBe(false);
      // The both-sides runs below are made from these: every mutation has them, and they parse.
      expect(typeof def.sample, `${name} has no sample arguments`).toBe('function');
      const sample = def.sample({
        videoId: randomUUID(),
        commentId: randomUUID(),
        ownerId: randomUUID(),
        strangerId: randomUUID(),
        id: () => randomUUID(),
        notificationIds: [randomUUID()],
      });
      expect(parseMutation(name, sample).ok, `${name}'s sample arguments do not parse`).toBe(true);
    }
    expect(mutationDef('toString')).toBeUndefined();
    expect(parseMutation('editComment', { commentId: 'c1' })).toMatchObject({ ok: false, error: { code: 'unknown_mutation' } });
  });
});

describe('one mutation, two sides: the device shows what the server then holds', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let factory: IDBFactory;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.deps, { name: 'Owner' });
    member = await createUser(t.deps, { name: 'Member' });
    stranger = await createUser(t.deps, { name: 'Stranger' });
    factory = new IDBFactory();
  });
  afterAll(() => t.close());

  async function deviceWith(videoId: string, user: TestUser): Promise<ClientDb> {
    const db = openClientDb(`both-sides-${++seq}`, { indexedDB: factory, IDBKeyRange });
    const truth = await t.deps.db.selectFrom('videos').selectAll().where('id', '=', videoId).executeTakeFirstOrThrow();
    const row: VideoRow = {
      ...feedItem({
        id: truth.id,
        user_id: truth.user_id,
        user_name: 'Owner',
        title: truth.title,
        description: truth.description,
        video_url: '',
        created_at: new Date(truth.created_at).toISOString(),
        duration_ms: truth.duration_ms,
        likes_count: truth.likes_count,
        comments_count: truth.comments_count,
        shares_count: truth.shares_count,
        views_count: truth.views_count,
      }),
      created_ms: truth.created_at,
    };
    await db.videos.put(row);
    const me = await t.deps.db.selectFrom('profiles').select(['name', 'email', 'handle']).where('id', '=', user.id).executeTakeFirstOrThrow();
    await db.profile.put({
      id: user.id,
      name: me.name,
      handle: me.handle,
      followers_count: 0,
      following_count: 0,
      email: me.email,
      is_admin: false,
      created_at: new Date().toISOString(),
    });
    return db;
  }

  /** The steps on the device, each in its own read-write transaction; a refusal is recorded, not thrown. */
  async function onDevice(db: ClientDb, user: TestUser, steps: Step[]): Promise<string[]> {
    const refused: string[] = [];
    for (const step of steps) {
      const parsed = parseMutation(step.name, step.args);
      if (!parsed.ok) throw parsed.error;
      try {
        await db.transaction('rw', allTables(db), async () => {
          await runMutation(clientMutationTx(db, user.id, Date.now()), parsed.mutation);
        });
      } catch (e) {
        if (!(e instanceof MutationError)) throw e;
        refused.push(e.code);
      }
    }
    return refused;
  }

  async function onServer(user: TestUser, steps: Step[]): Promise<string[]> {
    const mutations = steps.map((s, i) => ({ id: i + 1, name: s.name, args: s.args, client_time: Date.now() }));
    const res = await call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations }, user.token);
    expect(res.status).toBe(200);
    return (res.json.results as Array<{ status: string; error?: { code: string } }>).filter((r) => r.status === 'rejected').map((r) => r.error!.code);
  }

  async function sameOnBothSides(
    steps: (videoId: string) => Step[],
    actor: () => TestUser = () => member,
    prepare?: (db: ClientDb, videoId: string) => Promise<void>,
  ) {
    const videoId = await insertVideo(t.deps, owner.id);
    const db = await deviceWith(videoId, actor());
    await prepare?.(db, videoId);
    const deviceRefused = await onDevice(db, actor(), steps(videoId));
    const serverRefused = await onServer(actor(), steps(videoId));
    expect(deviceRefused).toEqual(serverRefused);
    const shown = await db.videos.get(videoId);
    const truth = await videoTruth(t.deps, videoId);
    const liked = await t.deps.db.selectFrom('likes').select('user_id').where('video_id', '=', videoId).where('user_id', '=', actor().id).executeTakeFirst();
    const serverComments = (await t.deps.db.selectFrom('comments').select('id').where('video_id', '=', videoId).execute()).map((c) => c.id).sort();
    const deviceComments = (await db.comments.where('video_id').equals(videoId).toArray()).map((c) => c.id).sort();
    expect({ exists: !!shown, likes: shown?.likes_count ?? 0, comments: shown?.comments_count ?? 0, liked: shown?.liked_by_me ?? false }).toEqual({
      exists: truth.exists,
      likes: truth.likes_count,
      comments: truth.comments_count,
      liked: !!liked,
    });
    expect(deviceComments).toEqual(serverComments);
    return { shown, truth, db, videoId };
  }

  /** An unread notification of the member (about no video: a deleted video takes its own along), on the server and on the device. */
  async function unreadNotification(db: ClientDb, user: TestUser): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    const at = new Date(now).toISOString();
    const row = { id, kind: 'prize' as const, video_id: null, count: 1, actor_name: null, detail: null, amount_paise: null, rank: null };
    await t.deps.db
      .insertInto('notifications')
      .values({ ...row, user_id: user.id, actor_id: null, created_at: now, updated_at: now, read_at: null, push_due_at: null })
      .execute();
    await db.notifications.put({ ...row, created_at: at, updated_at: at, read: false, updated_ms: now });
    return id;
  }

  /**
   * Every catalogued mutation from its own sample arguments (define-mutation.ts, `sample`), made, not
   * written here: a new mutation is covered by its catalogue line. Besides the card and its comments,
   * the device's profile name and read marks must be the server's.
   */
  /** A top-level comment of the video's owner, on the server and on the device. */
  async function ownersComment(db: ClientDb, videoId: string): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await t.deps.db.insertInto('comments').values({ id, video_id: videoId, user_id: owner.id, content: 'First!', created_at: now }).execute();
    await t.deps.db
      .updateTable('videos')
      .set((eb) => ({ comments_count: eb('comments_count', '+', 1) }))
      .where('id', '=', videoId)
      .execute();
    const stored = {
      ...{ id, video_id: videoId, user_id: owner.id, name: 'Owner', handle: '', content: 'First!', created_at: new Date(now).toISOString() },
      ...{ parent_id: null, reply_to_user_id: null, reply_to_handle: null, reply_count: 0, likes_count: 0, liked_by_me: false, pinned: false, deleted: false },
      mentions: [],
      created_ms: now,
    };
    await db.comments.put(stored);
    await db.server_comments.put(stored);
    await db.videos.update(videoId, { comments_count: 1 });
    return id;
  }

  async function sampleRun(name: MutationName, actor: () => TestUser, times: number): Promise<void> {
    let notificationIds: string[] = [];
    let commentId = '';
    let db!: ClientDb;
    let args: Record<string, unknown> | undefined;
    const { shown, truth } = await sameOnBothSides(
      (videoId) => {
        // Made once: the device and the server run the same arguments.
        const fx: SampleFixture = {
          videoId,
          commentId,
          ownerId: owner.id,
          strangerId: stranger.id,
          id: (label) => `${label}-${randomUUID()}`,
          notificationIds,
        };
        const made = (args ??= mutationDef(name)!.sample(fx) as Record<string, unknown>);
        return Array.from({ length: times }, () => ({ name, args: made }));
      },
      actor,
      async (device, videoId) => {
        db = device;
        notificationIds = [await unreadNotification(device, actor())];
        commentId = await ownersComment(device, videoId);
      },
    );
    // The device counts every share at once; the server counts members (the card then takes its count).
    expect((shown?.shares_count ?? 0) > 0).toBe(truth.shares_count > 0);
    const serverName = await t.deps.db.selectFrom('profiles').select('name').where('id', '=', actor().id).executeTakeFirstOrThrow();
    expect((await db.profile.get(actor().id))?.name).toBe(serverName.name);
    const read = await t.deps.db.selectFrom('notifications').select(['id', 'read_at']).where('id', 'in', notificationIds).execute();
    const shownRead = await db.notifications.bulkGet(notificationIds);
    expect(shownRead.map((n) => n?.read)).toEqual(read.map((n) => n.read_at !== null));
  }

  for (const name of mutationNames) {
    it(`${name} from its sample, by another member and by the video's owner, then replayed`, async () => {
      await sampleRun(name, () => member, 1);
      await sampleRun(name, () => owner, 2);
    });
  }

  it('like, like again, unlike, like', async () => {
    const { truth } = await sameOnBothSides((videoId) => [
      { name: 'like', args: { videoId } },
      { name: 'like', args: { videoId } },
      { name: 'unlike', args: { videoId } },
      { name: 'like', args: { videoId } },
    ]);
    expect(truth.likes_count).toBe(1);
  });

  it('two comments, one replayed', async () => {
    const { truth } = await sameOnBothSides((videoId) => [
      { name: 'addComment', args: { commentId: 'c-one-' + videoId.slice(0, 8), videoId, content: 'first' } },
      { name: 'addComment', args: { commentId: 'c-two-' + videoId.slice(0, 8), videoId, content: 'second' } },
      { name: 'addComment', args: { commentId: 'c-one-' + videoId.slice(0, 8), videoId, content: 'first' } },
    ]);
    expect(truth.comments_count).toBe(2);
  });

  it('a share: the count moves once for the member', async () => {
    const { shown, truth } = await sameOnBothSides((videoId) => [{ name: 'recordShare', args: { shareId: randomUUID(), videoId } }]);
    expect([shown?.shares_count, truth.shares_count]).toEqual([1, 1]);
  });

  it("another member's video cannot be deleted; the owner's can, with its comments", async () => {
    await sameOnBothSides((videoId) => [{ name: 'deleteVideo', args: { videoId } }]);
    const { truth } = await sameOnBothSides(
      (videoId) => [
        { name: 'addComment', args: { commentId: 'own-' + videoId.slice(0, 8), videoId, content: 'mine' } },
        { name: 'deleteVideo', args: { videoId } },
        { name: 'like', args: { videoId } },
      ],
      () => owner,
    );
    expect(truth.exists).toBe(false);
  });
});
