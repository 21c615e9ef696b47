import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '#tests/support/postgres-cluster';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';

/**
 * A throwaway S3-compatible gateway (Ceph's RADOS Gateway, single node on loopback) for the tests
 * and local multi-instance runs: a wrapper around tests/support/s3-gateway.sh, plus the few bucket chores
 * the tests need. Nothing here is used by the server itself.
 */

/** What a server (server/config.ts) or a client needs to reach the gateway. */
export interface S3Env {
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: 'true';
}

export interface S3Gateway {
  env: S3Env;
  /** The cluster's folder: every file of it, logs in `log/`. */
  dir: string;
  /** Stops every daemon; deletes the folder too when startS3Gateway made it. */
  stop(): Promise<void>;
}

/** The S3 user's keys when S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY do not say otherwise. */
export const DEFAULT_S3_ACCESS_KEY_ID = 'vidi-test';
export const DEFAULT_S3_SECRET_ACCESS_KEY = 'vidi-test-secret';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 's3-gateway.sh');
const BINARIES = ['ceph', 'ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph-authtool', 'monmaptool'];
const INSTALL = 'apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common';

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether Debian's Ceph packages (mon, osd, radosgw, the tools) are installed. */
export function cephInstalled(): boolean {
  return BINARIES.every(onPath);
}

function runScript(args: string[], timeoutMs: number): Promise<string> {
  return new Promise((ok, fail) => {
    execFile('bash', [SCRIPT, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`tests/support/s3-gateway.sh ${args[0]} failed (${error.code ?? error.signal}):\n${stderr.slice(-4000)}`));
      else ok(stdout);
    });
  });
}

function parseEnv(stdout: string): S3Env {
  const vars = Object.fromEntries(
    stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const env = {
    S3_ENDPOINT: vars.S3_ENDPOINT,
    S3_REGION: vars.S3_REGION,
    S3_ACCESS_KEY_ID: vars.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: vars.S3_SECRET_ACCESS_KEY,
    S3_FORCE_PATH_STYLE: vars.S3_FORCE_PATH_STYLE,
  };
  for (const [key, value] of Object.entries(env)) if (!value) throw new Error(`tests/support/s3-gateway.sh printed no ${key}:\n${stdout}`);
  if (env.S3_FORCE_PATH_STYLE !== 'true') throw new Error(`tests/support/s3-gateway.sh printed S3_FORCE_PATH_STYLE=${env.S3_FORCE_PATH_STYLE}`);
  return env as S3Env;
}

/**
 * Starts a gateway in `dir` (default: a new temporary folder, deleted by `stop()`), or starts again
 * the stopped one a given `dir` holds (kept by `stop()`). `port` is the S3 port (default: a free
 * one). About 5 s from nothing, 3 s for a restart.
 */
export async function startS3Gateway(opts: { dir?: string; port?: number } = {}): Promise<S3Gateway> {
  if (!cephInstalled()) throw new Error(`Ceph is not installed, the S3 gateway cannot start: ${INSTALL}`);
  const ownDir = !opts.dir;
  // On disk even when the tests keep their data in memory (vitest.config.ts): Ceph opens its block file with O_DIRECT.
  const dir = opts.dir ?? mkdtempSync(join(process.env.VIDI_DISK_TMPDIR ?? tmpdir(), 'vidi-s3-'));
  // A new cluster gets both ports from the kernel; one that exists keeps its own unless taken.
  const fresh = !existsSync(join(dir, 'created'));
  const rgwPort = opts.port ?? (fresh ? await freePort() : undefined);
  const monPort = fresh ? await freePort() : undefined;
  const stop = async () => {
    await runScript(['stop', dir], 60_000);
    if (ownDir) rmSync(dir, { recursive: true, force: true });
  };
  let stdout: string;
  try {
    stdout = await runScript(['start', dir, rgwPort ? String(rgwPort) : '', monPort ? String(monPort) : ''], 180_000);
  } catch (error) {
    // Whatever did start goes; the folder stays when it has the logs worth reading.
    await runScript(['stop', dir], 60_000).catch(() => undefined);
    throw error;
  }
  return { env: parseEnv(stdout), dir, stop };
}

/** An S3 client for the gateway. RGW needs the checksum settings: see the comment inside. */
export function s3ClientFor(env: S3Env): S3Client {
  return new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    // By default the SDK sends stream bodies `aws-chunked` with a trailing checksum, which RGW
    // answers with 411 MissingContentLength; checksums only where the API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

/** Creates bucket `name`; one that already exists (ours) is fine. */
export async function createBucket(env: S3Env, name: string): Promise<void> {
  const client = s3ClientFor(env);
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  } catch (error) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(errorName(error))) throw error;
  } finally {
    client.destroy();
  }
}

async function emptyBucket(client: S3Client, name: string): Promise<void> {
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: name, ContinuationToken: token }));
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [{ Key: o.Key }]));
    if (keys.length) {
      const result = await client.send(new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: keys, Quiet: true } }));
      if (result.Errors?.length) throw new Error(`DeleteObjects in ${name}: ${result.Errors.map((e) => `${e.Key}: ${e.Code}`).join(', ')}`);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    const page = await client.send(new ListMultipartUploadsCommand({ Bucket: name, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
    for (const upload of page.Uploads ?? []) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: name, Key: upload.Key, UploadId: upload.UploadId }));
    }
    if (!page.IsTruncated) break;
    keyMarker = page.NextKeyMarker;
    uploadIdMarker = page.NextUploadIdMarker;
  }
}

/** Empties bucket `name` (objects and unfinished multipart uploads) and deletes it; a missing one is fine. */
export async function deleteBucket(env: S3Env, name: string): Promise<void> {
  const client = s3ClientFor(env);
  try {
    await emptyBucket(client, name);
    await client.send(new DeleteBucketCommand({ Bucket: name }));
  } catch (error) {
    if (errorName(error) !== 'NoSuchBucket') throw error;
  } finally {
    client.destroy();
  }
}
