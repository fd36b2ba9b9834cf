// Latency percentiles of one run (nearest rank), the figures every latency measurement reports.

/** What a latency run reports, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * The summary of `samples` (milliseconds, any order). Percentiles are nearest-rank: the
 * smallest sample with at least p% of the samples at or below it, so every figure is a
 * latency that was measured, never an interpolation. No samples: every figure is NaN.
 *
 * @example summarizeLatencies([3, 1, 2]) // { count: 3, p50: 2, p90: 3, p99: 3, max: 3, mean: 2 }
 */
export function summarizeLatencies(samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const count = sorted.length;
  if (count === 0) return { count, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, max: Number.NaN, mean: Number.NaN };
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count,
    p50: nearestRank(sorted, 50),
    p90: nearestRank(sorted, 90),
    p99: nearestRank(sorted, 99),
    max: sorted[count - 1]!,
    mean: sum / count,
  };
}

/** The p-th percentile of ascending `sorted` (not empty), nearest-rank method. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
