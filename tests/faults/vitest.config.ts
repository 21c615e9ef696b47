import { defineConfig } from 'vitest/config';

// `npm run test:faults`: the full reliability suite (load, network faults, crashes, bad input).
// A bounded subset runs in CI from tests/integration/faults-ci.test.ts.
export default defineConfig({
  test: {
    include: ['tests/faults/**/*.test.ts'],
    // One scenario at a time: each one loads the two cores on purpose.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
