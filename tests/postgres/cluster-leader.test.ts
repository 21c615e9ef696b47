import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLeaderTimers, type LeaderTimers } from '#server/cluster/leader-timers';
import { LEADER_CHECK_MS, LEADER_LOCK_KEY } from '#server/cluster/leader';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { onOwnConnection, twoInstances, type Instance } from './cluster-apps';

// The periodic jobs (upload clean-up, unverified-account sweep) run on one instance of a database
// only: the holder of an advisory lock (server/cluster/leader.ts).

const CHECK_MS = 200;
/**
 * How long a hand-over may take here: a few checks when the machine is idle, but the suite runs three
 * files at a time beside PostgreSQL on two cores, and a 2 s limit failed now and then under that load.
 */
const HAND_OVER_MS = 8000;
/** What a process logs when it takes the leader lock (server/cluster/leader.ts). */
const LEADS = 'this instance leads';

let cluster: Awaited<ReturnType<typeof twoInstances>>;

beforeAll(async () => {
  cluster = await twoInstances();
});
afterAll(() => cluster?.close());

/** A periodic job that records whether it runs on each instance. */
function recordingTimer(running: Map<string, boolean>, name: string) {
  return () => {
    running.set(name, true);
    return () => running.set(name, false);
  };
}

const start = (t: Instance, running: Map<string, boolean>, name: string): LeaderTimers =>
  startLeaderTimers(t.deps, [recordingTimer(running, name)], { everyMs: CHECK_MS });

/** The server process holding the leader lock, as PostgreSQL sees it. */
const lockHolders = () =>
  onOwnConnection<{ pid: number }>(
    cluster.databaseUrl,
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = $1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [LEADER_LOCK_KEY],
  );

describe('leader timers on PostgreSQL', () => {
  it('runs the timers on exactly one instance; another takes over when the leader loses its connection, or stops', async () => {
    const running = new Map<string, boolean>();
    const onA = start(cluster.a, running, 'a');
    const onB = start(cluster.b, running, 'b');
    try {
      await expect.poll(() => [onA.isLeader(), onB.isLeader()].filter(Boolean).length, { timeout: 5000 }).toBe(1);
      // Over several more checks, still one, and its timers are the ones running.
      await new Promise((r) => setTimeout(r, CHECK_MS * 3));
      expect([onA.isLeader(), onB.isLeader()].filter(Boolean)).toHaveLength(1);
      const [leader, follower, leaderName, followerName] = onA.isLeader() ? [onA, onB, 'a', 'b'] : [onB, onA, 'b', 'a'];
      expect(running.get(leaderName)).toBe(true);
      expect(running.get(followerName)).toBeUndefined();
      expect(await lockHolders()).toHaveLength(1);

      // The leader's connection is cut (a network fault, an operator): it stops at once, the other takes over.
      const [holder] = await lockHolders();
      await onOwnConnection(cluster.databaseUrl, 'SELECT pg_terminate_backend($1)', [holder!.pid]);
      await expect.poll(() => running.get(leaderName), { timeout: HAND_OVER_MS }).toBe(false);
      await expect.poll(() => follower.isLeader(), { timeout: HAND_OVER_MS }).toBe(true);
      expect(running.get(followerName)).toBe(true);
      // The old leader reconnects as a follower.
      await new Promise((r) => setTimeout(r, CHECK_MS * 3));
      expect(leader.isLeader()).toBe(false);
      expect(running.get(leaderName)).toBe(false);

      // The new leader stops (a deploy): its timers stop, and the first takes over again.
      await follower.stop();
      expect(running.get(followerName)).toBe(false);
      await expect.poll(() => leader.isLeader(), { timeout: HAND_OVER_MS }).toBe(true);
      expect(running.get(leaderName)).toBe(true);
    } finally {
      await onA.stop();
      await onB.stop();
    }
    expect([...running.values()]).toEqual([false, false]);
  });
});

describe('leader timers on SQLite', () => {
  it('runs them at once in the only process, and stops them', async () => {
    const running = new Map<string, boolean>();
    const sqliteDeps = { ...cluster.a.deps, engine: { dialect: 'sqlite' as const, sqlite: null as never } };
    const timers = startLeaderTimers(sqliteDeps, [recordingTimer(running, 'x'), recordingTimer(running, 'y')]);
    expect(timers.isLeader()).toBe(true);
    expect(running).toEqual(
      new Map([
        ['x', true],
        ['y', true],
      ]),
    );
    await timers.stop();
    expect([...running.values()]).toEqual([false, false]);
  });
});

describe('leader timers in two server processes', () => {
  it('one process of two leads; when it is killed, the other takes over within a check period', async () => {
    const first = await startServer({ env: { DATABASE_URL: cluster.databaseUrl } });
    const second = await startServer({ env: { DATABASE_URL: cluster.databaseUrl } });
    const leads = (s: ServerProcess) => s.output().includes(LEADS);
    try {
      await expect.poll(() => [first, second].filter(leads).length, { timeout: 10_000 }).toBe(1);
      // A follower keeps trying every LEADER_CHECK_MS without getting the lock.
      await new Promise((r) => setTimeout(r, LEADER_CHECK_MS + 1000));
      expect([first, second].filter(leads)).toHaveLength(1);
      const [leader, follower] = leads(first) ? [first, second] : [second, first];
      await leader.kill9();
      await expect.poll(() => leads(follower), { timeout: LEADER_CHECK_MS * 3 }).toBe(true);
    } finally {
      await first.stop().catch(() => undefined);
      await second.stop().catch(() => undefined);
    }
  }, 90_000);
});
