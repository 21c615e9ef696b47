import { sql } from 'kysely';
import type { Db } from './eligibility';
import { addDayPoints, pendingRows, type Current, type PendingOut, type PendingScores } from './score-writes';

/**
 * writePendingScores on SQLite: the same rows in the same order (the viewer's days, then one
 * upsert of every scores row the push moved). SQLite runs one write transaction at a time, so
 * nothing is locked; only the rows of members who lost an action are read (their reach time may
 * need the rows' newest counted action). A push of 100 likes writes about one scores row per
 * creator and one day row, where applyScoreEvent one at a time wrote two scores upserts and a day
 * bump per like. The rows go as one JSON array parameter: one statement text for any number of
 * rows, prepared once (db/statement-cache.ts), where a VALUES list of each length was a new text
 * to prepare on every push.
 */
export async function writePendingScoresSqlite(db: Db, p: PendingScores, cap: number, ps: number): Promise<void> {
  const viewerPoints = await writeDays(db, p.days, cap);
  const losers = [...p.points].filter(([, r]) => r.creatorOut !== undefined || r.viewerOut !== undefined).map(([id]) => id);
  const current = new Map<string, Current>();
  if (losers.length) {
    const { rows } = await sql<Current>`SELECT user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at
      FROM scores WHERE user_id IN (SELECT value FROM json_each(${JSON.stringify(losers)}))`.execute(db);
    for (const r of rows) current.set(r.user_id, r);
  }
  const { rowsOut, reach } = await pendingRows(db, p, viewerPoints, current, ps);
  if (rowsOut.length) await upsert(db, rowsOut, reach);
}

async function upsert(db: Db, rows: PendingOut[], reach: Map<string, { creator: number; viewer: number }>): Promise<void> {
  const values = JSON.stringify(rows.map((x) => [x.userId, x.r.creator, x.viewer, x.r.creatorAt, x.r.viewerAt]));
  // WHERE true: SQLite's parser otherwise reads the ON of the upsert as a join's.
  await sql`INSERT INTO scores (user_id, creator_points, viewer_points, creator_reached_at, viewer_reached_at)
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(${values}) WHERE true
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

/** The buffered day counts added in one statement; returns the viewer points they move per member. */
async function writeDays(db: Db, days: PendingScores['days'], cap: number): Promise<Map<string, number>> {
  const rows = [...days].flatMap(([userId, byDay]) => [...byDay].filter(([, n]) => n !== 0).map(([day, n]) => ({ userId, day, n })));
  const points = new Map<string, number>();
  if (!rows.length) return points;
  const values = JSON.stringify(rows.map((r) => [r.userId, r.day, r.n]));
  // A net removal's day row exists (its action was counted on it), so the insert arm only ever adds.
  const { rows: after } = await sql<{ user_id: string; day: number; actions: number }>`INSERT INTO viewer_days (user_id, day, actions)
    SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${values}) WHERE true
    ON CONFLICT (user_id, day) DO UPDATE SET actions = viewer_days.actions + excluded.actions RETURNING user_id, day, actions`.execute(db);
  addDayPoints(points, after, new Map(rows.map((r) => [`${r.userId} ${r.day}`, r.n])), cap);
  return points;
}
