import { defineConfig } from 'vitest/config';
import { findPostgresBin } from './db/postgres-cluster';

/** The API and integration suites run once per database engine (docs/decisions/0017-postgresql.md). */
const SERVER_SUITES = ['tests/api/**/*.test.ts', 'tests/integration/**/*.test.ts'];

const postgresBin = findPostgresBin();
if (!postgresBin && !process.env.CI) {
  console.warn(
    '\n\x1b[41m\x1b[97m PostgreSQL >= 15 is not installed: the PostgreSQL half of the suite is SKIPPED. \x1b[0m\n' +
      '  apt-get install -y postgresql (or PG_BIN=/path/to/bin) runs it; under CI its absence fails the run.\n',
  );
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{client,server,sync,db}/**/*.test.{ts,tsx}', 'tests/architecture/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'sqlite',
          include: SERVER_SUITES,
          env: { VIDI_TEST_DB: 'sqlite' },
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
                env: { VIDI_TEST_DB: 'postgres' },
                globalSetup: ['tests/setup/postgres.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/build-client.ts'],
          // One browser at a time: two cores, and Chromium is heavy.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
