import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '#tests/helpers/server-process';
import { interleaved } from './lib/load';
import { mixedLoad, type LoadReport } from './lib/mixed-load';
import { ratioRow, round, type BenchRow } from './lib/result';
import { median } from './lib/stats';
import { startTreeServer, type TreeServer } from './lib/tree-server';
import type { Benchmark } from './lib/context';

/** The fault suite's load run (tests/faults/load.test.ts): its seed (tests/faults/lib/sizes.ts, FAULTS_SEED, seed 7) and connections. */
const SEED = { users: 200, videos: 2_000, likes: 10_000, comments: 3_000, views: 10_000, seed: 7 };
const CONNECTIONS = 32;
/** The commit before issue 32's regression (docs/benchmarks.md, "Mixed load"). */
const BASELINE_COMMIT = 'bc56528';
const NAME = `Mixed load: feed pages and 5-like pushes, 32 connections, vs ${BASELINE_COMMIT}`;

/**
 * 16. The fault suite's mixed load (feed pages and pushes of likes and unlikes from 32 members at
 * once) against this tree's server and, as the baseline, against the server of bc56528 built in
 * its own worktree (MIXED_LOAD_BASELINE_TREE: `git worktree add /tmp/vidi-bc56528 bc56528`, then
 * `npm ci` in it). Each side seeds its own database with its own seed CLI; the rounds alternate.
 * Without the baseline tree the row reports this tree's figure alone.
 */
export const mixedLoadBench: Benchmark = {
  id: 'mixed-load',
  title: 'Mixed load',
  async run(ctx) {
    const seconds = ctx.quick ? 10 : 30;
    const tree = process.env.MIXED_LOAD_BASELINE_TREE;
    const hasBaseline = tree !== undefined && existsSync(join(tree, 'node_modules'));
    const ours = await startTreeServer(PROJECT_ROOT, SEED);
    let base: TreeServer | undefined;
    try {
      if (hasBaseline) base = await startTreeServer(tree, SEED);
      const p99 = { ours: [] as number[], base: [] as number[] };
      const round = async (s: TreeServer, side: 'ours' | 'base') => {
        const r = await mixedLoad(s, { seconds, connections: CONNECTIONS });
        checkClean(side, r);
        p99[side].push(r.p99Ms);
        ctx.log(`${side}: ${r.requests} requests in ${seconds} s, p99 ${r.p99Ms} ms, ${r.mutationsAcknowledged} mutations`);
        return r.requests / seconds;
      };
      // One short run each first: the JIT and the page cache warm on both sides alike.
      await mixedLoad(ours, { seconds: 2, connections: CONNECTIONS });
      if (!base) {
        const alone: number[] = [];
        for (let i = 0; i < ctx.rounds; i++) alone.push(await round(ours, 'ours'));
        return [oursAlone(alone, tree)];
      }
      await mixedLoad(base, { seconds: 2, connections: CONNECTIONS });
      const b = base;
      const s = await interleaved(
        ctx.rounds,
        () => round(ours, 'ours'),
        () => round(b, 'base'),
        false,
      );
      return [
        ratioRow({ name: NAME, unit: 'req/s', direction: 'higher', targetRatio: 1, notes: `${seconds} s rounds` }, s.ours, s.base),
        ratioRow({ name: 'Mixed load: p99 latency (report)', unit: 'ms', direction: 'lower' }, p99.ours, p99.base),
      ];
    } finally {
      await ours.stop();
      await base?.stop();
    }
  },
};

/** A load run that saw failures or lost acknowledged mutations measures nothing. */
function checkClean(side: string, r: LoadReport): void {
  if (r.errors || r.non2xx) throw new Error(`${side}: ${r.errors} errors and ${r.non2xx} non-2xx answers under the mixed load`);
  if (r.serverMutations < r.mutationsAcknowledged) throw new Error(`${side}: ${r.mutationsAcknowledged} mutations acknowledged, ${r.serverMutations} counted`);
}

function oursAlone(rps: number[], tree: string | undefined): BenchRow {
  return {
    name: NAME,
    unit: 'req/s',
    ours: round(median(rps)),
    baseline: null,
    ratio: null,
    target: '>= 1x',
    pass: null,
    spread: '',
    status: `not available: baseline not built${tree ? ` (${tree} has no node_modules)` : ''}: git worktree add /tmp/vidi-${BASELINE_COMMIT} ${BASELINE_COMMIT}, npm ci there, MIXED_LOAD_BASELINE_TREE=/tmp/vidi-${BASELINE_COMMIT}`,
  };
}
