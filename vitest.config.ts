// Test runner configuration: every test lives in test/, mirroring build/ and src/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Full-corpus Bible tests and server tests start processes and read megabytes: generous
    // per-test time. A test never depends on the machine's speed: it controls the time it checks
    // (a fixed or settable clock, a lock that makes a query slow on purpose, an event order), and
    // the few bounds that remain are far from what the test measures, with the margin argued beside them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // A committed .only would silently skip the rest of the suite: refused here as in lint (biome's noFocusedTests).
    allowOnly: false,
    reporters: ['default', './test/reporters/summary-line.ts'],
  },
});
