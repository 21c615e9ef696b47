import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config';
import { createDeps } from '#server/deps';
import type { AppDeps } from '#server/context';
import { PROJECT_ROOT, startServer, type ServerProcess } from '../helpers/server-process';
import { sharedKeysEnv, testDialect } from '../helpers/test-database';
import { createUser } from '../helpers/users';
import { engineFor, insertVideo, Network, newDevice, videoTruth } from './sync-harness';

// The real server process, killed with SIGKILL while it works through a push, then started again
// on the same data: every queued mutation lands exactly once.

const PUBLIC_URL = 'http://127.0.0.1:8089';
let srv: ServerProcess;
let deps: AppDeps & { close(): Promise<void> };

beforeAll(async () => {
  srv = await startServer({ env: { PUBLIC_URL, LOG_LEVEL: 'error' } });
  // A second connection to the same database and signing key, to make users and watch progress.
  deps = await createDeps(
    loadConfig({
      DATA_DIR: srv.dataDir,
      DATABASE_URL: srv.databaseUrl,
      // On PostgreSQL the server signs with the shared key of its environment, not a DATA_DIR file.
      ...(testDialect === 'postgres' ? sharedKeysEnv : {}),
      PUBLIC_URL,
      LOG_LEVEL: 'error',
      CLIENT_DIST: join(PROJECT_ROOT, 'no-client'),
    }),
  );
});
afterAll(async () => {
  await srv.stop();
  await deps.close();
});

describe('server restarted mid-batch', () => {
  it('applies every queued mutation exactly once after a crash in the middle of a push', async () => {
    const alice = await createUser(deps, { name: 'Alice' });
    const bob = await createUser(deps, { name: 'Bob' });
    const videos = [await insertVideo(deps, bob.id), await insertVideo(deps, bob.id)];
    const device = newDevice();
    const net = new Network();
    net.offline = true;
    const { engine, rejections } = engineFor(device.db, alice, srv.url, net);
    await engine.start();
    const TOTAL = 240;
    for (let i = 0; i < TOTAL; i++) {
      const videoId = videos[i % 2]!;
      if (i % 3 === 0) await engine.mutate('recordShare', { shareId: randomUUID(), videoId });
      else await engine.mutate('addComment', { commentId: randomUUID(), videoId, content: `comment ${i}` });
    }
    expect(await device.db.outbox.count()).toBe(TOTAL);

    const lastApplied = async () =>
      (await deps.db.selectFrom('sync_clients').select('last_mutation_id').where('user_id', '=', alice.id).executeTakeFirst())?.last_mutation_id ?? 0;
    net.offline = false;
    const flushing = engine.sync();
    let atKill = 0;
    for (;;) {
      atKill = await lastApplied();
      if (atKill > 0) break;
      await new Promise((r) => setTimeout(r, 1));
    }
    await srv.kill9();
    expect(await flushing).toBe(false);
    const afterCrash = await lastApplied();
    // The crash really happened mid-way: some mutations were applied, not all.
    expect(afterCrash).toBeGreaterThan(0);
    expect(afterCrash).toBeLessThan(TOTAL);

    await srv.restart();
    for (let i = 0; i < 20; i++) {
      const ok = await engine.sync();
      if (ok && (await device.db.outbox.count()) === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await engine.stop();

    expect(await device.db.outbox.count()).toBe(0);
    expect(rejections).toEqual([]);
    expect(await lastApplied()).toBe(TOTAL);
    const shares = videos.map(() => 0);
    const comments = videos.map(() => 0);
    for (let i = 0; i < TOTAL; i++) (i % 3 === 0 ? shares : comments)[i % 2]! += 1;
    for (const [i, id] of videos.entries()) {
      // One member shared: every share is kept, shares_count counts the member once (docs/rewards.md, "The rule").
      const sharers = shares[i]! > 0 ? 1 : 0;
      expect(await videoTruth(deps, id)).toMatchObject({ shares: shares[i], shares_count: sharers, comments: comments[i], comments_count: comments[i] });
      expect(await device.db.videos.get(id)).toMatchObject({ shares_count: sharers, comments_count: comments[i] });
    }
  });
});
