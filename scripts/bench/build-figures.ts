// Peak RSS and wall time of a full Bible build, as scripts/bench-bible.ts measures them (run as it is, its (a) line read).
import { execFile } from 'node:child_process';
import { promisify, stripVTControlCharacters } from 'node:util';

export interface BuildFigures {
  seconds: number;
  peakMb: number;
  /** bench-bible's whole output, for the details. */
  output: string;
}

/** bench-bible's line of the full build: `(a) full build: 12.8 s wall — goal … ; peak 342 MB resident over the process tree …`. */
const FULL_BUILD_LINE = /\(a\) full build: ([\d.]+) s wall.*?peak ([\d.]+) MB/;

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
  const match = FULL_BUILD_LINE.exec(output);
  if (!match) throw new Error(`scripts/bench-bible.ts printed no full-build line:\n${output.slice(-1500)}\n${stderr.slice(-1500)}`);
  return { seconds: Number(match[1]), peakMb: Number(match[2]), output };
}
