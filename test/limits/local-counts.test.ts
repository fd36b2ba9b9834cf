// This instance's counts beside a shared store: they follow the store while it answers and hold the limit alone while it fails.
import { describe, expect, it } from 'vitest';
import { createLocalCounts } from '../../src/limits/local-counts.ts';

const WINDOW_MS = 60_000;

/** A clock the test moves. */
function manualClock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('per-instance counts', () => {
  it('count alone in fixed windows when the store fails: one per request, then a fresh window once it ends', () => {
    const clock = manualClock();
    const local = createLocalCounts(WINDOW_MS, clock.now);
    expect(local.peek('a')).toBeUndefined();
    expect(local.add('a')).toEqual({ totalHits: 1, msToReset: WINDOW_MS });
    clock.advance(10_000);
    expect(local.add('a')).toEqual({ totalHits: 2, msToReset: WINDOW_MS - 10_000 });
    expect(local.add('b').totalHits).toBe(1);
    local.takeBack('a');
    expect(local.peek('a')).toEqual({ totalHits: 1, msToReset: WINDOW_MS - 10_000 });
    clock.advance(WINDOW_MS);
    expect(local.peek('a')).toBeUndefined();
    expect(local.add('a')).toEqual({ totalHits: 1, msToReset: WINDOW_MS });
  });

  it('start from what the store last said: a key over its limit when the store fails stays over it', () => {
    const clock = manualClock();
    const local = createLocalCounts(WINDOW_MS, clock.now);
    for (let hits = 1; hits <= 130; hits++) local.follow('key', { totalHits: hits, msToReset: 40_000 }, 1);
    clock.advance(1_000);
    // The store stops answering: the next request is the 131st of the window, with the store's reset time.
    expect(local.add('key')).toEqual({ totalHits: 131, msToReset: 39_000 });
  });

  it('never go below their own count within a window: a store that answers now and then cannot reopen a key', () => {
    const clock = manualClock();
    const local = createLocalCounts(WINDOW_MS, clock.now);
    local.follow('key', { totalHits: 1, msToReset: WINDOW_MS }, 1);
    // The store misses 150 requests (timed out), then answers again with its own, lower, count.
    for (let i = 0; i < 150; i++) local.add('key');
    clock.advance(200);
    const state = local.follow('key', { totalHits: 2, msToReset: WINDOW_MS - 200 }, 1);
    expect(state.totalHits).toBe(152);
    // A higher count from the store (other instances' requests) is taken as it is.
    expect(local.follow('key', { totalHits: 500, msToReset: WINDOW_MS - 200 }, 1)).toEqual({ totalHits: 500, msToReset: WINDOW_MS - 200 });
    expect(local.add('key').totalHits).toBe(501);
  });

  it("take the store's new window when the store's began after half of theirs had run", () => {
    const clock = manualClock();
    const local = createLocalCounts(WINDOW_MS, clock.now);
    for (let i = 0; i < 200; i++) local.add('key');
    clock.advance(WINDOW_MS / 2 + 1_000);
    // The store's window for the key began now (its count had ended): a whole window ahead of ours.
    expect(local.follow('key', { totalHits: 1, msToReset: WINDOW_MS }, 1)).toEqual({ totalHits: 1, msToReset: WINDOW_MS });
    expect(local.add('key')).toEqual({ totalHits: 2, msToReset: WINDOW_MS });
  });

  it('read the store when it answers and themselves when it does not (peek counts nothing)', () => {
    const clock = manualClock();
    const local = createLocalCounts(WINDOW_MS, clock.now);
    expect(local.follow('address', { totalHits: 30, msToReset: 50_000 }, 0)).toEqual({ totalHits: 30, msToReset: 50_000 });
    expect(local.peek('address')).toEqual({ totalHits: 30, msToReset: 50_000 });
    expect(local.add('address').totalHits).toBe(31);
  });
});
