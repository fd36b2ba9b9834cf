// Open-loop sender: requests fired on a fixed schedule whatever the answers, latency counted from the scheduled time.
import { type LatencySummary, summarizeLatencies } from './latency-summary.ts';
import { createRawClient, type Outcome, type RawRequest } from './raw-client.ts';

export interface OpenLoopOptions {
  /** `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** Paths (with query) to GET, or POSTs with their bodies, sent in this order, round and round. */
  paths: readonly (string | RawRequest)[];
  /** Requests per second offered. */
  rate: number;
  durationMs: number;
  /**
   * Sent first at the same rate, on the same connections, and counted apart (default 0): a run
   * starts with no open connection and a server idle since the scenario before, whose first second
   * (connections opened by the hundred while the first answers are slow) is not the steady state
   * the rate is offered to measure. Its own figures are reported as `warmUp`.
   */
  warmUpMs?: number;
  headers?: Record<string, string>;
  /** The status a good answer has; any other counts as an error (default 200). */
  expectedStatus?: number;
  /**
   * A request is abandoned and counted as an error when its connection stays silent this long, and
   * whatever is still waiting this long after the last scheduled send (an overloaded server's
   * backlog), so that a run ends in bounded time (default 10 s).
   */
  timeoutMs?: number;
}

export interface OpenLoopResult {
  offeredRate: number;
  /** Answers per second over the run, from the first scheduled send to the last answer. */
  achievedRate: number;
  /** Requests sent after the warm-up, and answers to them. */
  sent: number;
  answered: number;
  /** Answers with another status than expected, by status, and requests that got no answer, by error code (the warm-up's included). */
  errors: { total: number; byStatus: Record<string, number>; byCode: Record<string, number> };
  /** Every answer after the warm-up, from its scheduled send time (or its actual one when sent early) to its last byte. */
  latency: LatencySummary;
  /** How long the warm-up sent, in ms (0: none). */
  warmUpMs: number;
  /** The answers of the warm-up, measured the same way (count 0 without one). */
  warmUp: LatencySummary;
  /** How late the sender itself sent, past the schedule: when its p99 nears the latency's, the sender is the bottleneck. */
  sendLag: LatencySummary;
}

/**
 * The sender fires a little ahead of the schedule rather than behind it: a Node timer wakes at
 * best about a millisecond late, which at 2,000 requests a second would count the sender's own
 * lateness as the server's. Sent early, a request's latency is counted from its actual send.
 */
export const EARLY_MS = 1;

/** How many requests a run of `durationMs` at `rate` per second schedules. */
export function scheduledCount(rate: number, durationMs: number): number {
  return Math.floor((rate * durationMs) / 1000);
}

/** When request `index` is due, in ms after the start: evenly spaced, the first at 0. */
export function scheduledOffsetMs(index: number, rate: number): number {
  return (index * 1000) / rate;
}

/** How many of `total` requests are due at `elapsedMs` after the start (those scheduled at or before it). */
export function dueCount(elapsedMs: number, rate: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor((elapsedMs * rate) / 1000) + 1);
}

/**
 * The latency of one request: from when it was scheduled, so that time spent waiting because the
 * server (or a connection) was busy is counted, as a user would count it; from its actual send
 * when it left early, so that nothing is ever under-counted.
 */
export function measuredLatencyMs(scheduledAt: number, sentAt: number, endedAt: number): number {
  return endedAt - Math.min(scheduledAt, sentAt);
}

/**
 * Runs one open-loop measurement: `rate` requests a second for `warmUpMs` (counted apart), then for `durationMs`, over keep-alive
 * connections (as many as the backlog needs, up to 512), then waits for the last answers. The
 * requests go through a lean client (raw-client.ts): node:http's cost a core's fifth at 500/s.
 *
 * @example await openLoop({ baseUrl, paths: ['/api/v1/bible/John/3/16/18?lang=en'], rate: 500, durationMs: 10_000 })
 */
export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { baseUrl, paths, rate, durationMs, warmUpMs = 0, headers = {}, expectedStatus = 200, timeoutMs = 10_000 } = options;
  if (paths.length === 0) throw new Error('openLoop needs at least one path');
  const url = new URL(baseUrl);
  const client = createRawClient({ host: url.hostname, port: Number(url.port), headers, timeoutMs });
  // One schedule: the warm-up's requests first, then the measured ones, with no pause between.
  const warmUpCount = scheduledCount(rate, warmUpMs);
  const total = warmUpCount + scheduledCount(rate, durationMs);
  const warmUpLatencies: number[] = [];
  const latencies: number[] = [];
  const lags: number[] = [];
  const byStatus: Record<string, number> = {};
  const byCode: Record<string, number> = {};
  let errors = 0;
  let answered = 0;
  let lastEnd = 0;
  let next = 0;
  let unsettled = 0;
  let allSettled: (() => void) | undefined;

  const send = (index: number, scheduledAt: number) => {
    const sentAt = performance.now();
    const measured = index >= warmUpCount;
    if (measured) lags.push(Math.max(0, sentAt - scheduledAt));
    unsettled++;
    // The client settles each request once: answered, or failed (no answer, or an answer cut off).
    const request = paths[index % paths.length]!;
    const settled = (outcome: Outcome) => {
      // Errors are counted over the whole run, the warm-up's too; latencies and the rate only after it.
      if ('status' in outcome) {
        const endedAt = performance.now();
        const latency = measuredLatencyMs(scheduledAt, sentAt, endedAt);
        if (measured) {
          lastEnd = Math.max(lastEnd, endedAt);
          answered++;
          latencies.push(latency);
        } else warmUpLatencies.push(latency);
        if (outcome.status !== expectedStatus) {
          errors++;
          byStatus[String(outcome.status)] = (byStatus[String(outcome.status)] ?? 0) + 1;
        }
      } else {
        errors++;
        byCode[outcome.code] = (byCode[outcome.code] ?? 0) + 1;
      }
      unsettled--;
      if (unsettled === 0 && next >= total) allSettled?.();
    };
    if (typeof request === 'string') client.get(request, settled);
    else client.send(request, settled);
  };

  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - start;
      const due = dueCount(elapsed + EARLY_MS, rate, total);
      while (next < due) {
        send(next, start + scheduledOffsetMs(next, rate));
        next++;
      }
      if (next >= total) return resolve();
      const wait = scheduledOffsetMs(next, rate) - EARLY_MS - (performance.now() - start);
      setTimeout(tick, Math.max(0, wait));
    };
    tick();
  });
  const abandon = setTimeout(() => client.abandon('ABANDONED'), timeoutMs);
  if (unsettled > 0) await new Promise<void>((resolve) => (allSettled = resolve));
  clearTimeout(abandon);
  client.close();
  // The measured part's rate: from its first scheduled send to its last answer.
  const seconds = Math.max(lastEnd - (start + scheduledOffsetMs(warmUpCount, rate)), 1) / 1000;
  return {
    offeredRate: rate,
    achievedRate: answered / seconds,
    sent: total - warmUpCount,
    answered,
    errors: { total: errors, byStatus, byCode },
    latency: summarizeLatencies(latencies),
    warmUpMs,
    warmUp: summarizeLatencies(warmUpLatencies),
    sendLag: summarizeLatencies(lags),
  };
}
