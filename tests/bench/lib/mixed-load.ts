import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type Database from 'better-sqlite3';
import { sampleRss } from './rss';

/** A running server on a seeded SQLite database: the fault suite's (tests/faults/lib/seeded-server.ts) or a bench tree's (tree-server.ts). */
export interface LoadTarget {
  server: { url: string };
  users: string[];
  videos: string[];
  token(userId: string): Promise<string>;
  /** Opens the database read-only (WAL: it sees every committed write of the running server). */
  read<T>(fn: (db: Database.Database) => T): T;
  pid(): number;
}

export interface LoadReport {
  seconds: number;
  connections: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  pushesAcknowledged: number;
  mutationsAcknowledged: number;
  serverMutations: number;
  rssStartMiB: number;
  rssMaxMiB: number;
  rssEndMiB: number;
}

const PER_PUSH = 5;

interface ConnState {
  token?: string;
  clientId?: string;
  nextId?: number;
  acked?: number;
}

/**
 * A bounded autocannon run of mixed traffic from many connections, each its own member and sync
 * client: feed pages and pushes of like/unlike mutations, alternating. Every answer must be 2xx,
 * every acknowledged mutation must be counted by the server, and the server's RSS is sampled. The
 * fault suite's load test (tests/faults/load.test.ts) and the bench's mixed-load row run it.
 */
export async function mixedLoad(s: LoadTarget, o: { seconds: number; connections: number }): Promise<LoadReport> {
  const tokens = await Promise.all(s.users.slice(0, o.connections).map((u) => s.token(u)));
  const states: ConnState[] = [];
  let nextConn = 0;
  let pushes = 0;
  const pid = s.pid();
  const rss = sampleRss(pid);
  const init = (ctx: ConnState) => {
    if (ctx.token) return;
    ctx.token = tokens[nextConn++ % tokens.length]!;
    ctx.clientId = randomUUID();
    ctx.nextId = 1;
    ctx.acked = 0;
    states.push(ctx);
  };
  const result = await autocannon({
    url: s.server.url,
    connections: o.connections,
    duration: o.seconds,
    timeout: 20,
    requests: [
      {
        method: 'GET',
        path: '/api/videos?limit=20',
        setupRequest: (req, ctx) => {
          init(ctx as ConnState);
          return { ...req, headers: { authorization: `Bearer ${(ctx as ConnState).token}` } };
        },
      },
      {
        method: 'POST',
        path: '/api/sync/push',
        setupRequest: (req, ctx) => {
          const c = ctx as ConnState;
          init(c);
          const mutations = Array.from({ length: PER_PUSH }, () => {
            const videoId = s.videos[Math.floor(Math.random() * s.videos.length)]!;
            return { id: c.nextId!++, name: Math.random() < 0.6 ? 'like' : 'unlike', args: { videoId } };
          });
          return {
            ...req,
            headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ client_id: c.clientId, mutations }),
          };
        },
        onResponse: (status, _body, ctx) => {
          if (status === 200) {
            pushes++;
            (ctx as ConnState).acked! += PER_PUSH;
          }
        },
      },
    ],
  });
  const samples = rss.stop();
  const ids = states.map((c) => c.clientId!);
  const serverMutations = s.read((db) =>
    Number(
      db
        .prepare(`SELECT coalesce(sum(last_mutation_id), 0) FROM sync_clients WHERE client_id IN (SELECT value FROM json_each(?))`)
        .pluck()
        .get(JSON.stringify(ids)),
    ),
  );
  return {
    seconds: o.seconds,
    connections: o.connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    pushesAcknowledged: pushes,
    mutationsAcknowledged: states.reduce((a, c) => a + (c.acked ?? 0), 0),
    serverMutations,
    rssStartMiB: Math.round(samples[0] ?? NaN),
    rssMaxMiB: Math.round(Math.max(...samples)),
    rssEndMiB: Math.round(samples[samples.length - 1] ?? NaN),
  };
}
