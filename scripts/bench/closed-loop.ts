// Closed-loop throughput with autocannon: 10 connections, each sending its next request as soon as the previous one is answered.
import autocannon from 'autocannon';
import { type CpuSnapshot, cpuSnapshot, cpuSpentMs, cpuTimeMs } from './processes.ts';

export interface ClosedLoopOptions {
  baseUrl: string;
  /** Paths sent in turn by every connection (one path: the same request again and again). */
  paths: readonly string[];
  headers?: Record<string, string>;
  durationS: number;
  /** A short run first, not counted, so that the JIT and caches are warm (0: none). */
  warmUpS: number;
  connections?: number;
  /** The server's process: its CPU time per answer is reported beside the throughput. */
  pid?: number;
  /**
   * Process trees by role (`service`: the instances; `database`, `redis`, `proxy`), asked after the
   * warm-up: each role's CPU time per answer is reported, `service`'s as the server's.
   */
  processes?: () => Readonly<Record<string, readonly number[]>>;
}

export interface ClosedLoopResult {
  /** Mean answers per second over the run (autocannon's "Req/Sec" average). */
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Answers other than 2xx, and connection errors and timeouts. */
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /**
   * The server's CPU time (user + system) per answer, in µs: what each answer costs the server,
   * which a loaded machine changes much less than it changes the throughput.
   */
  serverCpuUsPerRequest?: number;
  /** CPU time per answer, in µs, of each role of `processes` (the process trees summed). */
  cpuUsPerRequestByRole?: Record<string, number>;
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
  const roles = options.processes?.() ?? {};
  const rolesBefore = await snapshots(roles);
  const cpuBefore = options.pid === undefined ? undefined : await cpuTimeMs(options.pid);
  const result = await autocannon({ ...base, duration: options.durationS });
  const cpuAfter = options.pid === undefined ? undefined : await cpuTimeMs(options.pid);
  const rolesAfter = await snapshots(roles);
  const answered = Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + Number(count), 0);
  const perAnswer = (ms: number) => (answered === 0 ? undefined : (ms * 1000) / answered);
  const byRole = Object.fromEntries(
    Object.keys(roles).map((role) => [role, perAnswer(cpuSpentMs(rolesBefore.get(role)!, rolesAfter.get(role)!))]),
  ) as Record<string, number>;
  return {
    serverCpuUsPerRequest: cpuBefore === undefined || cpuAfter === undefined ? byRole.service : perAnswer(cpuAfter - cpuBefore),
    cpuUsPerRequestByRole: Object.keys(byRole).length > 0 ? byRole : undefined,
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, Number(count)])),
  };
}

async function snapshots(roles: Readonly<Record<string, readonly number[]>>): Promise<Map<string, CpuSnapshot>> {
  return new Map(await Promise.all(Object.entries(roles).map(async ([role, roots]) => [role, await cpuSnapshot(roots)] as const)));
}
