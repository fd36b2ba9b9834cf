// The machine's stalls: what a busy loop's gaps add up to, and a real probe's output read back.
import { describe, expect, it } from 'vitest';
import { probeStalls, STALL_MS, summarizeStalls } from '../../../scripts/bench/stall-probe.ts';

describe('summarizeStalls', () => {
  it('counts the gaps per second of loop time, the share of time lost and the longest, over every loop', () => {
    // Two loops of 2 s each: 4 loop-seconds, 6 gaps adding up to 20 ms.
    const summary = summarizeStalls(
      [
        [1, 2, 7],
        [3, 3, 4],
      ],
      2000,
    );
    expect(summary).toEqual({ threads: 2, durationMs: 2000, stallsPerSecond: 1.5, lostPercent: 0.5, longestMs: 7 });
  });

  it('reports a machine that never stalled as zero everywhere', () => {
    expect(summarizeStalls([[], []], 1000)).toMatchObject({ stallsPerSecond: 0, lostPercent: 0, longestMs: 0 });
  });
});

describe('probeStalls', () => {
  it('runs one loop per thread asked and reads back only gaps of at least STALL_MS', async () => {
    const summary = await probeStalls(200, 2);
    expect(summary.threads).toBe(2);
    expect(summary.durationMs).toBe(200);
    // Whatever this machine does, a reported longest gap is a stall by the probe's own threshold, and no
    // loop can lose more time than it ran.
    if (summary.longestMs > 0) expect(summary.longestMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(summary.lostPercent).toBeLessThanOrEqual(100);
  });
});
