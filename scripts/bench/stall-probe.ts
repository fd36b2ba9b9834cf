// How often the machine itself takes a core away: a busy loop per core records every gap in its own progress.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface StallSummary {
  /** Busy loops run at once (one per core) and how long each ran. */
  threads: number;
  durationMs: number;
  /** Gaps of at least STALL_MS, per second of one loop's running time. */
  stallsPerSecond: number;
  /** Share of the loops' time lost in those gaps, in percent. */
  lostPercent: number;
  /** The longest gap seen, in ms. */
  longestMs: number;
}

/**
 * A gap this long in a loop that never yields is time the machine gave to something else: the
 * hypervisor's other guests, a kernel thread. An open-loop latency cannot be better than the
 * machine is at its percentile: at 500 requests a second a core that stalls five times a second
 * for 2 ms delays about one request in a hundred by that much, whatever the server.
 */
export const STALL_MS = 1;

/**
 * The loop each probe process runs: reads the clock as fast as it can for `durationMs` and prints
 * the gaps of at least STALL_MS as JSON. Plain JavaScript for `node -e`: nothing to load or compile.
 */
function probeSource(durationMs: number): string {
  return `const gaps = []; const end = performance.now() + ${durationMs}; let last = performance.now();
for (;;) { const now = performance.now(); if (now > end) break; if (now - last >= ${STALL_MS}) gaps.push(now - last); last = now; }
process.stdout.write(JSON.stringify(gaps));`;
}

/** The summary of the gaps each loop saw (one array per loop, each of `durationMs`). */
export function summarizeStalls(gapsPerThread: readonly (readonly number[])[], durationMs: number): StallSummary {
  const gaps = gapsPerThread.flat();
  const threads = gapsPerThread.length;
  const loopSeconds = (threads * durationMs) / 1000;
  const lostMs = gaps.reduce((sum, gap) => sum + gap, 0);
  return {
    threads,
    durationMs,
    stallsPerSecond: loopSeconds > 0 ? gaps.length / loopSeconds : 0,
    lostPercent: loopSeconds > 0 ? (lostMs / (loopSeconds * 1000)) * 100 : 0,
    longestMs: gaps.reduce((longest, gap) => Math.max(longest, gap), 0),
  };
}

/**
 * Runs one busy loop per core, in separate processes so that each can have a core, for `durationMs`,
 * and sums up the gaps they saw. Run it when nothing of the bench is busy: it measures the machine.
 *
 * @example const stalls = await probeStalls(5_000, 2); // { stallsPerSecond: 4.6, longestMs: 6.9, … }
 */
export async function probeStalls(durationMs: number, threads: number): Promise<StallSummary> {
  const run = promisify(execFile);
  const outputs = await Promise.all(
    Array.from({ length: threads }, () => run(process.execPath, ['-e', probeSource(durationMs)], { timeout: durationMs + 30_000 })),
  );
  return summarizeStalls(
    outputs.map(({ stdout }) => JSON.parse(stdout) as number[]),
    durationMs,
  );
}
