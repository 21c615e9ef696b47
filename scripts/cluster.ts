import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { freePort, startCluster, type Cluster } from './lib/cluster/start-cluster';
import { shellAssignments } from './lib/cluster/shared-env';

// `npm run cluster [-- --web N --workers N --port P --log]`: Vidi as several instances on this
// machine, as docs/deploy.md lays it out on several: PostgreSQL, an S3 gateway (Ceph RGW), web
// instances and media workers sharing them, nginx in front. Up until Ctrl-C; then all of it,
// data included, is stopped and deleted.

const USAGE = `npm run cluster -- [--web N (2)] [--workers N (1)] [--port P (8080, else a free one)] [--log]
  --log   echo every process's output here (it is always written to <dir>/<name>.log)`;

function options() {
  const { values } = parseArgs({
    options: {
      web: { type: 'string', default: '2' },
      workers: { type: 'string', default: '1' },
      port: { type: 'string' },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = (name: string, v: string, min: number, max = 16) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max} (got ${v})\n${USAGE}`);
    return n;
  };
  return {
    webInstances: count('web', values.web, 1),
    workers: count('workers', values.workers, 0),
    port: values.port === undefined ? undefined : count('port', values.port, 1, 65535),
    log: values.log,
  };
}

/** 8080 like `npm start`, unless something listens there already. */
async function balancerPort(asked: number | undefined): Promise<number> {
  if (asked) return asked;
  const probe = await fetch('http://127.0.0.1:8080/', { signal: AbortSignal.timeout(500) }).then(
    () => true,
    () => false,
  );
  return probe ? freePort() : 8080;
}

function describe(c: Cluster): string {
  const admin = shellAssignments({ DATABASE_URL: c.databaseUrl });
  return [
    '',
    `Vidi cluster up: ${c.url}  (nginx, round robin)`,
    '',
    ...c.instances.map((i) => `  ${i.name.padEnd(9)} ${i.url}  pid ${i.pid}  DATA_DIR ${i.dataDir}`),
    ...c.workers.map((w) => `  ${w.name.padEnd(9)} media worker  pid ${w.pid}`),
    `  database  ${c.databaseUrl}`,
    `  S3        ${c.s3Env.S3_ENDPOINT}  bucket ${c.bucket}`,
    `  nginx     ${join(c.dir, 'nginx', 'nginx.conf')}, access log ${join(c.dir, 'nginx', 'access.log')}`,
    `  logs      ${join(c.dir, '<name>.log')}`,
    '',
    'An administrator to sign in with:',
    `  ${admin} npm run admin -- --email admin@example.com --password 'a long passphrase' --name Admin`,
    `Sign-up mails (no SMTP_URL) land as .eml files in the mail/ folder of the instance that sent them: ${c.instances.map((i) => join(i.dataDir, 'mail')).join(', ')}`,
    '',
    'Ctrl-C stops everything and deletes its data.',
  ].join('\n');
}

async function main(): Promise<void> {
  const o = options();
  const port = await balancerPort(o.port);
  console.log(`starting: PostgreSQL, the S3 gateway, ${o.webInstances} web instance(s), ${o.workers} worker(s), nginx on ${port}`);
  const cluster = await startCluster({ ...o, port });
  console.log(describe(cluster));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the cluster`);
    void cluster.stop().then(
      () => {
        console.log('stopped; its folder is deleted');
        process.exit(0);
      },
      (e: unknown) => {
        console.error('the cluster did not stop cleanly:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error('cluster:', e instanceof Error ? e.message : e);
  process.exit(1);
});
