import pg from 'pg';
import type { Logger } from '../logger';

/**
 * The session-level advisory lock whose holder is the leader: the one instance of a database that
 * runs the periodic jobs. Outside the 'vid' transaction-lock keys of db/locks.ts.
 */
export const LEADER_LOCK_KEY = 0x7669_6c31; // 'vil1'

/** How often a follower tries to take the lock, and the leader checks its connection. */
export const LEADER_CHECK_MS = 5_000;
/**
 * Checks a leader that lost its connection sits out before it tries again: the others' next try
 * comes first, so a healthy instance takes over from one whose link failed, rather than whichever
 * reconnects first (alone, it leads again after them).
 */
const CHECKS_OUT_AFTER_LOSS = 3;

export interface LeaderElection {
  isLeader(): boolean;
  /** Lets go of the lock (the next instance takes over within one check) and stops trying. */
  stop(): Promise<void>;
}

export interface LeaderElectionOptions {
  url: string;
  log: Logger;
  everyMs?: number;
  onGain(): void;
  onLose(): void;
}

/**
 * Tries pg_try_advisory_lock on a connection of its own every `everyMs`. The lock lives as long as
 * that connection: when it drops, PostgreSQL releases the lock and this instance stops leading at
 * once (before it could know whether another took over), and another instance takes it at its next
 * try (this one sits out CHECKS_OUT_AFTER_LOSS checks first). A leader also runs a trivial query
 * each period, so a connection that died silently (no error event) is noticed within one period too.
 */
export function startLeaderElection(options: LeaderElectionOptions): LeaderElection {
  const everyMs = options.everyMs ?? LEADER_CHECK_MS;
  let client: pg.Client | null = null;
  let leading = false;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let sitOut = 0;

  const drop = (c: pg.Client, why?: unknown) => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => undefined);
    if (leading) {
      leading = false;
      sitOut = CHECKS_OUT_AFTER_LOSS;
      options.log.error(`lost the leader lock connection: periodic jobs stop here (${why instanceof Error ? why.message : 'connection ended'})`);
      options.onLose();
    }
  };

  const open = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: options.url, application_name: 'vidi-leader', keepAlive: true, query_timeout: everyMs });
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c));
    try {
      await c.connect();
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    client = c;
    return c;
  };

  const check = async () => {
    if (sitOut > 0) {
      sitOut--;
      return;
    }
    let c = client;
    try {
      c ??= await open();
      if (leading) {
        await c.query('SELECT 1');
        return;
      }
      const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LEADER_LOCK_KEY]);
      if (rows[0]?.ok && !stopped && client === c) {
        leading = true;
        options.log.info('this instance leads: it runs the periodic jobs');
        options.onGain();
      }
    } catch (err) {
      if (c) drop(c, err);
    }
  };

  const tick = () => {
    running = running.then(check);
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();

  return {
    isLeader: () => leading,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      const c = client;
      client = null;
      if (leading) {
        leading = false;
        options.onLose();
      }
      // Ending the session releases the lock.
      await c?.end().catch(() => undefined);
    },
  };
}
