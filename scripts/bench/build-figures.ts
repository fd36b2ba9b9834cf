// Peak RSS and wall time of a full Bible build, as scripts/bench-bible.ts measures them (run as it is, its (a) line read).
import { execFile } from 'node:child_process';
import { promisify, stripVTControlCharacters } from 'node:util';

export interface BuildFigures {
  seconds: number;
  peakMb: number;
  /** Each build's wall time, peak and CPU split, in run order: a build soon after many files were deleted shows in its system time. */
  runs: BuildRun[];
  /** bench-bible's fixed JavaScript workload before and after the builds, in ms (about 1,000 on a quiet machine): how fast the machine was. */
  fixedWorkloadMs?: { before: number; after: number };
  /** bench-bible's whole output, for the details. */
  output: string;
}

/** One forced build as bench-bible prints it. */
export interface BuildRun {
  seconds: number;
  peakMb: number;
  userSeconds: number;
  systemSeconds: number;
}

/** bench-bible's line of the full build: `(a) full build: 12.8 s wall — goal … ; peak 342 MB resident over the process tree …`. */
const FULL_BUILD_LINE = /\(a\) full build: ([\d.]+) s wall.*?peak ([\d.]+) MB/;
/** Each run's line: `full build, run 2 of 3: 6.1 s wall — …; peak 262 MB resident …; CPU 8.6 s user + 2.0 s system`. */
const RUN_LINE = /full build, run \d+ of \d+: ([\d.]+) s wall.*?peak ([\d.]+) MB.*?CPU ([\d.]+) s user \+ ([\d.]+) s system/g;
const FIXED_WORKLOAD_LINE = /machine speed: a fixed JavaScript workload took (\d+) ms before the builds and (\d+) ms after/;

/**
 * Runs `scripts/bench-bible.ts --runs N` (N forced builds of the five versions, each into a
 * temporary folder, in a child process whose process tree it samples) and reads its (a) line: the
 * median wall time and the highest peak, the figure bench:bible reports with its default of three. Its second part
 * (the KJV reader against mod2imp) may fail where libsword-utils is missing: the build's line
 * counts. Throws when that line is not printed.
 */
export async function measureBuild(sourcesDir: string, runs: number): Promise<BuildFigures> {
  const args = ['--import', 'tsx', 'scripts/bench-bible.ts', '--runs', String(runs), '--sources', sourcesDir];
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
    env: { ...process.env, CI: '1' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
  const output = stripVTControlCharacters(stdout);
  const figures = buildFigures(output);
  if (!figures) throw new Error(`scripts/bench-bible.ts printed no full-build line:\n${output.slice(-1500)}\n${stderr.slice(-1500)}`);
  return figures;
}

/**
 * The figures of bench-bible's output: its (a) line (median wall, highest peak), each run's line and
 * the fixed workload's times; undefined without an (a) line.
 *
 * @example buildFigures(output)?.runs.map((run) => run.systemSeconds)
 */
export function buildFigures(output: string): BuildFigures | undefined {
  const match = FULL_BUILD_LINE.exec(output);
  if (!match) return undefined;
  const runs = [...output.matchAll(RUN_LINE)].map((run) => ({
    seconds: Number(run[1]),
    peakMb: Number(run[2]),
    userSeconds: Number(run[3]),
    systemSeconds: Number(run[4]),
  }));
  const workload = FIXED_WORKLOAD_LINE.exec(output);
  return {
    seconds: Number(match[1]),
    peakMb: Number(match[2]),
    runs,
    ...(workload ? { fixedWorkloadMs: { before: Number(workload[1]), after: Number(workload[2]) } } : {}),
    output,
  };
}
