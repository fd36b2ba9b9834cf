// The benchmark's figures, their goals and ratios, and the two files a run writes: bench/results.json and bench/RESULTS.md.

export type Unit = 'ms' | 'req/s' | 'MB' | 's' | 'count' | 'µs';

/** A ceiling or a floor, on the figure itself or on its ratio to the baseline. */
export interface Goal {
  /** `value`: the figure is compared; `ratio`: the figure divided by the baseline's. */
  on: 'value' | 'ratio';
  op: '<=' | '>=';
  limit: number;
}

export interface Figure {
  /** Stable name, for comparing runs (`search.p99@200`). */
  id: string;
  /** What it is, as the table says it. */
  label: string;
  value: number;
  unit: Unit;
  /** The figure measured the same way on the ceiling (bare Express, nginx…), in the same run. */
  baseline?: { label: string; value: number };
  goal?: Goal;
  /** Anything else the run measured for this figure (errors, achieved rate, the slowest query…). */
  details?: Record<string, unknown>;
}

/** A figure with its ratio and verdict worked out, as results.json holds it. */
export interface ReportedFigure extends Figure {
  ratio?: number;
  met?: boolean;
}

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryMB: number;
  /** 1, 5 and 15 minute load averages at the start and the end of the run: a busy machine makes every figure worse. */
  loadAverage: { start: number[]; end: number[] };
  os: string;
}

export interface Results {
  date: string;
  commit: string;
  node: string;
  machine: Machine;
  /** What the run was asked: quick or full, backend, durations, rates, set sizes. */
  settings: Record<string, unknown>;
  /** Figures that could not be measured in this run, and why (no nginx, no sources…). */
  skipped: { figure: string; reason: string }[];
  figures: ReportedFigure[];
}

/**
 * The figure with its ratio (to the baseline, when there is one) and whether its goal is met.
 *
 * @example reported({ id: 'x', label: 'x', value: 8, unit: 'req/s', baseline: { label: 'b', value: 10 }, goal: { on: 'ratio', op: '>=', limit: 0.8 } })
 *   // { …, ratio: 0.8, met: true }
 */
export function reported(figure: Figure): ReportedFigure {
  const ratio = figure.baseline && figure.baseline.value > 0 ? figure.value / figure.baseline.value : undefined;
  if (!figure.goal) return { ...figure, ratio };
  const measured = figure.goal.on === 'ratio' ? ratio : figure.value;
  const met =
    measured === undefined || !Number.isFinite(measured)
      ? false
      : figure.goal.op === '<='
        ? measured <= figure.goal.limit
        : measured >= figure.goal.limit;
  return { ...figure, ratio, met };
}

/** RESULTS.md: where and how the run was made, then one table row per figure, then what was skipped. */
export function resultsMarkdown(results: Results): string {
  const { machine } = results;
  const lines = [
    '# Benchmark results',
    '',
    `Made by \`npm run bench\`${results.settings.quick ? ' --quick (short runs, small sets: not for comparison)' : ''} on ${results.date.slice(0, 10)}, commit \`${results.commit}\`, Node ${results.node}.`,
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryMB} MB, ${machine.os}; load average (1, 5, 15 min) ${machine.loadAverage.start.map(fixed2).join(', ')} at the start, ${machine.loadAverage.end.map(fixed2).join(', ')} at the end.`,
    ...busyMachineWarning(machine),
    '',
    '| figure | value | baseline | ratio | goal | met? |',
    '|---|---:|---|---:|---|:---:|',
    ...results.figures.map(tableRow),
    '',
  ];
  if (results.skipped.length > 0) {
    lines.push('Not measured in this run:', '', ...results.skipped.map((skip) => `- ${skip.figure}: ${skip.reason}`), '');
  }
  lines.push(
    'Throughput: autocannon, closed loop, 10 connections; a server and the ceilings it is compared with (and the deployments) measured in turns, 2 s each in rotated order (five turns; two in a quick run), each figure the sum of its turns. Latency: an open-loop sender (requests on a fixed schedule whatever the answers, counted from the scheduled time), after a warm-up at the same rate (2 s; 0.5 s in a quick run) whose p99 and max have rows of their own. The service keeps no range or search answers here (`BIBLE_ANSWER_CACHE_BYTES=0`): each request runs its query. The p99 rows with a goal have a floor as their baseline: bare node:http answering fixed bytes at the same rate through the same sender, measured just before; a p99 cannot be lower than the machine lets its floor be (see also the stalls of the machine, measured before any server ran). Every figure, its settings and details are in [results.json](results.json).',
    '',
  );
  return lines.join('\n');
}

/** One table row: the figure, its value, the baseline and ratio when it has one, its goal and verdict. */
export function tableRow(figure: ReportedFigure): string {
  const baseline = figure.baseline ? `${figure.baseline.label}: ${formatValue(figure.baseline.value, figure.unit)}` : '';
  const ratio = figure.ratio === undefined ? '' : figure.ratio.toFixed(2);
  const verdict = figure.met === undefined ? '' : figure.met ? 'yes' : '**no**';
  return `| ${figure.label} | ${formatValue(figure.value, figure.unit)} | ${baseline} | ${ratio} | ${formatGoal(figure)} | ${verdict} |`;
}

/** A value with its unit, to a precision that fits its size (`1.23 ms`, `12,345 req/s`). */
export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'count') return value.toLocaleString('en-US');
  const digits = unit === 'req/s' || unit === 'MB' || unit === 'µs' ? 0 : Math.abs(value) < 10 ? 2 : 1;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

/** The goal as the issue states it: `≤ 5 ms` on the value, `≥ 80% of bare Express` on a ratio. */
export function formatGoal(figure: Figure): string {
  const { goal } = figure;
  if (!goal) return '';
  const sign = goal.op === '<=' ? '≤' : '≥';
  if (goal.on === 'value') return `${sign} ${formatValue(goal.limit, figure.unit)}`;
  return `${sign} ${Math.round(goal.limit * 100)}% of ${figure.baseline?.label ?? 'the baseline'}`;
}

/**
 * A warning when the machine had more runnable work than cores when the run began: other programs
 * then take CPU from the servers and the load generators, and the figures say more about the
 * machine than about the service. Only the start tells of other work: by the end the run's own
 * last parts (closed loops that keep both cores busy, three builds on every core) have raised the
 * 1-minute average to about the number of cores on an idle machine (2.17 at the end of a run that
 * began at 0.69), so the end's figure is reported but warns of nothing.
 */
function busyMachineWarning(machine: Machine): string[] {
  const atStart = machine.loadAverage.start[0] ?? 0;
  if (atStart < machine.cores) return [];
  return [
    '',
    `**A busy machine:** its 1-minute load average was ${fixed2(atStart)} on ${machine.cores} cores when this run began, so other work competed with the servers and the load generators; these figures are not comparable with a quiet run's.`,
  ];
}

function fixed2(value: number): string {
  return value.toFixed(2);
}
