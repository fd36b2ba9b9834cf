// Latency percentiles: nearest rank, so every figure reported is a latency that was measured.
import { describe, expect, it } from 'vitest';
import { nearestRank, summarizeLatencies } from '../../../scripts/bench/latency-summary.ts';

describe('summarizeLatencies', () => {
  it('reports the median, p90, p99 and max of samples in any order', () => {
    const samples = Array.from({ length: 100 }, (_, index) => 100 - index); // 100 … 1
    expect(summarizeLatencies(samples)).toEqual({ count: 100, p50: 50, p90: 90, p99: 99, max: 100, mean: 50.5 });
  });

  it('takes a sample that was measured, never a value between two', () => {
    const summary = summarizeLatencies([1, 10]);
    expect(summary.p50).toBe(1);
    expect(summary.p90).toBe(10);
  });

  it('lets one slow request out of a hundred show in p99 but not in p90', () => {
    const samples = [...Array(99).fill(1), 500];
    expect(summarizeLatencies(samples)).toMatchObject({ p90: 1, p99: 1, max: 500 });
    const twoSlow = [...Array(98).fill(1), 500, 500];
    expect(summarizeLatencies(twoSlow)).toMatchObject({ p90: 1, p99: 500 });
  });

  it('sorts numerically, not as text', () => {
    expect(summarizeLatencies([9, 10, 100]).p50).toBe(10);
  });

  it('has no figures without samples', () => {
    const summary = summarizeLatencies([]);
    expect(summary.count).toBe(0);
    expect(summary.p99).toBeNaN();
  });
});

describe('nearestRank', () => {
  it('gives the first sample for p0 and the last for p100', () => {
    expect(nearestRank([1, 2, 3], 0)).toBe(1);
    expect(nearestRank([1, 2, 3], 100)).toBe(3);
  });
});
