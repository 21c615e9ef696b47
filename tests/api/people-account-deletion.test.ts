import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';

// A deleted account's follows go both ways, and the counts of the people on the other side follow.

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.deps, { name: 'Admin', isAdmin: true });
});
afterAll(async () => {
  await t.close();
});

const push = (user: TestUser, mutations: Array<{ name: string; args: unknown }>) =>
  call(t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations: mutations.map((m, i) => ({ id: i + 1, ...m })) }, user.token);
const counts = (id: string) => t.deps.db.selectFrom('profiles').select(['followers_count', 'following_count']).where('id', '=', id).executeTakeFirstOrThrow();

describe('deleting an account with follows', () => {
  it("takes the follows both ways and the other members' counts down, and the followers' devices drop the follow", async () => {
    const [dee, ben, cy] = [await createUser(t.deps, { name: 'Dee' }), await createUser(t.deps, { name: 'Ben' }), await createUser(t.deps, { name: 'Cy' })];
    expect((await push(dee, [{ name: 'follow', args: { userId: ben.id } }])).status).toBe(200);
    expect((await push(cy, [{ name: 'follow', args: { userId: dee.id } }])).status).toBe(200);
    expect(await counts(ben.id)).toMatchObject({ followers_count: 1 });
    expect(await counts(cy.id)).toMatchObject({ following_count: 1 });
    const { json: before } = await call(t.app, 'POST', '/api/sync/pull', { cursor: null }, cy.token);
    expect(before.follows.map((f: { followee_id: string }) => f.followee_id)).toEqual([dee.id]);

    expect((await call(t.app, 'DELETE', `/api/admin/users/${dee.id}`, undefined, admin.token)).status).toBe(200);

    expect(await counts(ben.id)).toMatchObject({ followers_count: 0, following_count: 0 });
    expect(await counts(cy.id)).toMatchObject({ followers_count: 0, following_count: 0 });
    const left = await t.deps.db
      .selectFrom('follows')
      .select('follower_id')
      .where((eb) => eb.or([eb('follower_id', '=', dee.id), eb('followee_id', '=', dee.id)]))
      .execute();
    expect(left).toEqual([]);
    const { json: after } = await call(t.app, 'POST', '/api/sync/pull', { cursor: before.cursor }, cy.token);
    expect(after.deleted_follows).toEqual([`${cy.id}:${dee.id}`]);
    expect(after.profile).toMatchObject({ id: cy.id, following_count: 0 });
  });
});
