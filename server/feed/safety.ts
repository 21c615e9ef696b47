import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '#db/schema';
import type SQLite from 'better-sqlite3';
import { perConnection } from '#db/per-connection';
import type { ReadVia } from './items';

// Blocks and mutes in the reads (docs/data-model.md, "Safety"; docs/decisions/0024-safety.md).
// Most members block and mute nobody, so a read first asks, in one probe of three index ranges,
// whether the viewer has any: if not, it runs its statement exactly as before; if so, its filtered
// twin, which leaves out a member blocked either way (and, from videos, one the viewer muted) by
// key probes per row (blocks_pk, blocks_blocked, mutes_pk), never a scan or a sort.

/** What the viewer's reads must leave out: `blocks` (either way) from every read, `mutes` (theirs) from videos. */
export interface Safety {
  blocks: boolean;
  mutes: boolean;
}

/** Whether a read needs its filtered twin. */
export const filtersVideos = (s: Safety) => s.blocks || s.mutes;

// The texts below name the viewer as SQLite's @viewer; withViewer makes them PostgreSQL's parameters.
const PROBE = `SELECT
    CASE WHEN EXISTS (SELECT 1 FROM blocks WHERE blocker_id = @viewer) OR EXISTS (SELECT 1 FROM blocks WHERE blocked_id = @viewer) THEN 1 ELSE 0 END AS blocks,
    CASE WHEN EXISTS (SELECT 1 FROM mutes WHERE muter_id = @viewer) THEN 1 ELSE 0 END AS mutes`;

// Each check is one EXISTS over a UNION ALL of key probes: PostgreSQL cannot turn a set operation
// into an anti-join, so the check stays a per-row filter on the index walk (a join could make the
// planner trade the walk for a sort); SQLite runs it the same way.
const blocksOf = (col: string) => `SELECT 1 FROM blocks sb WHERE sb.blocker_id = @viewer AND sb.blocked_id = ${col}
  UNION ALL SELECT 1 FROM blocks sb WHERE sb.blocked_id = @viewer AND sb.blocker_id = ${col}`;

/** The member in column `col` is neither one the viewer blocked nor one who blocked the viewer. */
export const notBlocked = (col: string) => `NOT EXISTS (${blocksOf(col)})`;

/** A video of author column `col` the viewer may see: its author neither blocked either way nor muted by the viewer. */
export const videoAuthorShown = (col: string) =>
  `NOT EXISTS (${blocksOf(col)} UNION ALL SELECT 1 FROM mutes sm WHERE sm.muter_id = @viewer AND sm.muted_id = ${col})`;

/** Comment `c` is top-level or answers a comment whose author is not blocked either way (a hidden comment's thread goes with it). */
export const PARENT_SHOWN = `NOT EXISTS (SELECT 1 FROM comments pc JOIN blocks sb ON sb.blocker_id = @viewer AND sb.blocked_id = pc.user_id WHERE pc.id = c.parent_id
  UNION ALL SELECT 1 FROM comments pc JOIN blocks sb ON sb.blocked_id = @viewer AND sb.blocker_id = pc.user_id WHERE pc.id = c.parent_id)`;

/** A text of this module for PostgreSQL (or Kysely on either engine): each @viewer becomes a parameter. */
export function withViewer(text: string, viewer: string): RawBuilder<unknown> {
  const [head = '', ...rest] = text.split('@viewer');
  return sql.join([sql.raw(head), ...rest.map((part) => sql`${viewer}${sql.raw(part)}`)], sql``);
}

type ProbeRow = { blocks: number; mutes: number };

const toSafety = (r: ProbeRow | undefined): Safety => ({ blocks: Number(r?.blocks) === 1, mutes: Number(r?.mutes) === 1 });

export const safetyStatements = perConnection((sqlite: SQLite.Database) => ({
  probe: sqlite.prepare<{ viewer: string }, ProbeRow>(PROBE),
}));

/** The probe on PostgreSQL (a fixed text: prepared once per connection). */
export const safetyProbeQuery = (viewer: string) => sql<ProbeRow>`${withViewer(PROBE, viewer)}`;

/** The probe on SQLite, synchronous (the feed route's path; the caller holds the connection). */
export function sqliteSafety(sqlite: SQLite.Database, viewer: string): Safety {
  return toSafety(safetyStatements(sqlite).probe.get({ viewer }));
}

// A ReadVia lives for one request or one read transaction, so a probe's answer holds for all its
// reads (a pull's feed window and comment lists probe once).
const probes = new WeakMap<ReadVia, Map<string, Promise<Safety>>>();

/** The viewer's Safety, probed once per ReadVia. */
export function readSafety(via: ReadVia, viewer: string): Promise<Safety> {
  let byViewer = probes.get(via);
  if (!byViewer) probes.set(via, (byViewer = new Map()));
  let answer = byViewer.get(viewer);
  if (!answer) {
    answer =
      via.dialect === 'sqlite'
        ? Promise.resolve(sqliteSafety(via.sqlite, viewer))
        : safetyProbeQuery(viewer)
            .execute(via.db)
            .then((r) => toSafety(r.rows[0]));
    byViewer.set(viewer, answer);
  }
  return answer;
}

/** Whether either member blocked the other: two key probes (blocks_pk both ways), for a single read such as a thread's parent. */
export async function blockedBetween(db: Kysely<Database>, a: string, b: string): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) => eb.or([eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]), eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)])]))
    .executeTakeFirst();
  return row !== undefined;
}
