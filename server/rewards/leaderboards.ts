import { sql } from 'kysely';
import { readPrizes, type Prizes } from '../settings/prizes';
import { indexedBy } from './dialect';
import type { Board, Db } from './score-events';
import type { DistributionSummary, LeaderboardEntry, Leaderboards, OwnStanding } from '#sync/rest-api/rewards';

/** Best Users top 20, Best Viewers top 3 (docs/decisions/0009-scoring-rules.md). */
export const BEST_USERS = 20;
export const BEST_VIEWERS = 3;

const boardCols = (board: Board) =>
  board === 'creator'
    ? ({ points: 'creator_points', reached: 'creator_reached_at', index: 'scores_creator' } as const)
    : ({ points: 'viewer_points', reached: 'viewer_reached_at', index: 'scores_viewer' } as const);

/**
 * The top of a board, walking its index in order (points desc, reach time, id) and stopping after
 * `limit` rows. The limit is written into the text (it is one of two constants): a prepared
 * statement's generic plan on PostgreSQL would otherwise guess the LIMIT and may sort instead. Ineligible members have no scores row; the profile join only supplies the name
 * (and is a second guard).
 */
export async function topOfBoard(
  db: Db,
  board: Board,
  limit: typeof BEST_USERS | typeof BEST_VIEWERS,
): Promise<Array<{ user_id: string; user_name: string; points: number }>> {
  const { points, reached, index } = boardCols(board);
  const { rows } = await sql<{ user_id: string; user_name: string; points: number }>`
    SELECT s.user_id AS user_id, p.name AS user_name, s.${sql.ref(points)} AS points
    FROM scores s${indexedBy(db, index)} JOIN profiles p ON p.id = s.user_id
    WHERE s.${sql.ref(points)} > 0 AND p.is_active = 1 AND p.account_status = 'active'
    ORDER BY s.${sql.ref(points)} DESC, s.${sql.ref(reached)} ASC, s.user_id ASC
    LIMIT ${sql.lit(limit)}`.execute(db);
  return rows.map((r) => ({ user_id: r.user_id, user_name: r.user_name, points: Number(r.points) }));
}

/** 1 + the members ahead: three range counts on the board's index, never a scan of the table. */
export async function rankOnBoard(db: Db, board: Board, userId: string): Promise<OwnStanding | null> {
  const { points, reached, index } = boardCols(board);
  const own = await db.selectFrom('scores').select([points, reached]).where('user_id', '=', userId).executeTakeFirst();
  const p = Number((own as Record<string, number> | undefined)?.[points] ?? 0);
  if (!own || p <= 0) return null;
  const r = Number((own as Record<string, number>)[reached]);
  const { rows } = await sql<{ ahead: number }>`
    SELECT (SELECT count(*) FROM scores${indexedBy(db, index)} WHERE ${sql.ref(points)} > ${p})
         + (SELECT count(*) FROM scores${indexedBy(db, index)} WHERE ${sql.ref(points)} = ${p} AND ${sql.ref(reached)} < ${r})
         + (SELECT count(*) FROM scores${indexedBy(db, index)} WHERE ${sql.ref(points)} = ${p} AND ${sql.ref(reached)} = ${r} AND user_id < ${userId})
      AS ahead`.execute(db);
  return { rank: Number(rows[0]?.ahead ?? 0) + 1, points: p };
}

function withPrizes(rows: Array<{ user_id: string; user_name: string; points: number }>, prizes: number[]): LeaderboardEntry[] {
  return rows.map((r, i) => ({ rank: i + 1, user_id: r.user_id, user_name: r.user_name, points: r.points, prize_rupees: prizes[i] ?? 0 }));
}

/** Both boards with the prize of each rank, as a distribution would record them now. */
export async function currentStandings(db: Db, prizes?: Prizes): Promise<{ best_users: LeaderboardEntry[]; best_viewers: LeaderboardEntry[] }> {
  const p = prizes ?? (await readPrizes(db));
  return {
    best_users: withPrizes(await topOfBoard(db, 'creator', BEST_USERS), p.best_user),
    best_viewers: withPrizes(await topOfBoard(db, 'viewer', BEST_VIEWERS), p.best_viewer),
  };
}

/** The newest distribution with its winners, via the period_start index and the winners' primary key. */
export async function latestDistribution(db: Db): Promise<DistributionSummary | null> {
  const d = await db.selectFrom('distributions').select(['id', 'period_start', 'created_at']).orderBy('period_start', 'desc').limit(1).executeTakeFirst();
  if (!d) return null;
  return distributionSummary(db, d);
}

export async function distributionSummary(db: Db, d: { id: string; period_start: number; created_at: number }): Promise<DistributionSummary> {
  const winners = await db
    .selectFrom('distribution_winners')
    .select(['board', 'rank', 'user_id', 'user_name', 'points', 'prize_rupees'])
    .where('distribution_id', '=', d.id)
    .orderBy('board')
    .orderBy('rank')
    .execute();
  const pick = (board: string) =>
    winners
      .filter((w) => w.board === board)
      .map((w) => ({ rank: w.rank, user_id: w.user_id, user_name: w.user_name, points: Number(w.points), prize_rupees: Number(w.prize_rupees) }));
  return { id: d.id, period_start: Number(d.period_start), created_at: Number(d.created_at), best_users: pick('best_user'), best_viewers: pick('best_viewer') };
}

/** The admin-set date (settings key 'distribution_date', a JSON string or null). A malformed row reads as unset. */
export async function readDistributionDate(db: Db): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'distribution_date').executeTakeFirst();
  if (!row) return null;
  try {
    const v: unknown = JSON.parse(row.value);
    return typeof v === 'string' && v.length > 0 ? v : null;
  } catch {
    return null;
  }
}

/**
 * What /rewards shows and the sync pull carries: both boards, the viewer's own standing, the next
 * date, the last winners. Every read is an index lookup or a bounded index walk.
 */
export async function readLeaderboards(db: Db, viewerId: string, now: number = Date.now()): Promise<Leaderboards> {
  const last = await latestDistribution(db);
  const standings = await currentStandings(db);
  return {
    viewer_id: viewerId,
    ...standings,
    me: { creator: await rankOnBoard(db, 'creator', viewerId), viewer: await rankOnBoard(db, 'viewer', viewerId) },
    distribution_date: await readDistributionDate(db),
    period_start: last ? last.created_at : 0,
    last_distribution: last,
    as_of: now,
  };
}
