import { sqliteOf } from '#db/engine';
import type { AppDeps, AuthUser } from '../context';
import { perConnection } from '#db/per-connection';
import { personalDelta, sharedDeltasFor } from './shared-deltas';
import { sessionIsLive } from '../auth/token-user';
import type { PokeDelta, PullResponse } from '#sync/protocol/messages';

/**
 * A delta larger than this is not sent with the poke: the client pulls instead (a pull answer is
 * compressible and paged by the HTTP stack; an SSE event is held whole in memory on both sides).
 */
export const MAX_DELTA_BYTES = 32 * 1024;

/**
 * What the next event should be: the rows themselves; a plain poke (the client pulls); or nothing,
 * because the change log has not moved since the last event, which already made the client apply
 * or pull everything up to here (e.g. the second of two pokes of one push, or a settings poke).
 */
export type NextEvent = { kind: 'delta'; delta: PokeDelta } | { kind: 'plain' } | { kind: 'none' };

export interface DeltaSource {
  next(): Promise<NextEvent>;
}

// Run for every connection on every poke: compiled once per connection, not per call.
const statements = perConnection((sqlite) => ({
  standing: sqlite.prepare<[string], { is_active: number; account_status: string }>('SELECT is_active, account_status FROM profiles WHERE id = ?'),
  head: sqlite.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM change_log'),
}));

/**
 * Whether the connection may still receive rows: its access token is still valid and the account
 * still active and paid up. The stream was authorised once, when it opened; a pull is authorised
 * every time. Without this, rows would keep flowing to a suspended member or an expired token;
 * instead such a client gets plain pokes, and its pull is refused as before.
 */
export async function mayReceiveRows(deps: AppDeps, userId: string, token: string): Promise<boolean> {
  const claims = await deps.tokens.verifyClaims(token);
  if (claims?.userId !== userId || !sessionIsLive(sqliteOf(deps.engine), claims.sessionId)) return false;
  const p = statements(sqliteOf(deps.engine)).standing.get(userId);
  return !!p && p.is_active === 1 && p.account_status !== 'pending_payment';
}

function changeLogHead(deps: AppDeps): number {
  const row = statements(sqliteOf(deps.engine)).head.get();
  return Number(row?.seq ?? 0);
}

/**
 * Reads the delta from `from` in one read transaction (so its rows and cursor agree): the part
 * every connection at `from` shares is read once per change (shared-deltas.ts), the member's own
 * part here. `delta` is null when nothing moved or a snapshot is needed (too many changes, or
 * `from` ahead of the log after a restore): then the client pulls.
 */
function readDelta(deps: AppDeps, user: AuthUser, clientId: string | null, from: number): Promise<{ head: number; delta: PullResponse | null }> {
  return deps.db.transaction().execute(async (trx) => {
    const head = changeLogHead(deps);
    if (head === from) return { head, delta: null };
    const shared = await sharedDeltasFor(deps).read(trx, from, head);
    if (!shared.changes) return { head, delta: null };
    return { head, delta: await personalDelta(deps, trx, user, clientId, { ...shared, changes: shared.changes }) };
  });
}

/**
 * One per live connection. It remembers up to which change-log seq its events have covered, so
 * consecutive deltas tile the log without holes: each starts where the previous event ended. A
 * client applies a delta only if its own cursor lies inside [from, cursor]; otherwise it pulls.
 */
export function createDeltaSource(deps: AppDeps, user: AuthUser, clientId: string | null, allowed: () => Promise<boolean>): DeltaSource {
  // Read when the stream opens: the client pulls on `ready`, which covers everything up to here.
  let coveredTo = changeLogHead(deps);
  return {
    async next() {
      const from = coveredTo;
      let read;
      try {
        read = await readDelta(deps, user, clientId, from);
      } catch (err) {
        deps.log.error('could not read a poke delta; the client pulls instead', err);
        return { kind: 'plain' };
      }
      const to = read.head;
      // Whatever is sent, the client ends up at `to` or later (it applies the delta or pulls after
      // this event): the next delta starts there. (`to` is below `from` only after a restore: reset.)
      coveredTo = to;
      if (to === from) return { kind: 'none' };
      if (!(await allowed())) return { kind: 'plain' };
      // A snapshot (the log was restored or is far ahead) or a large delta: the client pulls.
      if (!read.delta || to < from) return { kind: 'plain' };
      const delta: PokeDelta = { ...read.delta, reset: false, from: String(from), client_id: clientId };
      return JSON.stringify(delta).length > MAX_DELTA_BYTES ? { kind: 'plain' } : { kind: 'delta', delta };
    },
  };
}
