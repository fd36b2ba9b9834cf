// Closed-loop throughput with autocannon: 10 connections, each sending its next request as soon as the previous one is answered.
import autocannon from 'autocannon';
import { median } from './median.ts';
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
  /** Answers per second over the run: its answers over its seconds (over every turn's, measured in turns). */
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
  /** Measured in turns (closedLoopInTurns): each turn's answers per second, in turn order. */
  requestsPerSecondByTurn?: number[];
}

/** The number of connections of the throughput figures. */
export const CONNECTIONS = 10;

/**
 * `keepalive_requests` of every nginx the closed loops drive (the static baseline, the balancer of
 * several instances). nginx closes a client's connection after 1,000 requests by default, marking
 * the last answer `Connection: close`; autocannon writes its next request as soon as an answer has
 * come without reading that header, so a request written as nginx closes is reset and counted as an
 * error that no server made (1 or 2 in each run of two instances behind nginx), and nginx pays a
 * reconnection the service, which never closes a kept-alive connection, does not. A turn sends a
 * few hundred thousand requests at most: none is closed mid-run.
 */
export const NGINX_KEEPALIVE_REQUESTS = 100_000_000;

/**
 * Runs autocannon against `baseUrl` and returns its throughput.
 *
 * @example await closedLoop({ baseUrl, paths: ['/api/v1/bible/John/3?lang=en'], durationS: 10, warmUpS: 2 })
 */
export async function closedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  await warmUp(options);
  return resultOf([await measureOnce(options, options.durationS)]);
}

/** One of several closed-loop runs measured in turns: an id, and its options (each run's `durationS` is split over the turns). */
export interface ClosedLoopRun {
  id: string;
  options: ClosedLoopOptions;
}

/**
 * Closed-loop runs that are compared with each other (a service and its ceilings on the same path),
 * measured in `turns` turns (one window for a single run): each run warmed up once, then every turn measures each run for its
 * `durationS / turns`, the order rotated from turn to turn. A ratio of two runs measured one after
 * the other is the machine's drift as much as the servers' difference: this shared machine's speed
 * moves by a third within minutes, and the same service measured 0.46 and 0.82 of bare node:http in
 * two runs of back-to-back windows. In turns, each run sees the same mix of the machine's fast and
 * slow moments. Each result sums its turns: answers over seconds, CPU over answers; its latency
 * percentiles are the medians of the turns' and its max the largest.
 *
 * @example await closedLoopInTurns([{ id: 'service', options: a }, { id: 'node', options: b }], 5)
 */
export async function closedLoopInTurns(runs: readonly ClosedLoopRun[], turns: number): Promise<Map<string, ClosedLoopResult>> {
  // A run compared with nothing has no drift to share: one window.
  const count = runs.length > 1 ? turns : 1;
  for (const run of runs) await warmUp(run.options);
  const measured = new Map<string, TurnMeasure[]>(runs.map((run) => [run.id, []]));
  for (let turn = 0; turn < count; turn++) {
    for (let index = 0; index < runs.length; index++) {
      const run = runs[(turn + index) % runs.length]!;
      measured.get(run.id)!.push(await measureOnce(run.options, run.options.durationS / count));
    }
  }
  return new Map(runs.map((run) => [run.id, resultOf(measured.get(run.id)!)]));
}

/** What one autocannon run measured, before turns are summed. */
interface TurnMeasure {
  answered: number;
  seconds: number;
  /** The server's CPU time over the run, in ms (undefined without a pid). */
  cpuMs?: number;
  cpuMsByRole: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

async function warmUp(options: ClosedLoopOptions): Promise<void> {
  if (options.warmUpS > 0) await autocannon({ ...autocannonOptions(options), duration: options.warmUpS });
}

function autocannonOptions(options: ClosedLoopOptions) {
  return {
    url: options.baseUrl,
    connections: options.connections ?? CONNECTIONS,
    headers: options.headers,
    requests: options.paths.map((path) => ({ path, method: 'GET' })),
  };
}

async function measureOnce(options: ClosedLoopOptions, durationS: number): Promise<TurnMeasure> {
  const roles = options.processes?.() ?? {};
  const rolesBefore = await snapshots(roles);
  const cpuBefore = options.pid === undefined ? undefined : await cpuTimeMs(options.pid);
  const result = await autocannon({ ...autocannonOptions(options), duration: durationS });
  const cpuAfter = options.pid === undefined ? undefined : await cpuTimeMs(options.pid);
  const rolesAfter = await snapshots(roles);
  return {
    answered: Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + Number(count), 0),
    seconds: result.duration,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    cpuMsByRole: Object.fromEntries(Object.keys(roles).map((role) => [role, cpuSpentMs(rolesBefore.get(role)!, rolesAfter.get(role)!)])),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, Number(count)])),
  };
}

/** One result from a run's turns (one turn for `closedLoop`). */
function resultOf(turns: readonly TurnMeasure[]): ClosedLoopResult {
  const sum = (value: (turn: TurnMeasure) => number) => turns.reduce((total, turn) => total + value(turn), 0);
  const answered = sum((turn) => turn.answered);
  const seconds = sum((turn) => turn.seconds);
  const perAnswer = (ms: number) => (answered === 0 ? undefined : (ms * 1000) / answered);
  // The roles each turn measured (every turn asks the same `processes`).
  const roles = Object.keys(turns[0]?.cpuMsByRole ?? {});
  const byRole = Object.fromEntries(roles.map((role) => [role, perAnswer(sum((turn) => turn.cpuMsByRole[role] ?? 0))])) as Record<
    string,
    number
  >;
  const statusCodes: Record<string, number> = {};
  for (const turn of turns)
    for (const [status, count] of Object.entries(turn.statusCodes)) statusCodes[status] = (statusCodes[status] ?? 0) + count;
  return {
    serverCpuUsPerRequest: turns.some((turn) => turn.cpuMs === undefined) ? byRole.service : perAnswer(sum((turn) => turn.cpuMs!)),
    cpuUsPerRequestByRole: roles.length > 0 ? byRole : undefined,
    requestsPerSecond: seconds === 0 ? 0 : answered / seconds,
    latencyMs: {
      p50: median(turns.map((turn) => turn.latencyMs.p50)),
      p99: median(turns.map((turn) => turn.latencyMs.p99)),
      max: Math.max(...turns.map((turn) => turn.latencyMs.max)),
    },
    non2xx: sum((turn) => turn.non2xx),
    errors: sum((turn) => turn.errors),
    statusCodes,
    ...(turns.length > 1 ? { requestsPerSecondByTurn: turns.map((turn) => (turn.seconds === 0 ? 0 : turn.answered / turn.seconds)) } : {}),
  };
}

async function snapshots(roles: Readonly<Record<string, readonly number[]>>): Promise<Map<string, CpuSnapshot>> {
  return new Map(await Promise.all(Object.entries(roles).map(async ([role, roots]) => [role, await cpuSnapshot(roots)] as const)));
}
