import { ratioRow } from './lib/result';
import { assertClean, interleaved, load } from './lib/load';
import { startBaseline } from './lib/processes';
import type { Benchmark } from './lib/context';

/** 1. GET /api/health through the app's node listener (a light route it answers before Hono, with the API headers) vs a bare node:http answer. */
export const apiFloor: Benchmark = {
  id: 'api',
  title: 'API floor',
  async run(ctx) {
    const run = (url: string, headers?: Record<string, string>) => async () => {
      const r = await load({ url, seconds: ctx.seconds, connections: 10, ...(headers ? { headers } : {}) });
      assertClean(url, r);
      return r.rps;
    };
    const base = await startBaseline('health');
    try {
      const s = await interleaved(ctx.rounds, run(`${ctx.server.url}/api/health`), run(`${base.url}/api/health`));
      const rows = [ratioRow({ name: 'API floor: GET /api/health', unit: 'req/s', direction: 'higher', targetRatio: 0.85 }, s.ours, s.base)];
      // What a request with an Origin pays (a browser sends one on every POST, pushes included): it
      // takes /api/health through the middleware chain and the API's CORS (server/http/api-cors.ts)
      // instead of the light route (server/http/light-routes.ts).
      const origin = { origin: ctx.server.url };
      const edge = await interleaved(ctx.rounds, run(`${ctx.server.url}/api/health`, origin), run(`${base.url}/api/health`, origin));
      rows.push(
        ratioRow(
          { name: 'API floor attribution: a request with an Origin', unit: 'req/s', direction: 'higher', notes: 'GET /api/health, Origin: PUBLIC_URL (CORS)' },
          edge.ours,
          edge.base,
        ),
      );
      // Where the gap comes from: the framework alone, and the framework with one middleware.
      for (const [mode, name] of [
        ['hono-health', 'API floor attribution: bare Hono'],
        ['hono-middleware-health', 'API floor attribution: Hono + 1 middleware'],
      ] as const) {
        const hono = await startBaseline(mode);
        try {
          const a = await interleaved(ctx.rounds, run(`${hono.url}/api/health`), run(`${base.url}/api/health`));
          rows.push(ratioRow({ name, unit: 'req/s', direction: 'higher', notes: 'same answer, vs the raw node:http baseline' }, a.ours, a.base));
        } finally {
          await hono.stop();
        }
      }
      return rows;
    } finally {
      await base.stop();
    }
  },
};
