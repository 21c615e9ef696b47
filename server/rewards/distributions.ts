import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#db/schema';
import { lockScoringExclusive } from '#db/locks';
import { conflict } from '../http/errors';
import type { Changes } from '../changes/changes';
import { notifyPrizes } from '../notifications/create';
import { currentStandings, distributionSummary, latestDistribution } from './leaderboards';
import type { DistributionPage, RecordedDistribution } from '#sync/rest-api/rewards';

/**
 * Closes the scoring period that began at `periodStart`: the standings and prizes at this moment
 * become its winners, and scoring starts afresh (the new period begins at the distribution's
 * time, and every counter is reset). The caller names the period it saw, so a retried or doubled
 * request finds that period already distributed and gets the same distribution back; the UNIQUE
 * period_start makes a duplicate impossible even so. Runs in the caller's transaction (writeTx).
 *
 * Pushes run beside it (on PostgreSQL): it takes the scoring lock first, so every push that moves
 * points has committed before the standings are read and none starts until it commits. `clock`
 * (the app's) is read after the lock, so every action in the standings is at or before the new
 * period's start, and the commit waits for the clock to pass that start, so every action after it
 * is later: an action belongs to exactly one period, as recomputeScores counts it.
 */
export async function recordDistribution(
  trx: Transaction<Database>,
  changes: Changes,
  input: { adminId: string; periodStart: number; clock?: () => number },
): Promise<RecordedDistribution> {
  await lockScoringExclusive(trx);
  const now = Math.max(changes.now, input.clock?.() ?? 0);
  const done = await trx
    .selectFrom('distributions')
    .select(['id', 'period_start', 'created_at'])
    .where('period_start', '=', input.periodStart)
    .executeTakeFirst();
  if (done) return { distribution: await distributionSummary(trx, done), created: false };

  const last = await latestDistribution(trx);
  const current = last ? last.created_at : 0;
  if (input.periodStart !== current) {
    throw conflict('This is not the current scoring period. Reload the leaderboards and try again.', 'stale_period');
  }
  const standings = await currentStandings(trx);
  // An empty period has no winners; refusing it also keeps a stray second click from replacing
  // the last winners with an empty list.
  if (!standings.best_users.length && !standings.best_viewers.length) {
    throw conflict('Nobody has points in this period yet, so there is nothing to distribute.', 'nothing_to_distribute');
  }
  // Strictly after the period start, so the new period never overlaps the old one.
  const createdAt = Math.max(now, current + 1);
  const id = randomUUID();
  await trx.insertInto('distributions').values({ id, period_start: current, created_at: createdAt, created_by: input.adminId }).execute();
  const winners = [
    ...standings.best_users.map((w) => ({ ...w, board: 'best_user' })),
    ...standings.best_viewers.map((w) => ({ ...w, board: 'best_viewer' })),
  ].map((w) => ({
    distribution_id: id,
    board: w.board,
    rank: w.rank,
    user_id: w.user_id,
    user_name: w.user_name,
    points: w.points,
    prize_rupees: w.prize_rupees,
  }));
  if (winners.length) await trx.insertInto('distribution_winners').values(winners).execute();
  // Each winner with a prize hears of it ("You won ₹500 as #2 Best User").
  await notifyPrizes(trx, changes, id, winners);
  // Actions up to now belong to the closed period (created_at <= createdAt); nothing counts yet.
  await trx.deleteFrom('scores').execute();
  await trx.deleteFrom('viewer_days').execute();
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: input.adminId,
      action: 'rewards.distribute',
      target: id,
      details: JSON.stringify({ period_start: current, best_users: standings.best_users.length, best_viewers: standings.best_viewers.length }),
      created_at: now,
    })
    .execute();
  changes.leaderboard();
  if (input.clock) await clockPast(input.clock, createdAt);
  return {
    distribution: { id, period_start: current, created_at: createdAt, best_users: standings.best_users, best_viewers: standings.best_viewers },
    created: true,
  };
}

/** Waits (a millisecond or two, holding the lock) until `clock` reads later than `t`; gives up after 50 ms (a clock set back). */
async function clockPast(clock: () => number, t: number): Promise<void> {
  for (let i = 0; i < 50 && clock() <= t; i++) await new Promise((r) => setTimeout(r, 1));
}

/** Past distributions, newest first, keyset-paged on the period_start index. */
export async function listDistributions(db: Kysely<Database>, opts: { limit: number; before: number | null }): Promise<DistributionPage> {
  let q = db
    .selectFrom('distributions')
    .select(['id', 'period_start', 'created_at', 'created_by'])
    .orderBy('period_start', 'desc')
    .limit(opts.limit + 1);
  if (opts.before !== null) q = q.where('period_start', '<', opts.before);
  const rows = await q.execute();
  const page = rows.slice(0, opts.limit);
  const items: DistributionPage['items'] = [];
  for (const d of page) items.push({ ...(await distributionSummary(db, d)), created_by: d.created_by });
  const last = page.at(-1);
  return { items, next_cursor: rows.length > opts.limit && last ? String(last.period_start) : null };
}
