// Test helper: a clock for the app under test that stands still at a given instant until the test moves it.
import type { Clock } from '../../src/clock.ts';

export interface TestClock extends Clock {
  /** Moves the clock to `instant`; the next request sees it. */
  set(instant: Date): void;
}

/**
 * A clock stopped at `instant`, for startTestServer's `clock` option.
 *
 * @example const clock = fixedClock(new Date('2026-06-15T00:30:00Z')); const server = await startTestServer({}, { clock });
 */
export function fixedClock(instant: Date): TestClock {
  let current = instant;
  return {
    now: () => new Date(current),
    set(next) {
      current = next;
    },
  };
}
