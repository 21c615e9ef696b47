import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { findPostgresBin } from '#tests/support/postgres-cluster';
import { cephInstalled } from '#tests/support/s3-gateway';
import { SpreadLockedFiles } from '#tests/setup/spread-locked-files';

/**
 * Test data in memory: the servers' DATA_DIRs, SQLite and PostgreSQL files and Chromium's profiles go
 * under /dev/shm when it is there. Their fsyncs then cost nothing, and a browser test no longer stalls
 * behind another file's database writes (an IndexedDB commit waited seconds on the shared disk, and a
 * sign-in missed its 30 s). The S3 gateway's block file stays on disk: Ceph opens it with O_DIRECT,
 * which tmpfs refuses (tests/support/s3-gateway.ts reads VIDI_DISK_TMPDIR). VIDI_TEST_TMPDIR=keep
 * leaves TMPDIR alone.
 */
function testDataInMemory(): void {
  if (process.env.VIDI_TEST_TMPDIR === 'keep' || process.env.VIDI_DISK_TMPDIR) return;
  const dir = '/dev/shm/vidi-tests';
  try {
    mkdirSync(dir, { recursive: true, mode: 0o1777 });
    accessSync(dir, constants.W_OK);
  } catch {
    return;
  }
  process.env.VIDI_DISK_TMPDIR = tmpdir();
  process.env.TMPDIR = dir;
}
testDataInMemory();

/** The API and integration suites run once per database engine (docs/decisions/0017-postgresql.md), but for ENGINE_INDEPENDENT. */
const SERVER_SUITES = ['tests/api/**/*.test.ts', 'tests/integration/**/*.test.ts'];

/**
 * Server suites whose outcome does not depend on the engine run on SQLite only. Each guards something
 * decided before or beside the database; the rows they set up go through the same helpers and queries
 * that the suites left on both engines cover.
 */
const ENGINE_INDEPENDENT = [
  // Health, the security and CORS headers, the OpenAPI document, the API 404: no query differs.
  'tests/api/system.test.ts',
  // The built client from disk: pages, the shell, status codes, robots.txt, the sitemap.
  'tests/integration/static-client.test.ts',
  // Which coding each Accept-Encoding gets; the feed page it compresses is read on both engines by
  // tests/api/media-visibility.test.ts and tests/integration/sync-api.test.ts.
  'tests/integration/compression.test.ts',
  // Body limits refuse before any row is read; the poster owner check is one plain select.
  'tests/integration/oversize-bodies.test.ts',
  // Which ffmpeg build runs and what it refuses; the job queue around it is tested on both
  // (tests/integration/media-jobs.test.ts and its -retries and -crash siblings).
  'tests/integration/ffmpeg-npm-fallback.test.ts',
  'tests/integration/media-hostile.test.ts',
  // The bounded reliability suite runs its server on a seeded SQLite file in every project (it reads
  // the rows with better-sqlite3: tests/faults/lib/seeded-server.ts): the PostgreSQL run was the same run again.
  'tests/integration/faults-ci.test.ts',
];

/**
 * Run again with media and uploads in S3 (a Ceph RADOS Gateway, tests/setup/s3.ts) on PostgreSQL,
 * the several-instances deployment: the upload and sync suites, plus what only S3 has (tests/s3, with
 * the media job runner's S3 side in tests/s3/media-jobs-s3.test.ts; its disk suites look at folders).
 */
/**
 * The server suites (SQLite, PostgreSQL, S3) load the server's modules once per worker instead of once
 * per file: each file builds its own app, database and server from them (tests/helpers/test-app.ts),
 * mocks nothing and sets no environment variable, so nothing a file does outlives it but the modules'
 * own bounded caches. Per-file loading cost about 1.1 s of CPU a file (the SQLite project: 116 s of
 * its 126 s wall were imports; 12 s and 81 s without; docs/benchmarks.md, "CI time"). A suite that
 * needs a global of its own passes it explicitly (fake-indexeddb's factory to Dexie, not its `auto`).
 * The unit project keeps isolation: its client tests stub globals and timers.
 */
const ISOLATE_SERVER_FILES = false;

const S3_SUITES = [
  'tests/s3/**/*.test.ts',
  'tests/integration/upload*.test.ts',
  'tests/integration/sync-api.test.ts',
  'tests/integration/sync-restart.test.ts',
];

const postgresBin = findPostgresBin();
const ceph = cephInstalled();
if (!ceph && !process.env.CI) {
  console.warn(
    '\n\x1b[41m\x1b[97m Ceph (the S3 gateway) is not installed: the s3 and cluster projects are SKIPPED. \x1b[0m\n' +
      '  apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common nginx-light runs them; under CI their absence fails the run.\n',
  );
}
if (!postgresBin && !process.env.CI) {
  console.warn(
    '\n\x1b[41m\x1b[97m PostgreSQL >= 15 is not installed: the PostgreSQL half of the suite is SKIPPED. \x1b[0m\n' +
      '  apt-get install -y postgresql (or PG_BIN=/path/to/bin) runs it; under CI its absence fails the run.\n',
  );
}

export default defineConfig({
  test: {
    // vitest's default on this 2-core machine is one file at a time, yet most files wait on a server
    // process, PostgreSQL, ffmpeg or Chromium: three at a time keeps both cores busy (docs/benchmarks.md, "CI time").
    maxWorkers: 3,
    // The cluster files run among the others, one at a time (a lock), spread through the order.
    sequence: { sequencer: SpreadLockedFiles },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{client,server,sync,db,scripts}/**/*.test.{ts,tsx}', 'tests/architecture/**/*.test.ts'],
          // server/startup.test.ts starts the entry points as `npm start` does.
          globalSetup: ['tests/setup/build-server.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'sqlite',
          include: SERVER_SUITES,
          env: { VIDI_TEST_DB: 'sqlite' },
          globalSetup: ['tests/setup/build-server.ts'],
          isolate: ISOLATE_SERVER_FILES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Under CI a missing PostgreSQL fails here (the setup cannot start it) instead of skipping.
      ...(postgresBin || process.env.CI
        ? [
            {
              test: {
                name: 'postgres',
                // tests/postgres: what only PostgreSQL has (query plans, the late commit, lost connections).
                include: [...SERVER_SUITES, 'tests/postgres/**/*.test.ts'],
                exclude: [...configDefaults.exclude, ...ENGINE_INDEPENDENT],
                env: { VIDI_TEST_DB: 'postgres' },
                globalSetup: ['tests/setup/build-server.ts', 'tests/setup/postgres.ts'],
                isolate: ISOLATE_SERVER_FILES,
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      ...((postgresBin && ceph) || process.env.CI
        ? [
            {
              test: {
                name: 's3',
                include: S3_SUITES,
                env: { VIDI_TEST_DB: 'postgres', VIDI_TEST_STORAGE: 's3' },
                isolate: ISOLATE_SERVER_FILES,
                globalSetup: ['tests/setup/build-server.ts', 'tests/setup/postgres.ts', 'tests/setup/s3.ts'],
                testTimeout: 60_000,
                hookTimeout: 90_000,
              },
            },
            {
              test: {
                // Whole deployments (PostgreSQL, the S3 gateway, two web instances, a worker, nginx) per file.
                name: 'cluster',
                include: ['tests/cluster/**/*.test.ts'],
                // One PostgreSQL server and one gateway for the run; each file gets its database and bucket.
                globalSetup: [
                  'tests/setup/build-client.ts',
                  'tests/setup/build-server.ts',
                  'tests/setup/postgres.ts',
                  'tests/setup/s3.ts',
                  'tests/setup/file-lock.ts',
                ],
                // One deployment at a time, beside the other projects' files (as the e2e project).
                setupFiles: ['tests/setup/one-file-at-a-time.ts'],
                testTimeout: 180_000,
                hookTimeout: 180_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/build-client.ts', 'tests/setup/build-server.ts'],
          // After the other projects' files, in a group of their own (groupOrder 1), two browsers at a
          // time. Beside the other files (the lock the cluster project uses) browser tests timed out now
          // and then behind their neighbours' load: a service worker not yet in control, a form pressed
          // before React had adopted it (docs/benchmarks.md, "CI time").
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          // As the server suites (ISOLATE_SERVER_FILES): playwright-core and the helpers load once per
          // worker, not once per file (about 1.3 s a file); no browser file stubs a global or mocks a module.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
