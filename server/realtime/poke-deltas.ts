import { sql } from 'kysely';
import type { AppDeps, AuthUser } from '../context';
import { perConnection } from '#db/per-connection';
import { readVia, type ReadVia } from '../videos/feed-rows';
import { snapshotRead } from '../sync/read-transaction';
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
  /** Settles once the change-log head at the stream's opening is known: send `ready` only then. */
  opened: Promise<void>;
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
  if (claims?.userId !== userId) return false;
  if (deps.engine.dialect === 'postgres') return standingOnPostgres(deps, userId, claims.sessionId);
  if (!(await sessionIsLive(deps, claims.sessionId))) return false;
  const p = statements(deps.engine.sqlite).standing.get(userId);
  return !!p && p.is_active === 1 && p.account_status !== 'pending_payment';
}

/** The session and the standing in one statement: it runs for every connection on every poke. */
async function standingOnPostgres(deps: AppDeps, userId: string, sessionId: string | undefined): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`SELECT (is_active = 1 AND account_status <> 'pending_payment'
      AND (${sessionId ?? null}::text IS NULL OR EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ${sessionId ?? null} AND revoked_at IS NULL))) AS ok
    FROM profiles WHERE id = ${userId}`.execute(deps.db);
  return rows[0]?.ok === true;
}

/** The newest change-log seq; inside a transaction when `via` is one (SQLite: its held connection). */
async function changeLogHead(via: ReadVia): Promise<number> {
  if (via.dialect === 'sqlite') return Number(statements(via.sqlite).head.get()?.seq ?? 0);
  const { rows } = await sql<{ seq: number | null }>`SELECT max(seq) AS seq FROM change_log`.execute(via.db);
  return Number(rows[0]?.seq ?? 0);
}

/**
 * Reads the delta from `from` in one read transaction (so its rows and cursor agree): the part
 * every connection at `from` shares is read once per change (shared-deltas.ts), the member's own
 * part here. `delta` is null when nothing moved or a snapshot is needed (too many changes, or
 * `from` ahead of the log after a restore): then the client pulls.
 */
async function readDelta(deps: AppDeps, user: AuthUser, clientId: string | null, from: number): Promise<{ head: number; delta: PullResponse | null }> {
  // On PostgreSQL a transaction costs three round trips per connection and poke; when the log has
  // not moved, one statement tells. (A head that moved on meanwhile is read again in the snapshot.)
  if (deps.engine.dialect === 'postgres') {
    const head = await changeLogHead(readVia(deps.engine, deps.db));
    if (head === from) return { head, delta: null };
  }
  return snapshotRead(deps.db, deps.engine).execute(async (trx) => {
    const head = await changeLogHead(readVia(deps.engine, trx));
    if (head === from) return { head, delta: null };
    const shared = await sharedDeltasFor(deps).read(trx, from, head);
    // A member to resync (a block, a mute) gets no delta: the client pulls, and its pull is a snapshot.
    if (!shared.changes || shared.changes.resyncs.has(user.id)) return { head, delta: null };
    return { head, delta: await personalDelta(deps, trx, user, clientId, { ...shared, changes: shared.changes }) };
  });
}

/**
 * One per live connection. It remembers up to which change-log seq its events have covered, so
 * consecutive deltas tile the log without holes: each starts where the previous event ended. A
 * client applies a delta only if its own cursor lies inside [from, cursor]; otherwise it pulls.
 */
export function createDeltaSource(deps: AppDeps, user: AuthUser, clientId: string | null, allowed: () => Promise<boolean>): DeltaSource {
  // Read when the stream opens (on SQLite before this returns): the client pulls on `ready`, which
  // covers everything up to here. Handled at once, so a failure is not an unhandled rejection;
  // next() sees it and reads the head again.
  const readHead = () => {
    const head = changeLogHead(readVia(deps.engine, deps.db));
    head.catch(() => undefined);
    return head;
  };
  let coveredTo: number | Promise<number> = readHead();
  return {
    opened: coveredTo.then(
      () => undefined,
      () => undefined,
    ),
    async next() {
      let from: number;
      let read;
      try {
        from = coveredTo = await coveredTo;
        read = await readDelta(deps, user, clientId, from);
      } catch (err) {
        deps.log.error('could not read a poke delta; the client pulls instead', err);
        if (typeof coveredTo !== 'number') coveredTo = readHead();
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
