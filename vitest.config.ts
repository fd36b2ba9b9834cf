// Test runner configuration: every test lives in test/, mirroring build/ and src/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Full-corpus Bible tests and server tests start processes and read megabytes;
    // generous per-test time, but no timing assertions anywhere.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    reporters: ['default', './test/reporters/summary-line.ts'],
  },
});
