/**
 * What Lighthouse's simulated FCP and LCP are made of, for one kept run (issue 32). Lighthouse does
 * not time the page as it loaded: its simulation (Lantern) replays the page's requests over slow 4G
 * and its main-thread tasks at 4x, keeping for each metric the requests and tasks that ended before
 * the paint was observed and what they depend on. This lists them with their simulated times, so a
 * change can aim at what the simulation waits for.
 *
 *   VIDI_LIGHTHOUSE_HOME_ONLY=1 VIDI_LIGHTHOUSE_ARTIFACTS=/tmp/lh npm run bench -- --only lighthouse --seed-size small --quick
 *   npx tsx tests/bench/lighthouse-lantern.ts /tmp/lh/home-*.artifacts.json [lcp-pessimistic|lcp-optimistic|fcp-pessimistic|fcp-optimistic|tbt]
 *
 * `tbt` lists the simulated tasks that add to total blocking time, each with what it did in the
 * observed trace (tests/bench/lib/trace-tasks.ts).
 */
import { readFileSync } from 'node:fs';
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import { traceTasks } from './lib/trace-tasks';

interface SimNode {
  type: 'cpu' | 'network';
  request?: { url: string; priority: string; transferSize: number };
  getEvaluateScriptURLs?(): Set<string>;
  /** A CPU node's top-level task in the observed trace (microseconds). */
  event?: { ts: number; dur: number };
  didPerformLayout?(): boolean;
}
interface Estimate {
  timeInMs: number;
  nodeTimings: Map<SimNode, { startTime: number; endTime: number }>;
}
interface MetricResult {
  timing: number;
  optimisticEstimate: Estimate;
  pessimisticEstimate: Estimate;
}
type Computed = { request(data: unknown, context: unknown): Promise<MetricResult> };

const short = (u: string) => u.replace(/^https?:\/\/[^/]+/, '').slice(-48);

function describe(node: SimNode): string {
  if (node.type === 'network' && node.request) return `NET ${node.request.priority} ${short(node.request.url)} ${node.request.transferSize} B`;
  const scripts = [...(node.getEvaluateScriptURLs?.() ?? [])].map(short).join(', ');
  return `CPU ${scripts}${node.didPerformLayout?.() ? ' (layout)' : ''}`;
}

function show(name: string, est: Estimate): void {
  const rows = [...est.nodeTimings].sort((a, b) => a[1].startTime - b[1].startTime);
  let cpu = 0;
  let bytes = 0;
  for (const [node, t] of rows) {
    if (node.type === 'cpu') cpu += t.endTime - t.startTime;
    else bytes += node.request?.transferSize ?? 0;
  }
  console.log(`${name}: ${Math.round(est.timeInMs)} ms; ${rows.length} nodes, ${Math.round(cpu)} ms of CPU, ${bytes} bytes`);
  for (const [node, t] of rows) {
    // Short tasks are many and say little; every request is listed.
    if (node.type === 'cpu' && t.endTime - t.startTime < 40) continue;
    console.log(`  ${Math.round(t.startTime)}-${Math.round(t.endTime)} ${describe(node)}`);
  }
}

const [file, which = 'lcp-pessimistic'] = process.argv.slice(2);
if (!file) throw new Error('usage: lighthouse-lantern.ts <run.artifacts.json> [lcp-pessimistic|lcp-optimistic|fcp-pessimistic|fcp-optimistic|tbt]');
const kept = JSON.parse(readFileSync(file, 'utf8')) as { Trace: unknown; DevtoolsLog: unknown; URL: unknown; GatherContext: unknown; settings: unknown };
const data = {
  trace: kept.Trace,
  devtoolsLog: kept.DevtoolsLog,
  gatherContext: kept.GatherContext,
  settings: kept.settings,
  simulator: null,
  URL: kept.URL,
  SourceMaps: [],
};
const context = { computedCache: new Map(), settings: kept.settings };
const fcp = await (LanternFirstContentfulPaint as unknown as Computed).request(data, context);
const lcp = await (LanternLargestContentfulPaint as unknown as Computed).request(data, context);
for (const [label, m] of [['FCP', fcp] as const, ['LCP', lcp] as const])
  console.log(
    `${label} ${Math.round(m.timing)} ms (optimistic ${Math.round(m.optimisticEstimate.timeInMs)}, pessimistic ${Math.round(m.pessimisticEstimate.timeInMs)})`,
  );
if (which === 'tbt') {
  // The simulated tasks of 50 ms or more that start after the simulated FCP: what total blocking
  // time adds up, each with its observed start, to find it in a profile of the same run.
  const tbt = await (LanternTotalBlockingTime as unknown as Computed).request(data, context);
  const est = tbt.pessimisticEstimate;
  const navStart = Math.min(...[...est.nodeTimings.keys()].flatMap((n) => (n.event ? [n.event.ts] : [])));
  console.log(`TBT ${Math.round(tbt.timing)} ms; FCP ${Math.round(fcp.pessimisticEstimate.timeInMs)} ms (pessimistic)`);
  const long = [...est.nodeTimings].filter(([n, t]) => n.type === 'cpu' && t.endTime - t.startTime >= 50 && t.startTime >= fcp.pessimisticEstimate.timeInMs);
  const detail = traceTasks((kept.Trace as { traceEvents: Parameters<typeof traceTasks>[0] }).traceEvents);
  for (const [node, t] of long.sort((a, b) => a[1].startTime - b[1].startTime)) {
    console.log(
      `  ${Math.round(t.startTime)} +${Math.round(t.endTime - t.startTime)} (observed at ${Math.round(((node.event?.ts ?? navStart) - navStart) / 1000)} ms after the first task) ${describe(node)}`,
    );
    // What the task did, from the observed trace: a callback's node names no script.
    if (node.event) {
      const { events, functions } = detail(node.event.ts, node.event.dur);
      console.log(`      ${events.join(', ')}${functions.length ? `; in ${functions.join(', ')}` : ''}`);
    }
  }
  process.exit(0);
}
const [metric, side] = which.split('-');
const chosen = metric === 'fcp' ? fcp : lcp;
show(which, side === 'optimistic' ? chosen.optimisticEstimate : chosen.pessimisticEstimate);
