import { ratioRow, unavailable } from './lib/result';
import { assertClean, interleaved, load, type LoadResult } from './lib/load';
import { startBaseline } from './lib/processes';
import { probe, type Benchmark } from './lib/context';

/**
 * 2. The signed-in feed's first page (token check, query, JSON) vs node:http + one prepared
 * statement returning the same rows in the same JSON shape: better-sqlite3 on SQLite, a pg pool of
 * 10 on PostgreSQL (`--db postgres`).
 */
export const feed: Benchmark = {
  id: 'feed',
  title: 'Feed',
  async run(ctx) {
    const token = await ctx.token();
    const auth = { authorization: `Bearer ${token}` };
    const path = '/api/videos?limit=20';
    const p = await probe(`${ctx.server.url}${path}`, { headers: auth });
    if (p.status !== 200) {
      const why = `GET ${path} answered ${p.status}${p.status === 404 ? ' (feed route not mounted)' : ''}`;
      return [unavailable('Feed: GET /api/videos?limit=20', 'req/s', '>= 0.6x', why), unavailable('Feed: p99 latency', 'ms', '<= 2x', why)];
    }
    const base =
      ctx.dialect === 'postgres'
        ? await startBaseline('feed-pg', { BENCH_DATABASE_URL: ctx.databaseUrl, BENCH_VIEWER: ctx.viewerId })
        : await startBaseline('feed', { BENCH_DB: ctx.dbPath, BENCH_VIEWER: ctx.viewerId });
    try {
      // Same rows on both sides, or the comparison means nothing.
      const ids = (text: string) => (JSON.parse(text) as { items: Array<{ id: string }> }).items.map((i) => i.id).join(',');
      const b = await probe(`${base.url}${path}`);
      if (ids(p.text) !== ids(b.text)) throw new Error('the baseline and the API returned different feed pages');
      const run = (url: string, headers: Record<string, string>) => async (): Promise<LoadResult> => {
        const r = await load({ url, seconds: ctx.seconds, connections: 10, headers });
        assertClean(url, r);
        return r;
      };
      const s = await interleaved(ctx.rounds, run(`${ctx.server.url}${path}`, auth), run(`${base.url}${path}`, {}));
      const pages = JSON.parse(p.text).items.length as number;
      return [
        ratioRow(
          { name: 'Feed: GET /api/videos?limit=20', unit: 'req/s', direction: 'higher', targetRatio: 0.6, notes: `${pages} items/page` },
          s.ours.map((r) => r.rps),
          s.base.map((r) => r.rps),
        ),
        ratioRow(
          { name: 'Feed: p99 latency (10 conns)', unit: 'ms', direction: 'lower', targetRatio: 2 },
          s.ours.map((r) => r.p99),
          s.base.map((r) => r.p99),
        ),
      ];
    } finally {
      await base.stop();
    }
  },
};
