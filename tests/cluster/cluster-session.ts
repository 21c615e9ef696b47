import { randomUUID } from 'node:crypto';
import type {} from '../setup/s3';
import type {} from '../helpers/test-database';
import { readMailSink } from '../helpers/mail-sink';
import { openDatabase, type DbHandle } from '#db/connect';
import { startCluster, type Cluster, type ClusterOptions } from '../../scripts/lib/cluster/start-cluster';
import { readSseEvents } from '../helpers/sse';

// Shared steps of the cluster tests (tests/cluster): a cluster on the run's PostgreSQL and S3
// gateway, members made through the balancer, and an event stream read as the client reads it.

export const PASSWORD = 'correct horse 1';

/**
 * A cluster for one test file. In the `cluster` project the run's PostgreSQL server and S3 gateway
 * (tests/setup/postgres.ts, tests/setup/s3.ts) get a new database and bucket; without them,
 * startCluster starts its own.
 */
export async function startTestCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const { inject } = await import('vitest');
  const s3Env = inject('s3Env');
  const pgAdminUrl = inject('pgAdminUrl');
  return startCluster({ ...(s3Env ? { s3Env } : {}), ...(pgAdminUrl ? { postgresAdminUrl: pgAdminUrl } : {}), ...o });
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

/** Where members sign up: a balancer and the instances behind it (whose DATA_DIR/mail hold the mails), or one server. */
export interface SignUpTarget {
  url: string;
  instances: Array<{ dataDir: string }>;
}

/** The verification link mailed to `email` by whichever instance handled the sign-up. */
function verificationLink(cluster: SignUpTarget, email: string): string | undefined {
  const mails = cluster.instances.flatMap((i) => readMailSink(i.dataDir)).filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
  return mails.flatMap((m) => m.links).find((l) => l.includes('/api/auth/verify?token='));
}

/**
 * A member signed up and verified through the balancer, as a person would; returns their id.
 * Plain checks rather than expect(): the benchmarks (tests/bench/cluster.ts) run it outside vitest.
 */
export async function signUpVerified(cluster: SignUpTarget, name: string, email: string, password = PASSWORD): Promise<string> {
  const res = await fetch(`${cluster.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password }),
  });
  if (res.status !== 201) throw new Error(`sign-up of ${email} answered ${res.status}: ${await res.text()}`);
  const link = verificationLink(cluster, email);
  if (!link) throw new Error(`no verification link mailed to ${email} in any instance's DATA_DIR/mail`);
  // PUBLIC_URL is the balancer, so the mailed link works as it is.
  if (new URL(link).origin !== cluster.url) throw new Error(`the mailed link ${link} is not on ${cluster.url}`);
  const verified = await fetch(link, { redirect: 'manual' });
  if (!/\/login\?verified=1$/.test(verified.headers.get('location') ?? '')) throw new Error(`verifying ${email} answered ${verified.status}`);
  return (await logIn(cluster.url, email, password)).userId;
}

export async function logIn(origin: string, email: string, password = PASSWORD): Promise<{ token: string; userId: string }> {
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  if (res.status !== 200) throw new Error(`login of ${email} at ${origin}: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.access_token, userId: body.user.id };
}

/** The cluster's database through Kysely; close it when done. */
export function clusterDatabase(cluster: Cluster): DbHandle {
  return openDatabase(cluster.databaseUrl);
}

export interface EventStream {
  /** Arrival times (performance.now()) of each poke event. */
  pokes: number[];
  /** Resolves on the stream's `ready` event. */
  ready: Promise<void>;
  close(): void;
}

/** GET /api/sync/events read as the client reads it (server/realtime/routes.ts); each poke's arrival time is noted. */
export async function openEventStream(origin: string, token: string): Promise<EventStream> {
  const ctl = new AbortController();
  const res = await fetch(`${origin}/api/sync/events?client_id=${randomUUID()}`, { headers: { authorization: `Bearer ${token}` }, signal: ctl.signal });
  if (res.status !== 200 || !res.body) throw new Error(`GET /api/sync/events at ${origin} answered ${res.status}`);
  const pokes: number[] = [];
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((ok) => (onReady = ok));
  void readSseEvents(res.body, ({ event }, at) => {
    if (event === 'ready') onReady();
    if (event === 'poke') pokes.push(at);
  });
  return { pokes, ready, close: () => ctl.abort() };
}

/** One like or unlike of `videoId` pushed to `origin` as a new mutation of `clientId`. */
export async function pushLike(origin: string, token: string, clientId: string, id: number, like: boolean, videoId: string): Promise<void> {
  const res = await fetch(`${origin}/api/sync/push`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, mutations: [{ id, name: like ? 'like' : 'unlike', args: { videoId } }] }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`push to ${origin} answered ${res.status}: ${text}`);
}

/** Polls `probe` until it gives something truthy; after `ms`, throws naming `what`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}
