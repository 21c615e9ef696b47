import { useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { LeaderboardsRow } from './db';
import { readSyncCounters } from './queries';
import { getClientDb, getSyncEngine, subscribeSyncEngine } from './active-engine';
import type { SyncEngine } from './sync-engine';
import type { EngineStatus } from './status';

export function useSyncEngine(): SyncEngine | null {
  return useSyncExternalStore(subscribeSyncEngine, getSyncEngine, getSyncEngine);
}

const idleStatus: EngineStatus = { online: true, syncing: false, paused: null, live: false, failing: false };
const noop = () => () => undefined;

export function useEngineStatus(): EngineStatus {
  const engine = useSyncEngine();
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  const status = useSyncExternalStore(engine ? engine.status.subscribe : noop, engine ? engine.status.get : () => idleStatus, () => idleStatus);
  return engine ? status : { ...idleStatus, online: nav?.onLine ?? true };
}

/**
 * One field of the engine status. A component that reads only some fields re-renders when those
 * change, not twice per sync round for `syncing` (which would re-render the whole feed).
 */
export function useEngineStatusField<K extends keyof EngineStatus>(key: K): EngineStatus[K] {
  const engine = useSyncEngine();
  const idle = () => {
    const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
    return ({ ...idleStatus, online: nav?.onLine ?? true } satisfies EngineStatus)[key];
  };
  return useSyncExternalStore(engine ? engine.status.subscribe : noop, () => (engine ? engine.status.get()[key] : idle()), idle);
}

export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  /** Queued changes of the signed-in user not yet confirmed by the server. */
  pendingCount: number;
  /** When a pull last succeeded (ms since epoch), or null before the first one. */
  lastSyncedAt: number | null;
}

export function useSyncStatus(): SyncStatus {
  const engine = useSyncEngine();
  const status = useEngineStatus();
  const userId = engine?.userId ?? null;
  const data = useLiveQuery(() => readSyncCounters(getClientDb(), userId), [userId]);
  return { online: status.online, syncing: status.syncing, pendingCount: data?.pendingCount ?? 0, lastSyncedAt: data?.lastSyncedAt ?? null };
}

/** The leaderboards as last pulled (shape from GET /api/rewards/leaderboards), for offline display. */
export function useLeaderboardsSnapshot(): LeaderboardsRow | null | undefined {
  return useLiveQuery(async () => (await getClientDb().leaderboards.get('current')) ?? null, []);
}
