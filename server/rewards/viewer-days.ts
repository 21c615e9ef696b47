import { sql } from 'kysely';
import { forUpdate, least } from './dialect';
import type { Db } from './eligibility';
import { newestCounted, type Exclusion } from './newest-counted';

/*
 * The daily cap on viewer points. viewer_days holds, per member and UTC day of the current period,
 * how many of the member's viewer actions count before the cap (likes given, videos commented on,
 * qualifying views, under the rule in score-events.ts). A member's viewer points are
 * sum over days of min(cap, actions), so which actions of a full day "got" the points never
 * matters, and changing the cap is one UPDATE. Rows exist only for members who have a scores row.
 */

/** Adds ±1 to a member's count for one day; returns the count after the change. */
export async function bumpViewerDay(db: Db, userId: string, day: number, delta: 1 | -1): Promise<number> {
  const { rows } =
    delta > 0
      ? await sql<{ n: number }>`INSERT INTO viewer_days (user_id, day, actions) VALUES (${userId}, ${day}, 1)
          ON CONFLICT (user_id, day) DO UPDATE SET actions = viewer_days.actions + 1 RETURNING actions AS n`.execute(db)
      : await sql<{ n: number }>`UPDATE viewer_days SET actions = actions - 1 WHERE user_id = ${userId} AND day = ${day} RETURNING actions AS n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A member's counted actions moving, per day, with the newest among them. */
export interface DaysChange {
  userId: string;
  days: Map<number, number>;
  newest: number;
}

/**
 * Bulk version for suspensions, reactivations, voids and deleted videos: moves the day counts by
 * sign × n, then sets each member's viewer points from their days and their reach time (the newest
 * counted action, looked up when a removal may have taken it). Members without a scores row are skipped.
 */
export async function applyViewerDays(db: Db, changes: DaysChange[], sign: 1 | -1, ps: number, exclude: Exclusion, cap: number): Promise<void> {
  for (const c of changes) {
    if (!(await db.selectFrom('scores').select('user_id').where('user_id', '=', c.userId).executeTakeFirst())) continue;
    for (const [day, n] of c.days) {
      await sql`INSERT INTO viewer_days (user_id, day, actions) VALUES (${c.userId}, ${day}, ${sign * n})
        ON CONFLICT (user_id, day) DO UPDATE SET actions = viewer_days.actions + excluded.actions`.execute(db);
    }
    await sql`DELETE FROM viewer_days WHERE user_id = ${c.userId} AND actions <= 0`.execute(db);
    // Locked after the days, as a push takes them (its day, then its scores row): the points are
    // written absolute from the days, so on PostgreSQL a push's +1 must land before this read
    // (it is then counted) or wait until after this write (it then adds to it).
    const row = (await sql<{ r: number }>`SELECT viewer_reached_at AS r FROM scores WHERE user_id = ${c.userId}${forUpdate(db)}`.execute(db)).rows[0];
    if (!row) continue;
    const points = await pointsFromDays(db, c.userId, cap);
    const was = Number(row.r);
    const reach = points === 0 ? 0 : sign > 0 ? Math.max(was, c.newest) : c.newest >= was ? await newestCounted(db, c.userId, 'viewer', ps, exclude) : was;
    await db.updateTable('scores').set({ viewer_points: points, viewer_reached_at: reach }).where('user_id', '=', c.userId).execute();
  }
}

export async function pointsFromDays(db: Db, userId: string, cap: number): Promise<number> {
  const { rows } = await sql<{
    n: number | null;
  }>`SELECT sum(${least(db, sql.ref('actions'), sql`${cap}`)}) AS n FROM viewer_days WHERE user_id = ${userId}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** After an admin changed the cap: every member's viewer points from their days (reach times do not depend on the cap). */
export async function applyCapChange(db: Db, cap: number): Promise<void> {
  await sql`UPDATE scores SET viewer_points = coalesce((SELECT sum(${least(db, sql.ref('d.actions'), sql`${cap}`)}) FROM viewer_days d WHERE d.user_id = scores.user_id), 0)`.execute(
    db,
  );
}
