import { sql } from 'kysely';
import type { Db } from './eligibility';
import { addDayPoints, pendingRows, type Current, type PendingOut, type PendingScores } from './score-writes';

/** Rows per statement: 5 parameters each, far under SQLite's limit on a statement's parameters. */
const CHUNK = 200;

/**
 * writePendingScores on SQLite: the same rows in the same order (the viewer's days, then one
 * upsert of every scores row the push moved), as multi-row VALUES. SQLite runs one write
 * transaction at a time, so nothing is locked; only the rows of members who lost an action are
 * read (their reach time may need the rows' newest counted action). A push of 100 likes writes
 * about one scores row per creator and one day row, where applyScoreEvent one at a time wrote two
 * scores upserts and a day bump per like.
 */
export async function writePendingScoresSqlite(db: Db, p: PendingScores, cap: number, ps: number): Promise<void> {
  const viewerPoints = await writeDays(db, p.days, cap);
  const losers = [...p.points].filter(([, r]) => r.creatorOut !== undefined || r.viewerOut !== undefined).map(([id]) => id);
  const current = new Map<string, Current>();
  for (let i = 0; i < losers.length; i += CHUNK) {
    const { rows } = await sql<Current>`SELECT user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at
      FROM scores WHERE user_id IN (${sql.join(losers.slice(i, i + CHUNK))})`.execute(db);
    for (const r of rows) current.set(r.user_id, r);
  }
  const { rowsOut, reach } = await pendingRows(db, p, viewerPoints, current, ps);
  for (let i = 0; i < rowsOut.length; i += CHUNK) await upsert(db, rowsOut.slice(i, i + CHUNK), reach);
}

async function upsert(db: Db, rows: PendingOut[], reach: Map<string, { creator: number; viewer: number }>): Promise<void> {
  const values = sql.join(rows.map((x) => sql`(${x.userId}, ${x.r.creator}, ${x.viewer}, ${x.r.creatorAt}, ${x.r.viewerAt})`));
  await sql`INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at) VALUES ${values}
    ON CONFLICT (user_id) DO UPDATE SET creator_points = scores.creator_points + excluded.creator_points,
      viewer_points = scores.viewer_points + excluded.viewer_points,
      creator_reached_at = max(scores.creator_reached_at, excluded.creator_reached_at),
      viewer_reached_at = max(scores.viewer_reached_at, excluded.viewer_reached_at)`.execute(db);
  // A recomputed reach (a removal may have taken the newest action) replaces the row's.
  for (const x of rows) {
    const r = reach.get(x.userId);
    if (r) await sql`UPDATE scores SET creator_reached_at = ${r.creator}, viewer_reached_at = ${r.viewer} WHERE user_id = ${x.userId}`.execute(db);
  }
}

/** The buffered day counts added in one statement per chunk; returns the viewer points they move per member. */
async function writeDays(db: Db, days: PendingScores['days'], cap: number): Promise<Map<string, number>> {
  const rows = [...days].flatMap(([userId, byDay]) => [...byDay].filter(([, n]) => n !== 0).map(([day, n]) => ({ userId, day, n })));
  const points = new Map<string, number>();
  const added = new Map(rows.map((r) => [`${r.userId} ${r.day}`, r.n]));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = sql.join(rows.slice(i, i + CHUNK).map((r) => sql`(${r.userId}, ${r.day}, ${r.n})`));
    // A net removal's day row exists (its action was counted on it), so the insert arm only ever adds.
    const { rows: after } = await sql<{ user_id: string; day: number; actions: number }>`INSERT INTO viewer_days (user_id, day, actions) VALUES ${values}
      ON CONFLICT (user_id, day) DO UPDATE SET actions = viewer_days.actions + excluded.actions RETURNING user_id, day, actions`.execute(db);
    addDayPoints(points, after, added, cap);
  }
  return points;
}
