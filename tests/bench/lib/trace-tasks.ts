/**
 * What a main-thread task of a kept Lighthouse trace did: its child trace events by time (layout,
 * a module's evaluation, a timer, microtasks) and, when the run kept the JS samples
 * (VIDI_LIGHTHOUSE_CPU_PROFILE, on by default), the functions it spent them in. Lantern's nodes say
 * only which scripts a task evaluated, which is empty for a callback (tests/bench/lighthouse-lantern.ts).
 */

interface TraceEvent {
  name: string;
  ph?: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      startTime?: number;
      timeDeltas?: number[];
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
    };
  };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName?: string; url?: string };
}

export interface TaskDetail {
  /** The top child events by time, as "name ms". */
  events: string[];
  /** The functions most samples were in (self time), as "name (file) xN". */
  functions: string[];
}

const file = (url = '') => url.replace(/^.*\//, '') || '(native)';
const top = (m: Map<string, number>, n: number, show: (k: string, v: number) => string) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => show(k, v));

interface Sample {
  t: number;
  id: number;
}

/** The page's renderer main thread: the one whose profile started last (earlier renderers held about:blank). */
function pageThread(events: TraceEvent[]): TraceEvent | undefined {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const profiles = events.filter((e) => e.name === 'Profile' && mains.some((m) => m.pid === e.pid && m.tid === e.tid));
  return profiles.at(-1) ?? mains.at(-1);
}

type ChunkData = NonNullable<NonNullable<TraceEvent['args']>['data']>;

/** The thread's JS samples, each with its time on the trace's clock, and the profile's nodes by id. */
function jsSamples(events: TraceEvent[], page: TraceEvent): { nodes: Map<number, ProfileNode>; samples: Sample[] } {
  const nodes = new Map<number, ProfileNode>();
  const samples: Sample[] = [];
  let t = page.args?.data?.startTime ?? 0;
  const chunks = events.filter((e) => e.name === 'ProfileChunk' && e.pid === page.pid && e.id === page.id);
  for (const data of chunks.map((e): ChunkData => e.args?.data ?? {})) {
    const { nodes: added = [], samples: ids = [] } = data.cpuProfile ?? {};
    const deltas = data.timeDeltas ?? [];
    for (const n of added) nodes.set(n.id, n);
    ids.forEach((id, i) => samples.push({ t: (t += deltas[i] ?? 0), id }));
  }
  return { nodes, samples };
}

function frameName(node: ProfileNode | undefined): string {
  const frame = node?.callFrame;
  return frame ? `${frame.functionName || '(anonymous)'} (${file(frame.url)})` : '?';
}

/** Reads the page's renderer main thread from a kept trace; the answer describes one task of it. */
export function traceTasks(events: TraceEvent[]): (ts: number, dur: number) => TaskDetail {
  const page = pageThread(events);
  if (!page) return () => ({ events: [], functions: [] });
  const onMain = events.filter((e) => e.pid === page.pid && e.tid === page.tid && e.ph === 'X' && e.name !== 'RunTask');
  const { nodes, samples } = jsSamples(events, page);
  return (ts, dur) => {
    const byEvent = new Map<string, number>();
    for (const e of onMain) {
      if (e.ts >= ts && e.ts + (e.dur ?? 0) <= ts + dur) byEvent.set(e.name, (byEvent.get(e.name) ?? 0) + (e.dur ?? 0));
    }
    const bySelf = new Map<string, number>();
    for (const s of samples) {
      if (s.t < ts || s.t > ts + dur) continue;
      const name = frameName(nodes.get(s.id));
      bySelf.set(name, (bySelf.get(name) ?? 0) + 1);
    }
    return {
      events: top(byEvent, 4, (k, v) => `${k} ${(v / 1000).toFixed(1)}`),
      functions: top(bySelf, 4, (k, v) => `${k} x${v}`),
    };
  };
}
