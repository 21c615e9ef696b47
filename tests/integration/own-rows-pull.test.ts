import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { follows, notifications } from '#sync/entities/registry';
import { writeTx } from '#server/changes/write-tx';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';

// The pull's `own` entities (sync/entities/define-entity.ts, PullRule 'own'; server/sync/own-rows.ts):
// rows only their member sees, sent under the client store's name, and `deleted_<store>` when gone.
// Written here as any server writer would (a row and its declared change), not through a mutation,
// so this holds for every own entity whatever writes it.

let t: TestApp;
let ann: TestUser;
let bob: TestUser;
let cy: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [ann, bob, cy] = [await createUser(t.deps, { name: 'Ann' }), await createUser(t.deps, { name: 'Bob' }), await createUser(t.deps, { name: 'Cy' })];
});
afterAll(async () => {
  await t.close();
});

const pull = async (user: TestUser, cursor: string | null) => {
  const res = await call(t.app, 'POST', '/api/sync/pull', { cursor }, user.token);
  expect(res.status).toBe(200);
  return res.json;
};

const follow = (follower: TestUser, followee: TestUser, now: number) =>
  writeTx(t.deps, async (trx, changes) => {
    const row = { follower_id: follower.id, followee_id: followee.id, created_at: now };
    await trx.insertInto('follows').values(row).execute();
    changes.row(follows, row).profile(followee.id);
  });

const unfollow = (follower: TestUser, followee: TestUser) =>
  writeTx(t.deps, async (trx, changes) => {
    await trx.deleteFrom('follows').where('follower_id', '=', follower.id).where('followee_id', '=', followee.id).execute();
    changes.row(follows, { follower_id: follower.id, followee_id: followee.id, created_at: 0 }, { deleted: true });
  });

describe('own rows in pulls', () => {
  it("sends a member all their follows on a snapshot, the changed ones after, and the gone ones as deleted; nobody else's", async () => {
    await follow(ann, bob, 1000);
    const first = await pull(ann, null);
    expect(first.reset).toBe(true);
    expect(first.follows).toEqual([{ id: `${ann.id}:${bob.id}`, follower_id: ann.id, followee_id: bob.id, created_at: 1000 }]);
    expect(first.deleted_follows).toEqual([]);

    await follow(ann, cy, 2000);
    await follow(bob, cy, 3000);
    const next = await pull(ann, first.cursor);
    expect(next.reset).toBe(false);
    expect(next.follows.map((f: { followee_id: string }) => f.followee_id)).toEqual([cy.id]);

    await unfollow(ann, bob);
    const after = await pull(ann, next.cursor);
    expect(after.follows).toEqual([]);
    expect(after.deleted_follows).toEqual([`${ann.id}:${bob.id}`]);

    // Bob's follow of Cy went to Bob alone.
    const bobs = await pull(bob, first.cursor);
    expect(bobs.follows.map((f: { follower_id: string }) => f.follower_id)).toEqual([bob.id]);
    expect(bobs.deleted_follows).toEqual([]);
  });

  it("sends the followee their own profile with the new counts (an account change), without re-reading anyone's cards", async () => {
    const { cursor } = await pull(cy, null);
    await writeTx(t.deps, async (trx, changes) => {
      await trx.updateTable('profiles').set({ followers_count: 7 }).where('id', '=', cy.id).execute();
      changes.profile(cy.id);
    });
    const mine = await pull(cy, cursor);
    expect(mine.profile).toMatchObject({ id: cy.id, followers_count: 7, following_count: 0 });
    const others = await pull(ann, cursor);
    expect(others.profile).toBeNull();
    expect(others.videos).toEqual([]);
  });

  it('sends a notification deleted on the server as deleted to its member', async () => {
    const id = 'n-gone-1';
    const now = Date.now();
    await writeTx(t.deps, async (trx, changes) => {
      await trx
        .insertInto('notifications')
        .values({ id, user_id: bob.id, kind: 'follow', count: 1, actor_name: 'Ann', created_at: now, updated_at: now })
        .execute();
      changes.row(notifications, { id, user_id: bob.id, read_at: null });
    });
    const { cursor, notifications: shown } = await pull(bob, null);
    expect(shown.map((n: { id: string }) => n.id)).toContain(id);
    await writeTx(t.deps, async (trx, changes) => {
      await trx.deleteFrom('notifications').where('id', '=', id).execute();
      changes.row(notifications, { id, user_id: bob.id, read_at: null }, { deleted: true });
    });
    const after = await pull(bob, cursor);
    expect(after.deleted_notifications).toEqual([id]);
    expect(after.notifications).toEqual([]);
  });
});
