import type { AppDeps } from '../context';
import { startLeaderElection } from './leader';

/** Starts a periodic job; returns the function that stops it (startUploadCleanup, startUnverifiedSweep). */
export type TimerStart = () => () => void;

export interface LeaderTimers {
  /** Whether this instance runs the timers now. */
  isLeader(): boolean;
  /** Stops the timers and gives up leadership. */
  stop(): Promise<void>;
}

/**
 * Runs `timers` on one instance of the database only: on SQLite the process is the only one and
 * runs them at once; on PostgreSQL the instance holding the leader lock (leader.ts) runs them,
 * and they stop the moment it loses the lock and start on the instance that takes it.
 */
export function startLeaderTimers(deps: Pick<AppDeps, 'engine' | 'config' | 'log'>, timers: TimerStart[], options: { everyMs?: number } = {}): LeaderTimers {
  let stops: Array<() => void> = [];
  const startAll = () => {
    stops = timers.map((start) => start());
  };
  const stopAll = () => {
    for (const stop of stops.splice(0)) stop();
  };
  if (deps.engine.dialect === 'sqlite') {
    startAll();
    return {
      isLeader: () => true,
      stop: async () => stopAll(),
    };
  }
  const election = startLeaderElection({
    url: deps.config.databaseUrl,
    log: deps.log,
    ...(options.everyMs ? { everyMs: options.everyMs } : {}),
    onGain: startAll,
    onLose: stopAll,
  });
  return {
    isLeader: () => election.isLeader(),
    stop: () => election.stop(),
  };
}
