// The report: ratios and verdicts of the goals, the table rows of RESULTS.md, and the figures made of measurements.
import { describe, expect, it } from 'vitest';
import type { ClosedLoopResult } from '../../../scripts/bench/closed-loop.ts';
import { floorFigures, latencyFigures, throughputFigures } from '../../../scripts/bench/figures.ts';
import { summarizeLatencies } from '../../../scripts/bench/latency-summary.ts';
import { formatGoal, formatValue, type Results, reported, resultsMarkdown, tableRow } from '../../../scripts/bench/report.ts';
import { latencyFloorScenario, type ThroughputScenario } from '../../../scripts/bench/scenarios.ts';

describe('reported', () => {
  it('works out the ratio to the baseline and judges a goal on it', () => {
    const figure = reported({
      id: 'profile',
      label: 'Church profile, service',
      value: 7900,
      unit: 'req/s',
      baseline: { label: 'bare Express', value: 10_000 },
      goal: { on: 'ratio', op: '>=', limit: 0.8 },
    });
    expect(figure.ratio).toBeCloseTo(0.79);
    expect(figure.met).toBe(false);
  });

  it('judges a ceiling on the value itself, the limit included', () => {
    const goal = { on: 'value', op: '<=', limit: 5 } as const;
    expect(reported({ id: 'a', label: 'a', value: 5, unit: 'ms', goal }).met).toBe(true);
    expect(reported({ id: 'a', label: 'a', value: 5.01, unit: 'ms', goal }).met).toBe(false);
  });

  it('never meets a goal with a figure that could not be measured', () => {
    expect(reported({ id: 'a', label: 'a', value: Number.NaN, unit: 'ms', goal: { on: 'value', op: '<=', limit: 5 } }).met).toBe(false);
  });

  it('leaves a figure without a goal unjudged', () => {
    expect(reported({ id: 'a', label: 'a', value: 1, unit: 'ms' }).met).toBeUndefined();
  });
});

describe('the table', () => {
  it('writes value, baseline, ratio, goal and verdict in one row', () => {
    const row = tableRow(
      reported({
        id: 'static',
        label: 'Static chapter, service',
        value: 4000,
        unit: 'req/s',
        baseline: { label: 'nginx', value: 10_000 },
        goal: { on: 'ratio', op: '>=', limit: 0.35 },
      }),
    );
    expect(row).toBe('| Static chapter, service | 4,000 req/s | nginx: 10,000 req/s | 0.40 | ≥ 35% of nginx | yes |');
  });

  it('marks a missed goal in bold and leaves the baseline cells empty without one', () => {
    const row = tableRow(reported({ id: 'p99', label: 'p99', value: 6.5, unit: 'ms', goal: { on: 'value', op: '<=', limit: 5 } }));
    expect(row).toBe('| p99 | 6.50 ms |  |  | ≤ 5.00 ms | **no** |');
  });

  it('formats values to a precision that fits their size and unit', () => {
    expect(formatValue(0.123, 'ms')).toBe('0.12 ms');
    expect(formatValue(123.456, 'ms')).toBe('123.5 ms');
    expect(formatValue(1234.5, 'req/s')).toBe('1,235 req/s');
    expect(formatValue(187.4, 'MB')).toBe('187 MB');
    expect(formatValue(3, 'count')).toBe('3');
    expect(formatValue(Number.NaN, 'ms')).toBe('n/a');
    expect(formatGoal({ id: 'x', label: 'x', value: 1, unit: 'MB', goal: { on: 'value', op: '<=', limit: 200 } })).toBe('≤ 200 MB');
  });

  it('says where the run was made, with its load, and what it skipped', () => {
    const results: Results = {
      date: '2025-01-02T03:04:05.000Z',
      commit: 'abc123',
      node: 'v20.20.2',
      machine: {
        cpuModel: 'AMD EPYC',
        cores: 2,
        memoryMB: 4000,
        os: 'Linux 6',
        loadAverage: { start: [0.5, 0.4, 0.3], end: [1, 0.5, 0.3] },
      },
      settings: { quick: true },
      skipped: [{ figure: 'full Bible build', reason: '--no-build' }],
      figures: [reported({ id: 'a', label: 'Service peak RSS', value: 150, unit: 'MB', goal: { on: 'value', op: '<=', limit: 200 } })],
    };
    const markdown = resultsMarkdown(results);
    expect(markdown).toContain('--quick');
    expect(markdown).toContain('commit `abc123`, Node v20.20.2');
    expect(markdown).toContain('load average (1, 5, 15 min) 0.50, 0.40, 0.30 at the start, 1.00, 0.50, 0.30 at the end');
    expect(markdown).toContain('| figure | value | baseline | ratio | goal | met? |');
    expect(markdown).toContain('| Service peak RSS | 150 MB |  |  | ≤ 200 MB | yes |');
    expect(markdown).toContain('- full Bible build: --no-build');
    expect(markdown).not.toContain('busy machine');
  });

  const machineWithLoad = (start: number[], end: number[]) => ({
    cpuModel: 'AMD EPYC',
    cores: 2,
    memoryMB: 4000,
    os: 'Linux 6',
    loadAverage: { start, end },
  });
  const markdownOf = (machine: ReturnType<typeof machineWithLoad>) =>
    resultsMarkdown({ date: '2025-01-02', commit: 'abc', node: 'v20', machine, settings: {}, skipped: [], figures: [] });

  it('warns when the load average had reached the number of cores when the run began', () => {
    const markdown = markdownOf(machineWithLoad([12.03, 9, 8], [3, 2, 1]));
    expect(markdown).toContain('**A busy machine:** its 1-minute load average was 12.03 on 2 cores when this run began');
  });

  it("does not warn of a load the run's own last parts made (the builds on every core), and still reports it", () => {
    const markdown = markdownOf(machineWithLoad([0.69, 0.58, 0.56], [2.17, 1.11, 0.81]));
    expect(markdown).not.toContain('busy machine');
    expect(markdown).toContain('0.69, 0.58, 0.56 at the start, 2.17, 1.11, 0.81 at the end');
  });
});

describe('figures of the measurements', () => {
  const measured = (requestsPerSecond: number): ClosedLoopResult => ({
    requestsPerSecond,
    latencyMs: { p50: 1, p99: 2, max: 3 },
    non2xx: 0,
    errors: 0,
    statusCodes: { '200': 1 },
  });
  const scenarios: ThroughputScenario[] = [
    { id: 'node', label: 'bare node:http', target: 'node', paths: () => ['/'] },
    { id: 'express', label: 'bare Express', target: 'express', paths: () => ['/'] },
    {
      id: 'service',
      label: 'service',
      target: 'service',
      paths: () => ['/'],
      compare: [{ baseline: 'express', goal: { on: 'ratio', op: '>=', limit: 0.8 } }, { baseline: 'node' }],
    },
    { id: 'range', label: 'range', target: 'service', paths: () => ['/'] },
  ];

  it('gives a row per comparison, none for a baseline, and one for a scenario that compares with nothing', () => {
    const figures = throughputFigures(
      scenarios,
      new Map([
        ['node', measured(9000)],
        ['express', measured(5000)],
        ['service', measured(4500)],
        ['range', measured(3000)],
      ]),
    );
    expect(figures.map((figure) => [figure.id, figure.value, figure.baseline?.value])).toEqual([
      ['service/express', 4500, 5000],
      ['service/node', 4500, 9000],
      ['range', 3000, undefined],
    ]);
    expect(reported(figures[0]!).met).toBe(true);
  });

  it('gives the ratio within each turn and their median beside the summed ratio, for runs measured in the same turns', () => {
    const inTurns = (rates: number[]): ClosedLoopResult => ({
      ...measured(rates.reduce((sum, rate) => sum + rate, 0) / rates.length),
      requestsPerSecondByTurn: rates,
    });
    const figures = throughputFigures(
      scenarios,
      new Map([
        ['node', inTurns([10_000, 10_000, 10_000])],
        ['express', measured(5000)],
        ['service', inTurns([9000, 4000, 8000])],
      ]),
    );
    const versusNode = figures.find((figure) => figure.id === 'service/node')!;
    expect(versusNode.details).toMatchObject({ ratiosByTurn: [0.9, 0.4, 0.8], medianRatioOfTurns: 0.8 });
    // A baseline measured in one window has no turns to pair with.
    expect(figures.find((figure) => figure.id === 'service/express')!.details).not.toHaveProperty('ratiosByTurn');
  });

  it('still reports a scenario whose baselines were not measured (no nginx), without a ratio', () => {
    const figures = throughputFigures(scenarios, new Map([['service', measured(4500)]]));
    expect(figures.map((figure) => [figure.id, figure.value, figure.baseline])).toEqual([['service', 4500, undefined]]);
  });

  it('reports p50, p90, p99 against its goal, max, the achieved rate and the errors of a latency run, then its warm-up apart', () => {
    const figures = latencyFigures(
      { id: 'range@500', label: 'Range at 500 req/s', target: 'service', paths: () => [], rate: 500, p99GoalMs: 2 },
      {
        offeredRate: 500,
        achievedRate: 499,
        sent: 100,
        answered: 100,
        errors: { total: 0, byStatus: {}, byCode: {} },
        latency: summarizeLatencies(Array.from({ length: 100 }, (_, index) => index / 10)),
        warmUpMs: 2000,
        warmUp: summarizeLatencies([900, 1, 2]),
        sendLag: summarizeLatencies([0]),
      },
    );
    expect(figures.map((figure) => [figure.id, figure.value])).toEqual([
      ['range@500.p50', 4.9],
      ['range@500.p90', 8.9],
      ['range@500.p99', 9.8],
      ['range@500.max', 9.9],
      ['range@500.achieved rate', 499],
      ['range@500.errors', 0],
      ['range@500.warm-up.p99', 900],
      ['range@500.warm-up.max', 900],
    ]);
    expect(figures[6]!.label).toBe('Range at 500 req/s offered, its first 2 s (warm-up, not in the rows above): p99');
    expect(reported(figures[2]!).met).toBe(false);
    expect(reported(figures[5]!).met).toBe(true);
  });

  it("gives a latency run's p99 the floor's p99 at the same rate as its baseline, the goal still on the value", () => {
    const run = (values: number[]) => ({
      offeredRate: 500,
      achievedRate: 500,
      sent: values.length,
      answered: values.length,
      errors: { total: 0, byStatus: {}, byCode: {} },
      latency: summarizeLatencies(values),
      warmUpMs: 0,
      warmUp: summarizeLatencies([]),
      sendLag: summarizeLatencies([0]),
    });
    const floorScenario = latencyFloorScenario(500);
    const floor = { scenario: floorScenario, result: run(Array.from({ length: 100 }, (_, index) => index / 20)) };
    const figures = latencyFigures(
      { id: 'range@500', label: 'Range at 500 req/s', target: 'service', paths: () => [], rate: 500, p99GoalMs: 2 },
      run(Array.from({ length: 100 }, (_, index) => index / 10)),
      floor,
    );
    const p99 = reported(figures.find((figure) => figure.id === 'range@500.p99')!);
    expect(p99.baseline).toEqual({ label: floorScenario.label, value: 4.9 });
    expect(p99.ratio).toBeCloseTo(9.8 / 4.9);
    expect(p99.met).toBe(false);
    expect(floorFigures(floor).map((figure) => [figure.id, figure.value])).toEqual([
      ['floor@500.p50', 2.45],
      ['floor@500.p99', 4.9],
      ['floor@500.max', 4.95],
    ]);
  });
});
