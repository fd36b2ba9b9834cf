// Measurements → the report's figures: a row per comparison of a throughput scenario, the percentiles of a latency run.
import type { ClosedLoopResult } from './closed-loop.ts';
import type { OpenLoopResult } from './open-loop.ts';
import type { Figure } from './report.ts';
import type { DeploymentScenario, LatencyScenario, ThroughputScenario } from './scenarios.ts';

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
        details: { ...details, baseline: throughputDetails(baseline) },
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

/** p50, p90, p99 (with the goal), max, the rate achieved and the errors of one open-loop run. */
export function latencyFigures(scenario: LatencyScenario, result: OpenLoopResult): Figure[] {
  const details = {
    offeredRate: result.offeredRate,
    achievedRate: result.achievedRate,
    sent: result.sent,
    answered: result.answered,
    errors: result.errors,
    latency: result.latency,
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
      goal: scenario.p99GoalMs === undefined ? undefined : { on: 'value', op: '<=', limit: scenario.p99GoalMs },
      details,
    }),
    row('max', result.latency.max),
    row('achieved rate', result.achievedRate, { unit: 'req/s' }),
    row('errors', result.errors.total, { unit: 'count', goal: { on: 'value', op: '<=', limit: 0 } }),
  ];
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
