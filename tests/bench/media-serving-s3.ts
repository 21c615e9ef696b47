import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startServer, type ServerProcess } from '../helpers/server-process';
import {
  cephInstalled,
  createBucket,
  DEFAULT_S3_ACCESS_KEY_ID,
  DEFAULT_S3_SECRET_ACCESS_KEY,
  deleteBucket,
  s3ClientFor,
  startS3Gateway,
  type S3Env,
  type S3Gateway,
} from '../support/s3-gateway';
import { formatTable, ratioRow, unavailable, type BenchRow } from './lib/result';

const MiB = 1024 * 1024;
const KEY = 'bench/1700000000000-media.mp4';

export interface MediaServingS3Options {
  /** A running gateway's S3_* variables; without it one is started for the run (and stopped). */
  s3Env?: S3Env | undefined;
  /** Measured rounds per side (after one discarded warm-up of each). */
  rounds?: number;
  /** Ranged GETs of 1 MiB per round, and full GETs of the whole file per round. */
  rangedGets?: number;
  fullGets?: number;
  /** The file's size (MiB). */
  fileMiB?: number;
  /** Ranged GETs in flight at once (a player plus the service worker's prefetch). */
  concurrency?: number;
  log?: (message: string) => void;
}

type Side = 'disk' | 'proxy' | 'presigned';

const ROWS = {
  rangedProxy: { name: 'Media from S3: 1 MiB ranged GETs through /media (proxy) vs the disk route', unit: 'MB/s' },
  rangedDirect: { name: 'Media from S3: 1 MiB ranged GETs, presigned direct to S3 vs the disk route', unit: 'MB/s' },
  fullProxy: { name: 'Media from S3: full GETs through /media (proxy) vs the disk route', unit: 'MB/s' },
  fullDirect: { name: 'Media from S3: full GETs, presigned direct to S3 vs the disk route', unit: 'MB/s' },
} as const;

/** GETs the URL (with a Range when given), reads the whole body and checks its length. */
async function getBytes(url: string, range: [number, number] | null, expected: number): Promise<number> {
  const res = await fetch(url, range ? { headers: { Range: `bytes=${range[0]}-${range[1]}` } } : {});
  if (res.status !== (range ? 206 : 200)) throw new Error(`GET ${url} answered ${res.status}`);
  let got = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) got += chunk.length;
  if (got !== expected) throw new Error(`GET ${url} gave ${got} bytes, not ${expected}`);
  return got;
}

/** MB/s of `count` ranged GETs of 1 MiB at spread offsets, `concurrency` at a time. */
async function rangedRound(url: string, size: number, count: number, concurrency: number): Promise<number> {
  const starts = Array.from({ length: count }, (_, i) => Math.floor(((i * 7919) % count) * ((size - MiB) / count)));
  let next = 0;
  let bytes = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < starts.length) {
        const start = starts[next++]!;
        bytes += await getBytes(url, [start, start + MiB - 1], MiB);
      }
    }),
  );
  return bytes / 1e6 / ((performance.now() - t0) / 1000);
}

/** MB/s of `count` full GETs one after another. */
async function fullRound(url: string, size: number, count: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await getBytes(url, null, size);
  return (count * size) / 1e6 / ((performance.now() - t0) / 1000);
}

/** Runs each side once per round, the order rotating so drifts of a shared machine hit all alike. */
async function rotated(rounds: number, sides: Record<Side, () => Promise<number>>): Promise<Record<Side, number[]>> {
  const order: Side[] = ['disk', 'proxy', 'presigned'];
  for (const s of order) await sides[s]();
  const out: Record<Side, number[]> = { disk: [], proxy: [], presigned: [] };
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < order.length; i++) {
      const s = order[(r + i) % order.length]!;
      out[s].push(await sides[s]());
    }
  }
  return out;
}

/**
 * Proxy or redirect for media on S3 (docs/decisions/0018-several-instances.md): the same file served
 * by the /media route from DATA_DIR (the baseline), by the /media route from S3 (the server proxies
 * the bytes), and by the gateway itself through a presigned URL (what a redirect would make the
 * browser fetch, cross-origin). Real server processes and a real Ceph RGW on loopback.
 */
export async function benchMediaServingS3(opts: MediaServingS3Options = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => {});
  const rounds = opts.rounds ?? 5;
  const rangedGets = opts.rangedGets ?? 200;
  const fullGets = opts.fullGets ?? 5;
  const size = (opts.fileMiB ?? 20) * MiB;
  const concurrency = opts.concurrency ?? 4;
  if (!opts.s3Env && !cephInstalled()) return Object.values(ROWS).map((r) => unavailable(r.name, r.unit, 'report', 'Ceph RGW is not installed'));

  let gateway: S3Gateway | undefined;
  const servers: ServerProcess[] = [];
  const work = mkdtempSync(join(tmpdir(), 'vidi-bench-s3-'));
  const bucket = `bench-${randomBytes(4).toString('hex')}`;
  let env = opts.s3Env;
  try {
    if (!env) {
      log('media-s3: starting a Ceph RGW');
      gateway = await startS3Gateway();
      env = gateway.env;
    }
    await createBucket(env, bucket);
    const bytes = randomBytes(size);
    const s3 = s3ClientFor(env);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `media/${KEY}`, Body: bytes, ContentType: 'video/mp4' }));
    const presigned = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: `media/${KEY}` }), { expiresIn: 3600 });
    s3.destroy();

    const diskData = join(work, 'disk');
    mkdirSync(dirname(join(diskData, 'media', KEY)), { recursive: true });
    writeFileSync(join(diskData, 'media', KEY), bytes);
    log('media-s3: starting the disk-backed and the S3-backed server');
    const disk = await startServer({ dataDir: diskData, env: { S3_BUCKET: '', LOG_LEVEL: 'error', MEDIA_WORKER: 'off' } });
    servers.push(disk);
    const proxy = await startServer({ dataDir: join(work, 's3'), env: { ...env, S3_BUCKET: bucket, LOG_LEVEL: 'error', MEDIA_WORKER: 'off' } });
    servers.push(proxy);
    const urls: Record<Side, string> = { disk: `${disk.url}/media/${KEY}`, proxy: `${proxy.url}/media/${KEY}`, presigned };

    log(`media-s3: ${rangedGets} ranged GETs of 1 MiB x ${rounds} rounds`);
    const ranged = await rotated(rounds, {
      disk: () => rangedRound(urls.disk, size, rangedGets, concurrency),
      proxy: () => rangedRound(urls.proxy, size, rangedGets, concurrency),
      presigned: () => rangedRound(urls.presigned, size, rangedGets, concurrency),
    });
    log(`media-s3: ${fullGets} full GETs of ${size / MiB} MiB x ${rounds} rounds`);
    const full = await rotated(rounds, {
      disk: () => fullRound(urls.disk, size, fullGets),
      proxy: () => fullRound(urls.proxy, size, fullGets),
      presigned: () => fullRound(urls.presigned, size, fullGets),
    });
    const notes = (what: string) => `${what}; ${size / MiB} MiB file, Ceph RGW on loopback, baseline the /media route from DATA_DIR`;
    const rangedNote = notes(`${rangedGets} GETs, ${concurrency} in flight`);
    const fullNote = notes(`${fullGets} GETs in a row`);
    return [
      ratioRow({ ...ROWS.rangedProxy, direction: 'higher', notes: rangedNote }, ranged.proxy, ranged.disk),
      ratioRow({ ...ROWS.rangedDirect, direction: 'higher', notes: rangedNote }, ranged.presigned, ranged.disk),
      ratioRow({ ...ROWS.fullProxy, direction: 'higher', notes: fullNote }, full.proxy, full.disk),
      ratioRow({ ...ROWS.fullDirect, direction: 'higher', notes: fullNote }, full.presigned, full.disk),
    ];
  } finally {
    for (const s of servers) await s.stop();
    if (env) await deleteBucket(env, bucket).catch(() => {});
    await gateway?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

// `node --import tsx tests/bench/media-serving-s3.ts [S3_ENDPOINT]`: the rows as a table.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const endpoint = process.argv[2];
  const s3Env: S3Env | undefined = endpoint
    ? {
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: DEFAULT_S3_ACCESS_KEY_ID,
        S3_SECRET_ACCESS_KEY: DEFAULT_S3_SECRET_ACCESS_KEY,
        S3_FORCE_PATH_STYLE: 'true',
      }
    : undefined;
  benchMediaServingS3({ s3Env, log: (m) => console.error(m) }).then(
    (rows) => console.log(formatTable(rows)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
