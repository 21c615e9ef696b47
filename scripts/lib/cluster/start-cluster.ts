import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, findPostgresBin, freePort, startPostgresCluster } from '#tests/support/postgres-cluster';
import { createBucket, deleteBucket, startS3Gateway, type S3Env } from '#tests/support/s3-gateway';
import { CEPH, NGINX, POSTGRES, ensurePackages, type Needed } from './debian-packages';
import { startBalancer } from './nginx-process';
import { PROJECT_ROOT, startNodeProcess, type ManagedProcess } from './node-process';
import { sharedKeys } from './shared-env';
import { nodeEntryArgs, type ServerEntry } from '../node-entry';

export type { S3Env };

export interface ClusterOptions {
  /** Where everything but PostgreSQL lives (a new temp folder by default; removed by stop() either way). */
  dir?: string;
  webInstances?: number;
  workers?: number;
  /** The balancer's port (a free one by default). */
  port?: number;
  /** Echo every process's output, prefixed with its name. */
  log?: boolean;
  /** Added to every instance's and worker's environment (e.g. MEDIA_LEASE_SECONDS). */
  env?: Record<string, string>;
  /** Use this PostgreSQL (a superuser URL) for a new database instead of starting a server. */
  postgresAdminUrl?: string;
  /** Use this S3 gateway for a new bucket instead of starting one. */
  s3Env?: S3Env;
}

export interface ClusterProcess extends ManagedProcess {
  dataDir: string;
}

export interface WebInstance extends ClusterProcess {
  /** The instance itself, bypassing the balancer. */
  url: string;
  port: number;
}

export interface Cluster {
  /** The balancer: what members use (and every instance's PUBLIC_URL). */
  url: string;
  dir: string;
  instances: WebInstance[];
  workers: ClusterProcess[];
  databaseUrl: string;
  s3Env: S3Env;
  bucket: string;
  /** The environment every process shares (database, bucket, keys, PUBLIC_URL, extra env). */
  sharedEnv: Record<string, string>;
  /** The balancer's access log (upstream=host:port on each line). */
  accessLog(): string;
  /** Starts one more media worker. */
  addWorker(): Promise<ClusterProcess>;
  stop(): Promise<void>;
}

export { freePort };

/** The built PWA the instances serve; built once (as `npm start` would) when missing. */
export function ensureClientBuilt(): string {
  const dist = join(PROJECT_ROOT, 'dist/client');
  if (existsSync(join(dist, 'index.html'))) return dist;
  console.log('building the client (dist/client is missing)');
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return dist;
}

function ensurePrerequisites(o: ClusterOptions): void {
  const needs: Needed[] = [NGINX, ...(o.s3Env ? [] : [CEPH]), ...(o.postgresAdminUrl ? [] : [POSTGRES])];
  ensurePackages(needs, (n) => (n === POSTGRES ? findPostgresBin() !== undefined : n.files.some((f) => existsSync(f))));
}

/** Undo steps, run newest first, whether the start completed or failed half-way. */
class Teardown {
  private steps: Array<{ what: string; run: () => Promise<void> | void }> = [];
  add(what: string, run: () => Promise<void> | void): void {
    this.steps.push({ what, run });
  }
  async run(): Promise<void> {
    for (const s of this.steps.reverse()) {
      try {
        await s.run();
      } catch (e) {
        console.error(`cluster: stopping ${s.what} failed:`, e instanceof Error ? e.message : e);
      }
    }
    this.steps = [];
  }
}

async function startDatabase(o: ClusterOptions, teardown: Teardown): Promise<string> {
  const name = `vidi_${randomBytes(4).toString('hex')}`;
  let adminUrl = o.postgresAdminUrl;
  if (!adminUrl) {
    const pg = await startPostgresCluster({ durable: true });
    teardown.add('PostgreSQL', () => pg.stop());
    adminUrl = pg.url();
  }
  await createDatabase(adminUrl, name);
  // The same server and options, another database name.
  const url = adminUrl.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`);
  // What a rolling deploy runs once before any new process starts (docs/deploy.md).
  execFileSync(process.execPath, nodeEntryArgs('migrate'), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return url;
}

async function startStorage(o: ClusterOptions, dir: string, teardown: Teardown): Promise<{ s3Env: S3Env; bucket: string }> {
  let s3Env = o.s3Env;
  if (!s3Env) {
    const gateway = await startS3Gateway({ dir: join(dir, 's3') });
    teardown.add('the S3 gateway', () => gateway.stop());
    s3Env = gateway.env;
  }
  const bucket = `vidi-${randomBytes(4).toString('hex')}`;
  await createBucket(s3Env, bucket);
  if (o.s3Env) teardown.add(`bucket ${bucket}`, () => deleteBucket(s3Env, bucket));
  return { s3Env, bucket };
}

/**
 * Vidi as several instances: PostgreSQL, an S3 gateway with a bucket, `webInstances` web servers
 * (MEDIA_WORKER=off) and `workers` media workers sharing them, and nginx balancing round robin
 * over the web servers. Everything on loopback; docs/deploy.md describes the same on real machines.
 */
export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  ensurePrerequisites(o);
  const clientDist = ensureClientBuilt();
  const ownDir = !o.dir;
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'vidi-cluster-'));
  mkdirSync(dir, { recursive: true });
  // nginx's workers (nobody, when started as root) must reach its folder inside.
  chmodSync(dir, 0o711);
  const teardown = new Teardown();
  teardown.add('the cluster folder', () => (ownDir ? rmSync(dir, { recursive: true, force: true }) : undefined));
  try {
    return await startAll(o, dir, clientDist, teardown);
  } catch (e) {
    await teardown.run();
    throw e;
  }
}

async function startAll(o: ClusterOptions, dir: string, clientDist: string, teardown: Teardown): Promise<Cluster> {
  const storage = startStorage(o, dir, teardown);
  // Awaited together: the gateway's start is mostly waiting on Ceph while PostgreSQL initialises.
  const [databaseUrl, { s3Env, bucket }] = await Promise.all([startDatabase(o, teardown), storage]);
  const port = o.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const sharedEnv: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: url,
    ...sharedKeys(),
    ...s3Env,
    S3_BUCKET: bucket,
    CLIENT_DIST: clientDist,
    TRUST_PROXY_HOPS: '1',
    LOG_LEVEL: 'info',
    ...o.env,
  };
  const spawnIn = (name: string, entry: ServerEntry, ready: RegExp, env: Record<string, string>) => {
    const dataDir = join(dir, name);
    mkdirSync(dataDir, { recursive: true });
    return startNodeProcess({
      name,
      args: nodeEntryArgs(entry),
      ready,
      echo: o.log ?? false,
      logFile: join(dir, `${name}.log`),
      env: { ...sharedEnv, DATA_DIR: dataDir, ...env },
    }).then((p): ClusterProcess => {
      teardown.add(name, () => p.stop());
      return Object.assign(p, { dataDir });
    });
  };

  const instances = await Promise.all(
    Array.from({ length: o.webInstances ?? 2 }, async (_, i) => {
      const name = `web-${String.fromCharCode(97 + i)}`;
      const own = await freePort();
      const p = await spawnIn(name, 'main', /Vidi listening on/, { HOST: '127.0.0.1', PORT: String(own), MEDIA_WORKER: 'off' });
      return Object.assign(p, { url: `http://127.0.0.1:${own}`, port: own });
    }),
  );
  const workers: ClusterProcess[] = [];
  const addWorker = async () => {
    const w = await spawnIn(`worker-${workers.length + 1}`, 'worker', /Vidi media worker running/, {});
    workers.push(w);
    return w;
  };
  for (let i = 0; i < (o.workers ?? 1); i++) await addWorker();

  const balancer = await startBalancer({ dir: join(dir, 'nginx'), port, upstreams: instances.map((i) => `127.0.0.1:${i.port}`) });
  teardown.add('nginx', () => balancer.stop());
  return {
    url,
    dir,
    instances,
    workers,
    databaseUrl,
    s3Env,
    bucket,
    sharedEnv,
    accessLog: balancer.accessLog,
    addWorker,
    stop: () => teardown.run(),
  };
}
