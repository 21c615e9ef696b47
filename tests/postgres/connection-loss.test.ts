import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgresCluster, type PostgresCluster } from '#tests/support/postgres-cluster';
import { call, createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';

// The database going away is an outage, not a crash (docs/operations.md, "When PostgreSQL is
// unreachable"): requests get 503 with Retry-After, and once PostgreSQL is back the same process
// serves again without a restart. It runs its own cluster: halting the shared one would cut every
// other test file.
describe('PostgreSQL goes away and comes back', () => {
  let cluster: PostgresCluster;
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    await createDatabase(cluster.url(), 'vidi');
    t = await createTestApp({ DATABASE_URL: cluster.url('vidi'), MEDIA_WORKER: 'off' });
    member = await createUser(t.deps);
  });
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  const feed = () => call(t.app, 'GET', '/api/videos', undefined, member.token);
  const push = (id: number) =>
    call(
      t.app,
      'POST',
      '/api/sync/push',
      { client_id: '0b9f4a64-3d55-4a43-9c39-6a1d7f2f6f10', mutations: [{ id, name: 'updateProfileName', args: { name: `Name ${id}` } }] },
      member.token,
    );

  it('answers 503 with Retry-After while it is down, and serves again once it is back', async () => {
    expect((await feed()).status).toBe(200);
    expect((await push(1)).status).toBe(200);

    cluster.halt();
    for (const res of [await feed(), await push(2), await feed()]) {
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.json.error.code).toBe('database_unavailable');
    }
    // Liveness does not touch the database.
    expect((await call(t.app, 'GET', '/api/health')).status).toBe(200);

    cluster.resume();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await feed()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    // The push refused during the outage is applied once when the client sends it again.
    const again = await push(2);
    expect(again.status).toBe(200);
    expect(again.json.results).toEqual([{ id: 2, status: 'applied' }]);
  });
});
