// Measurements → the report's figures: a row per comparison of a throughput scenario, the percentiles of a latency run.
import type { ClosedLoopResult } from './closed-loop.ts';
import { median } from './median.ts';
import type { OpenLoopResult } from './open-loop.ts';
import type { Figure } from './report.ts';
import type { DeploymentScenario, LatencyScenario, ThroughputScenario } from './scenarios.ts';
import { STALL_MS, type StallSummary } from './stall-probe.ts';

/**
 * The figures of the throughput scenarios that were measured: one per comparison with a measured
 * baseline (value, baseline, goal on the ratio), and one for a scenario that neither compares nor
 * is compared with (range, search). Baselines appear in the rows that compare with them.
 */
export function throughputFigures(scenarios: readonly ThroughputScenario[], measured: ReadonlyMap<string, ClosedLoopResult>): Figure[] {
  const baselines = new Set(scenarios.flatMap((scenario) => (scenario.compare ?? []).map((comparison) => comparison.baseline)));
  const byId = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  const figures: Figure[] = [];
  for (const scenario of scenarios) {
    const result = measured.get(scenario.id);
    if (!result) continue;
    const details = throughputDetails(result);
    const comparisons = (scenario.compare ?? []).filter((comparison) => measured.has(comparison.baseline));
    for (const comparison of comparisons) {
      const baseline = measured.get(comparison.baseline)!;
      const baselineLabel = byId.get(comparison.baseline)?.label ?? comparison.baseline;
      figures.push({
        id: `${scenario.id}/${comparison.baseline}`,
        label: `${scenario.label}, throughput`,
        value: result.requestsPerSecond,
        unit: 'req/s',
        baseline: { label: baselineLabel, value: baseline.requestsPerSecond },
        goal: comparison.goal,
        details: { ...details, baseline: throughputDetails(baseline), ...turnRatios(result, baseline) },
      });
    }
    if (comparisons.length === 0 && !baselines.has(scenario.id)) {
      figures.push({ id: scenario.id, label: `${scenario.label}, throughput`, value: result.requestsPerSecond, unit: 'req/s', details });
    }
  }
  return figures;
}

/** What each role of a deployment's processes is called in a row's label. */
const ROLE_LABELS: Readonly<Record<string, (scenario: DeploymentScenario) => string>> = {
  service: (scenario) => (scenario.instances === 1 ? 'the service' : `the ${scenario.instances} service instances together`),
  database: (scenario) => `the ${scenario.backend === 'postgres' ? 'PostgreSQL' : scenario.backend} server (its backends)`,
  redis: () => 'Redis',
  proxy: () => 'nginx',
};

/**
 * Rows per deployment measured, side by side: its throughput, then the CPU time each of its
 * processes spent per answer (the service's first, then the database server's, Redis's and
 * nginx's where it has them). The first scenario (one instance on SQLite) stands alone; every other
 * has it as the baseline, so the ratio of a throughput row says how many times its throughput it
 * has (with the scenario's goal on that ratio), and the ratio of the service's CPU row how many
 * times its cost per answer. The CPU rows do not depend on two cores being shared by the load
 * generator and every server: what an instance costs, for docs/scaling.md's arithmetic.
 * When the first was not measured, the others stand alone.
 */
export function deploymentFigures(scenarios: readonly DeploymentScenario[], measured: ReadonlyMap<string, ClosedLoopResult>): Figure[] {
  const [first] = scenarios;
  const reference = first ? measured.get(first.id) : undefined;
  const figures: Figure[] = [];
  for (const scenario of scenarios) {
    const result = measured.get(scenario.id);
    if (!result) continue;
    const compared = reference !== undefined && scenario !== first;
    figures.push({
      id: scenario.id,
      label: `${scenario.label}, throughput`,
      value: result.requestsPerSecond,
      unit: 'req/s',
      baseline: compared ? { label: first.label, value: reference.requestsPerSecond } : undefined,
      goal: compared ? scenario.goal : undefined,
      details: { backend: scenario.backend, instances: scenario.instances, ...throughputDetails(result) },
    });
    for (const [role, cpuUs] of Object.entries(result.cpuUsPerRequestByRole ?? {})) {
      const referenceUs = reference?.cpuUsPerRequestByRole?.[role];
      figures.push({
        id: `${scenario.id}.cpu-per-request.${role}`,
        label: `${scenario.label}: CPU of ${(ROLE_LABELS[role] ?? (() => role))(scenario)} per answer`,
        value: cpuUs,
        unit: 'µs',
        baseline: compared && referenceUs !== undefined ? { label: first.label, value: referenceUs } : undefined,
      });
    }
  }
  return figures;
}

/**
 * p50, p90, p99 (with the goal), max, the rate achieved and the errors of one open-loop run. With
 * a floor (latencyFloorScenario at the same rate), the p99 row has its p99 as the baseline: the
 * ratio says how far above the machine's own tail the service is.
 */
export function latencyFigures(scenario: LatencyScenario, result: OpenLoopResult, floor?: MeasuredFloor): Figure[] {
  const details = {
    offeredRate: result.offeredRate,
    achievedRate: result.achievedRate,
    sent: result.sent,
    answered: result.answered,
    errors: result.errors,
    latency: result.latency,
    warmUp: { ms: result.warmUpMs, latency: result.warmUp },
    sendLag: result.sendLag,
  };
  const row = (name: string, value: number, extra: Partial<Figure> = {}): Figure => ({
    id: `${scenario.id}.${name}`,
    label: `${scenario.label} offered: ${name}`,
    value,
    unit: 'ms',
    ...extra,
  });
  return [
    row('p50', result.latency.p50),
    row('p90', result.latency.p90),
    row('p99', result.latency.p99, {
      baseline: floor ? { label: floor.scenario.label, value: floor.result.latency.p99 } : undefined,
      goal: scenario.p99GoalMs === undefined ? undefined : { on: 'value', op: '<=', limit: scenario.p99GoalMs },
      details,
    }),
    row('max', result.latency.max),
    row('achieved rate', result.achievedRate, { unit: 'req/s' }),
    row('errors', result.errors.total, { unit: 'count', goal: { on: 'value', op: '<=', limit: 0 } }),
    ...warmUpRows(scenario, result),
  ];
}

/**
 * The warm-up's own p99 and max, beside the steady state's: what the first seconds after a pause
 * cost (no connection open yet, the server idle since the scenario before) stays in the report.
 */
function warmUpRows(scenario: LatencyScenario, result: OpenLoopResult): Figure[] {
  if (result.warmUp.count === 0) return [];
  const seconds = (result.warmUpMs / 1000).toLocaleString('en-US');
  return (['p99', 'max'] as const).map((name) => ({
    id: `${scenario.id}.warm-up.${name}`,
    label: `${scenario.label} offered, its first ${seconds} s (warm-up, not in the rows above): ${name}`,
    value: result.warmUp[name],
    unit: 'ms',
  }));
}

/** A floor measured in the run: the scenario (latencyFloorScenario) and its open-loop result. */
export interface MeasuredFloor {
  scenario: LatencyScenario;
  result: OpenLoopResult;
}

/** The floor's own rows: p50, p99 and max, with the sender's lag beside the p99. */
export function floorFigures(floor: MeasuredFloor): Figure[] {
  const { scenario, result } = floor;
  const row = (name: string, value: number, details?: Record<string, unknown>): Figure => ({
    id: `${scenario.id}.${name}`,
    label: `${scenario.label}: ${name}`,
    value,
    unit: 'ms',
    details,
  });
  return [
    row('p50', result.latency.p50),
    row('p99', result.latency.p99, { latency: result.latency, sendLag: result.sendLag, errors: result.errors }),
    row('max', result.latency.max),
  ];
}

/** The machine's stalls (stall-probe.ts), measured before any server is busy. */
export function stallFigures(stalls: StallSummary): Figure[] {
  const details = { ...stalls, stallMs: STALL_MS };
  return [
    {
      id: 'machine.stalls-per-second',
      label: `Machine: a busy loop's stalls of ${STALL_MS} ms or more, per second (one loop per core, before the servers start)`,
      value: Math.round(stalls.stallsPerSecond * 10) / 10,
      unit: 'count',
      details,
    },
    { id: 'machine.longest-stall', label: "Machine: a busy loop's longest stall", value: stalls.longestMs, unit: 'ms', details },
  ];
}

/**
 * For two runs measured in the same turns: the ratio within each turn, and their median. The
 * figure's ratio (sums over the turns) is the one with the goal; these say how much of it a few
 * disturbed turns made (a turn in which the machine halved one server shows as an outlier here).
 */
function turnRatios(result: ClosedLoopResult, baseline: ClosedLoopResult): Record<string, unknown> {
  const [ours, theirs] = [result.requestsPerSecondByTurn, baseline.requestsPerSecondByTurn];
  if (!ours || !theirs || ours.length !== theirs.length) return {};
  const ratiosByTurn = ours.map((rate, turn) => (theirs[turn]! > 0 ? rate / theirs[turn]! : 0));
  return { ratiosByTurn, medianRatioOfTurns: median(ratiosByTurn) };
}

function throughputDetails(result: ClosedLoopResult): Record<string, unknown> {
  return {
    requestsPerSecond: result.requestsPerSecond,
    serverCpuUsPerRequest: result.serverCpuUsPerRequest,
    latencyMs: result.latencyMs,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
