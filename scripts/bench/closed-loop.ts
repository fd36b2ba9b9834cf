// Closed-loop throughput with autocannon: 10 connections, each sending its next request as soon as the previous one is answered.
import autocannon from 'autocannon';

export interface ClosedLoopOptions {
  baseUrl: string;
  /** Paths sent in turn by every connection (one path: the same request again and again). */
  paths: readonly string[];
  headers?: Record<string, string>;
  durationS: number;
  /** A short run first, not counted, so that the JIT and caches are warm (0: none). */
  warmUpS: number;
  connections?: number;
}

export interface ClosedLoopResult {
  /** Mean answers per second over the run (autocannon's "Req/Sec" average). */
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Answers other than 2xx, and connection errors and timeouts. */
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

/** The number of connections of the throughput figures. */
export const CONNECTIONS = 10;

/**
 * Runs autocannon against `baseUrl` and returns its throughput.
 *
 * @example await closedLoop({ baseUrl, paths: ['/api/v1/bible/John/3?lang=en'], durationS: 10, warmUpS: 2 })
 */
export async function closedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const base = {
    url: options.baseUrl,
    connections: options.connections ?? CONNECTIONS,
    headers: options.headers,
    requests: options.paths.map((path) => ({ path, method: 'GET' })),
  };
  if (options.warmUpS > 0) await autocannon({ ...base, duration: options.warmUpS });
  const result = await autocannon({ ...base, duration: options.durationS });
  return {
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, Number(count)])),
  };
}
