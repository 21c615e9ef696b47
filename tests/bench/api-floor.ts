import { ratioRow } from './lib/result';
import { assertClean, interleaved, load } from './lib/load';
import { startBaseline } from './lib/processes';
import type { Benchmark } from './lib/context';

/** 1. GET /api/health through the whole app (middleware, headers, router) vs a bare node:http answer. */
export const apiFloor: Benchmark = {
  id: 'api',
  title: 'API floor',
  async run(ctx) {
    const base = await startBaseline('health');
    try {
      const run = (url: string) => async () => {
        const r = await load({ url, seconds: ctx.seconds, connections: 10 });
        assertClean(url, r);
        return r.rps;
      };
      const s = await interleaved(ctx.rounds, run(`${ctx.server.url}/api/health`), run(`${base.url}/api/health`));
      return [ratioRow({ name: 'API floor: GET /api/health', unit: 'req/s', direction: 'higher', targetRatio: 0.85 }, s.ours, s.base)];
    } finally {
      await base.stop();
    }
  },
};
