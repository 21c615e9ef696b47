import { openDatabase } from '#db/connect';
import type * as Boards from '#server/rewards/leaderboards';
import { ratioRow, unavailable } from './lib/result';
import { interleaved } from './lib/load';
import { median, quantile, timeEach } from './lib/stats';
import type { Benchmark } from './lib/context';

/**
 * 5. Leaderboard reads at the seeded size (Best Users top 20, Best Viewers top 3, and the whole
 * snapshot a pull sends, with the viewer's own rank) vs a primary-key lookup through the same
 * Kysely connection. Report only: the point is that they stay index walks, not scans.
 */
export const leaderboards: Benchmark = {
  id: 'leaderboards',
  title: 'Leaderboards',
  async run(ctx) {
    let mod: typeof Boards;
    try {
      mod = await import('#server/rewards/leaderboards');
    } catch (e) {
      return [unavailable('Leaderboards', 'us', 'report', `server/rewards/leaderboards.ts cannot be loaded (${(e as Error).message})`)];
    }
    const { db } = openDatabase(ctx.databaseUrl);
    try {
      const users = await db.selectFrom('profiles').select('id').limit(500).execute();
      const scoreRows = Number(
        (
          await db
            .selectFrom('scores')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      let k = 0;
      const pk = async () => {
        await db
          .selectFrom('profiles')
          .selectAll()
          .where('id', '=', users[k++ % users.length]!.id)
          .executeTakeFirst();
      };
      const calls = ctx.quick ? 100 : 500;
      const block = (fn: () => Promise<unknown>) => async () => timeEach(calls, fn);
      const cases: Array<[string, () => Promise<unknown>]> = [
        ['Leaderboard: Best Users top 20', () => mod.topOfBoard(db, 'creator', 20)],
        ['Leaderboard: Best Viewers top 3', () => mod.topOfBoard(db, 'viewer', 3)],
        ['Leaderboard: full snapshot + own rank', () => mod.readLeaderboards(db, ctx.viewerId)],
      ];
      const rows = [];
      for (const [name, fn] of cases) {
        const s = await interleaved(ctx.rounds, block(fn), block(pk));
        const us = (xs: number[][]) => xs.map((x) => median(x) * 1000);
        const p99 = quantile(s.ours.flat(), 0.99) * 1000;
        rows.push(ratioRow({ name, unit: 'us p50', direction: 'lower', notes: `p99 ${Math.round(p99)} us; ${scoreRows} score rows` }, us(s.ours), us(s.base)));
      }
      return rows;
    } finally {
      await db.destroy();
    }
  },
};
