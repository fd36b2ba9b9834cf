// The median of a few measured figures (rounds, turns, runs): the bench's summary of repeated measures.

/**
 * The middle value, or the mean of the two middle ones for an even count; NaN for none.
 *
 * @example median([3, 1, 2]) // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
