import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{client,server,sync,db}/**/*.test.{ts,tsx}',
            'tests/api/**/*.test.ts',
            'tests/integration/**/*.test.ts',
            'tests/architecture/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
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
