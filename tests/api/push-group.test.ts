import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPush, pushGroups } from '#server/sync/push-group';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { insertVideo } from '../integration/sync-harness';
import { testDialect } from '../helpers/test-database';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.deps, { name: 'Alice' });
  bob = await createUser(t.deps, { name: 'Bob' });
  carol = await createUser(t.deps, { name: 'Carol' });
});
afterAll(async () => {
  await t.close();
});

const likes = (videoId: string) => t.deps.db.selectFrom('likes').select('user_id').where('video_id', '=', videoId).execute();
const asUser = (u: TestUser) => ({ id: u.id, email: u.email, name: u.name, isAdmin: false });
const like = (id: number, videoId: string, name: 'like' | 'unlike' = 'like') => ({ id, name, args: { videoId } });

/** The groups committed so far on SQLite; PostgreSQL does not group (each push its own transaction). */
const groupStats = () => (testDialect === 'sqlite' ? pushGroups(t.deps).stats() : { groups: 0, pushes: 0, waiting: 0 });

/**
 * Pushes submitted in the same tick are all waiting when the group starts (it waits one turn of the
 * event loop), so on SQLite they share one transaction: the way pushes that arrive during a commit
 * do. On PostgreSQL they run side by side, each in its own transaction, with the same answers.
 */
function submitTogether(pushes: Array<{ user: TestUser; clientId: string; mutations: unknown[] }>) {
  const answers = pushes.map((p) =>
    processPush(t.deps, asUser(p.user), { client_id: p.clientId, mutations: p.mutations } as never).then(
      (ok) => ({ ok, err: undefined }),
      (err: { status?: number; code?: string }) => ({ ok: undefined, err }),
    ),
  );
  return Promise.all(answers);
}

describe('pushes that queue together share one commit', () => {
  it('answers each push of a group on its own: a refused push changes nothing, the others land', async () => {
    const videoId = await insertVideo(t.deps, carol.id);
    const aliceClient = randomUUID();
    const bobClient = randomUUID();
    await submitTogether([{ user: alice, clientId: aliceClient, mutations: [{ id: 1, name: 'updateProfileName', args: { name: 'Alice' } }] }]);
    const before = groupStats();

    const [a, b, c, d] = await submitTogether([
      { user: alice, clientId: aliceClient, mutations: [like(2, videoId)] },
      // Bob uses Alice's client id: 403, and his like must not land.
      { user: bob, clientId: aliceClient, mutations: [like(3, videoId)] },
      // A gap for a new client: 409 with the server's last id.
      { user: carol, clientId: randomUUID(), mutations: [like(5, videoId)] },
      { user: bob, clientId: bobClient, mutations: [like(1, videoId)] },
    ]);

    const after = groupStats();
    if (testDialect === 'sqlite') {
      expect(after.groups - before.groups).toBe(1);
      expect(after.pushes - before.pushes).toBe(4);
    }
    expect(a!.ok).toEqual({ results: [{ id: 2, status: 'applied' }], last_mutation_id: 2 });
    expect(b!.err).toMatchObject({ status: 403, code: 'client_id_taken' });
    expect(c!.err).toMatchObject({ status: 409, code: 'mutation_id_gap', lastMutationId: 0 });
    expect(d!.ok).toEqual({ results: [{ id: 1, status: 'applied' }], last_mutation_id: 1 });
    // Alice's and Bob's (own client) likes, once each; nothing from the refused pushes.
    expect((await likes(videoId)).map((l) => l.user_id).sort()).toEqual([alice.id, bob.id].sort());
    const video = await t.deps.db.selectFrom('videos').select('likes_count').where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(video.likes_count).toBe(2);
  });

  it('applies two pushes of one client in the order they ran: the later one sees the earlier', async () => {
    const videoId = await insertVideo(t.deps, carol.id);
    const clientId = randomUUID();
    const [first, replay] = await submitTogether([
      { user: alice, clientId, mutations: [like(1, videoId)] },
      { user: alice, clientId, mutations: [like(1, videoId), like(2, videoId, 'unlike')] },
    ]);
    const inOrder = {
      first: [{ id: 1, status: 'applied' }],
      replay: [
        { id: 1, status: 'duplicate' },
        { id: 2, status: 'applied' },
      ],
    };
    // On PostgreSQL there is no group: the two pushes race for the client's row, and either may
    // take it first. Whichever ran second saw the first's mutation id: each mutation applied once.
    const reversed = {
      first: [{ id: 1, status: 'duplicate' }],
      replay: [
        { id: 1, status: 'applied' },
        { id: 2, status: 'applied' },
      ],
    };
    const seen = { first: first!.ok?.results, replay: replay!.ok?.results };
    if (testDialect === 'sqlite') expect(seen).toEqual(inOrder);
    else expect([inOrder, reversed]).toContainEqual(seen);
    expect(await likes(videoId)).toEqual([]);
  });

  it('over HTTP, many members liking at once: every like lands once and the counter matches', async () => {
    const videoId = await insertVideo(t.deps, carol.id);
    const members = await Promise.all(Array.from({ length: 12 }, (_, i) => createUser(t.deps, { name: `Fan ${i}` })));
    const answers = await Promise.all(
      members.map((m) => call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: [like(1, videoId)] }, m.token)),
    );
    expect(answers.map((r) => r.status)).toEqual(members.map(() => 200));
    expect((await likes(videoId)).length).toBe(12);
    const video = await t.deps.db.selectFrom('videos').select('likes_count').where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(video.likes_count).toBe(12);
  });
});
