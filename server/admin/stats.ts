import type { Kysely } from 'kysely';
import type { Database } from '#db/schema';
import type { AdminStats } from '#sync/rest-api/admin';

export async function readStats(db: Kysely<Database>): Promise<AdminStats> {
  const [users, videos, active, revenue, reports] = await Promise.all([
    db
      .selectFrom('profiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('videos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('profiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_active', '=', 1)
      .where('account_status', '=', 'active')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('payments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_paise'), eb.lit(0)).as('paise'))
      .where('status', '=', 'captured')
      // Sandbox payments are test mode: they complete without money, so they are not revenue.
      .where('provider', '!=', 'sandbox')
      .executeTakeFirstOrThrow(),
    // On report_targets_queue: one entry per reported target, however many reports it has.
    db
      .selectFrom('report_targets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'open')
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total_users: Number(users.n),
    total_videos: Number(videos.n),
    active_users: Number(active.n),
    // Amounts are whole rupees (the fee is an integer), so this division is exact.
    revenue_rupees: Math.round(Number(revenue.paise) / 100),
    open_reports: Number(reports.n),
  };
}
