import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { limitsSetting } from '../settings/definitions';
import { readSetting } from '../settings/store';
import { isPostgres } from './dialect';

export type Db = Kysely<Database> | Transaction<Database>;
export type Board = 'creator' | 'viewer';

export const ELIGIBLE_STATUS = 'active';

/** The daily cap counts per UTC day of an action's (server-stamped) created_at. */
export const DAY_MS = 86_400_000;
export const dayOf = (t: number): number => Math.floor(t / DAY_MS);

/** Start of the current scoring period: the newest distribution's time, or 0. Reads the period_start index. */
export async function currentPeriodStart(db: Db): Promise<number> {
  const row = await db.selectFrom('distributions').select('created_at').orderBy('period_start', 'desc').limit(1).executeTakeFirst();
  return Number(row?.created_at ?? 0);
}

/**
 * "Profile alias p may score in the period that began at ps": active, paid up, and not voided by an
 * admin for this period. Used inside every rewards query, so the rule is written once.
 */
export const eligibleP = (ps: number, alias = 'p') =>
  sql`${sql.ref(`${alias}.is_active`)} = 1 AND ${sql.ref(`${alias}.account_status`)} = ${ELIGIBLE_STATUS}
    AND NOT EXISTS (SELECT 1 FROM reward_voids rv WHERE rv.period_start = ${ps} AND rv.user_id = ${sql.ref(`${alias}.id`)})`;

/** Which of these members may score now (eligibleP for the current period). */
export async function eligibleUsers(db: Db, ids: string[], periodStart?: number): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const ps = periodStart ?? (await currentPeriodStart(db));
  // On SQLite the ids go as one JSON array: one statement text for any number of them, prepared once
  // (db/statement-cache.ts), where an IN list of each length was a new text to prepare per push.
  const idIn = isPostgres(db) ? sql`(${sql.join(ids)})` : sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  const { rows } = await sql<{ id: string }>`SELECT p.id AS id FROM profiles p WHERE p.id IN ${idIn} AND ${eligibleP(ps)}`.execute(db);
  return new Set(rows.map((r) => r.id));
}

/** limits.viewer_daily_points_cap (admin Settings tab). */
export async function readViewerCap(db: Db): Promise<number> {
  return (await readSetting(db, limitsSetting)).viewer_daily_points_cap;
}
