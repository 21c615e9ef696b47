import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { engineFor, listen, Network, newDevice, type TestEngine } from './sync-harness';
import type { SyncEngine } from '#client/sync/sync-engine';

// Follows on the device (the `follows` store, filled by pulls, changed at once by the mutations):
// shown offline, sent once, and rolled back when the server refuses.

let t: TestApp;
let http: { url: string; close(): Promise<void> };
let asha: TestUser;
let ben: TestUser;
const running: SyncEngine[] = [];

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app.fetch);
  asha = await createUser(t.deps, { name: 'Asha' });
  ben = await createUser(t.deps, { name: 'Ben' });
});
afterEach(async () => {
  for (const e of running.splice(0)) await e.stop();
});
afterAll(async () => {
  await http.close();
  await t.close();
});

function start(user: TestUser, net = new Network()): TestEngine & { db: ReturnType<typeof newDevice>['db']; net: Network } {
  const device = newDevice();
  const te = engineFor(device.db, user, http.url, net);
  running.push(te.engine);
  return { ...te, db: device.db, net };
}

const edge = (follower: TestUser, followee: TestUser) => `${follower.id}:${followee.id}`;
const counts = async (id: string) =>
  t.deps.db.selectFrom('profiles').select(['followers_count', 'following_count']).where('id', '=', id).executeTakeFirstOrThrow();

describe('follows on the device', () => {
  it('shows a follow made offline at once, sends it once on reconnect, and a second device of the member pulls it', async () => {
    const a = start(asha);
    await a.engine.start();
    await a.engine.sync();
    a.net.offline = true;
    await a.engine.mutate('follow', { userId: ben.id });
    expect(await a.db.follows.get(edge(asha, ben))).toMatchObject({ follower_id: asha.id, followee_id: ben.id });
    expect((await a.db.profile.get(asha.id))?.following_count).toBe(1);
    expect((await counts(ben.id)).followers_count).toBe(0);

    a.net.offline = false;
    await a.engine.sync();
    expect(await a.db.outbox.count()).toBe(0);
    expect(await a.db.follows.get(edge(asha, ben))).toBeDefined();
    expect(await counts(ben.id)).toMatchObject({ followers_count: 1 });
    expect(await counts(asha.id)).toMatchObject({ following_count: 1 });

    const second = start(asha);
    await second.engine.start();
    await second.engine.sync();
    expect((await second.db.follows.toArray()).map((f) => f.followee_id)).toEqual([ben.id]);

    // Unfollowed on the first device: the second pulls it as gone.
    await a.engine.mutate('unfollow', { userId: ben.id });
    await a.engine.sync();
    await second.engine.sync();
    expect(await second.db.follows.count()).toBe(0);
    expect(await second.db.server_follows.count()).toBe(0);
    expect(await counts(ben.id)).toMatchObject({ followers_count: 0 });
  });

  it('follow then unfollow offline, then reconnect: no edge, counts unchanged, no notification left', async () => {
    const a = start(asha);
    await a.engine.start();
    await a.engine.sync();
    const before = await counts(ben.id);
    a.net.offline = true;
    await a.engine.mutate('follow', { userId: ben.id });
    await a.engine.mutate('unfollow', { userId: ben.id });
    expect(await a.db.follows.get(edge(asha, ben))).toBeUndefined();
    a.net.offline = false;
    await a.engine.sync();
    expect(await a.db.outbox.count()).toBe(0);
    const rows = await t.deps.db.selectFrom('follows').selectAll().where('follower_id', '=', asha.id).where('followee_id', '=', ben.id).execute();
    expect(rows).toEqual([]);
    expect(await counts(ben.id)).toEqual(before);
    const notes = await t.deps.db.selectFrom('notifications').select('id').where('user_id', '=', ben.id).where('kind', '=', 'follow').execute();
    expect(notes).toEqual([]);
  });

  it('rolls back a follow the server refuses (the member was suspended meanwhile) and says why', async () => {
    const cy = await createUser(t.deps, { name: 'Cy' });
    const a = start(asha);
    await a.engine.start();
    await a.engine.sync();
    await t.deps.db.updateTable('profiles').set({ is_active: 0 }).where('id', '=', cy.id).execute();
    a.net.offline = true;
    await a.engine.mutate('follow', { userId: cy.id });
    expect(await a.db.follows.get(edge(asha, cy))).toBeDefined();
    const shownCount = (await a.db.profile.get(asha.id))?.following_count ?? -1;

    a.net.offline = false;
    await a.engine.sync();
    expect(a.rejections.map((r) => [r.name, r.error.code])).toEqual([['follow', 'not_found']]);
    expect(await a.db.follows.get(edge(asha, cy))).toBeUndefined();
    expect((await a.db.profile.get(asha.id))?.following_count).toBe(shownCount - 1);
    expect(await a.db.outbox.count()).toBe(0);
  });
});
