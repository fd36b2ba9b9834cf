// Benchmarks the Bible build: (a) full --force builds of the five versions (--runs of them, the median reported), each
// into a temporary folder of its own, and (b) a rebuild with nothing changed, each as `npm run build:bible` runs it (its command line read from package.json), in a child process
// whose wall time and peak resident memory over its process tree (sampled) are measured;
// (c) reading every KJV verse with our SWORD reader against the SWORD library's own mod2imp (best of --runs).
// Usage: BIBLE_SOURCES_DIR=DIR npm run bench:bible -- [--runs 3] [--sources DIR]
// Goals on the two-core reference machine: (a) and (b) at most 10 s and 300 MB, (c) at most 1.5 times mod2imp.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { $, chalk } from 'zx';
import { resolveSourcesDir, sourcePath, verifySourceFile } from '../build/sources.ts';
import { openSwordModuleZip } from '../build/sword/module-zip.ts';
import { rawCanonicalVerses, readSwordModule } from '../build/sword/read-module.ts';
import { loadVersionManifest } from '../build/version-manifest.ts';
import { writeOutputs } from '../build/writers/output-dir.ts';
import { GOALS } from './bench/scenarios.ts';
import { parseCommandLine } from './command-line.ts';
import { npmNodeCommand } from './lib/npm-start.ts';

const BUILD_GOAL_S = GOALS.buildSeconds;
const BUILD_GOAL_MB = GOALS.buildRssMb;
const READER_GOAL_RATIO = 1.5;
const SAMPLE_MS = 50;
/** Linux's clock ticks per second (USER_HZ), the unit of CPU times in /proc/<pid>/stat: 100 on every architecture Node runs on. */
const CLOCK_TICKS = 100;

const options = parseCommandLine('scripts/bench-bible.ts', {
  sources: { type: 'string' },
  runs: { type: 'string', default: '3' },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(chalk.red(`--runs must be a whole number of at least 1, got "${options.runs}"`));
  process.exit(1);
}
if (!process.env.BIBLE_SOURCES_DIR && options.sources === undefined) {
  console.error(chalk.red('bench:bible needs the sources: set BIBLE_SOURCES_DIR (or pass --sources DIR)'));
  process.exit(1);
}
const sourcesDir = resolveSourcesDir(options.sources, process.env);
const work = await mkdtemp(join(tmpdir(), 'bench-bible-'));
try {
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load ${(await $`cat /proc/loadavg`.quiet()).stdout.trim()}`,
  );

  // (a) Full builds, forced, each into a folder of its own: none is deleted before the last run ends, so no run
  // follows another's deletions (see the CPU note below). (b) The same command again on the last folder: nothing changed.
  const buildArgs = (folder: string) => [
    '--sources',
    sourcesDir,
    '--out',
    join(folder, 'public'),
    '--db',
    join(folder, 'var/bible.sqlite'),
    '--report',
    join(folder, 'var/bible-report.json'),
  ];
  const before = cpuCheckMs();
  const fullRuns: MeasuredBuild[] = [];
  for (let run = 1; run <= runs; run++) {
    const measured = await measuredBuild([...buildArgs(join(work, `run-${run}`)), '--force']);
    if (run === 1) console.log(measured.output.trim());
    console.log(`    full build, run ${run} of ${runs}: ${figures(measured)}`);
    fullRuns.push(measured);
  }
  const full = { ...median(fullRuns), peakMb: Math.max(...fullRuns.map((run) => run.peakMb)) };
  console.log(`(a) full build: ${figures(full)} (${runs === 1 ? 'one run' : `median wall time of ${runs} runs, highest peak`})`);
  const again = await measuredBuild(buildArgs(join(work, `run-${runs}`)));
  console.log(again.output.trim());
  console.log(`(b) rebuild, nothing changed: ${figures(again)}`);
  console.log(
    `    machine speed: a fixed JavaScript workload took ${before.toFixed(0)} ms before the builds and ${cpuCheckMs().toFixed(0)} ms after ` +
      '(lower is faster; on the shared two-core machine it has varied up to threefold within an hour, and the build with it).',
  );
  console.log(
    `    memory: resident pages of the build's process tree (node with its threads, and esbuild's service while it bundles), pages shared between processes counted once; ` +
      `sampled every ${SAMPLE_MS} ms from /proc/PID/status, and at least node's own high-water mark (VmHWM). Summing each process's whole RSS instead: (a) ${full.rssSumMb.toFixed(0)} MB, (b) ${again.rssSumMb.toFixed(0)} MB.`,
  );
  console.log(
    `    CPU: the process tree's, all threads; on ${cpus().length} cores the wall time is at least CPU / ${cpus().length}. ` +
      'System time is mostly creating about 18,000 files. On ext4 without a journal, the kernel skips inodes freed in the last minutes ' +
      'when it allocates new ones, so a build soon after many files were deleted (the folder of a previous build) spends seconds more of it.',
  );
  console.log(`    load after the runs: ${(await $`cat /proc/loadavg`.quiet()).stdout.trim()}`);

  // (c) Every KJV verse: our reader against mod2imp over the same module.
  const kjv = loadVersionManifest().versions.find((entry) => entry.code === 'KJV');
  if (!kjv) throw new Error('the manifest has no KJV entry');
  const zipPath = sourcePath(sourcesDir, kjv);
  await verifySourceFile(zipPath, kjv);
  const zip = new Uint8Array(await readFile(zipPath));

  const ours = best(runs, () => {
    const { version } = readSwordModule(zip, 'KJV');
    return version.books.reduce((sum, book) => sum + book.chapters.reduce((n, chapter) => n + chapter.verses.length, 0), 0);
  });
  const raw = best(runs, () => {
    let count = 0;
    for (const verse of rawCanonicalVerses(openSwordModuleZip(zip))) if (verse.raw) count++;
    return count;
  });

  const swordPath = join(work, 'sword');
  const entries = Object.entries(unzipSync(zip)).filter(([name]) => !name.endsWith('/'));
  await writeOutputs(
    swordPath,
    entries.map(([path, content]) => ({ path, content })),
    ['mods.d', 'modules'],
  );
  const mod2imp = await bestAsync(runs, async () => {
    const output = await $({ env: { ...process.env, SWORD_PATH: swordPath } })`mod2imp KJV`.quiet();
    return output.stdout.split('\n').filter((line) => line.startsWith('$$$')).length;
  });

  console.log(`(c) KJV, every verse (best of ${runs}):`);
  console.log(`    our reader, OSIS → plain text: ${ours.ms.toFixed(0)} ms (${ours.value} verses)`);
  console.log(`    our reader, raw entries only:  ${raw.ms.toFixed(0)} ms (${raw.value} entries)`);
  console.log(`    mod2imp KJV (SWORD library):   ${mod2imp.ms.toFixed(0)} ms (${mod2imp.value} entries incl. headings)`);
  const ratio = ours.ms / mod2imp.ms;
  console.log(
    `    ratio ours/mod2imp: ${ratio.toFixed(2)} (raw ${(raw.ms / mod2imp.ms).toFixed(2)}) — goal ≤ ${READER_GOAL_RATIO} ${verdict(ratio <= READER_GOAL_RATIO)}`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}

interface MeasuredBuild {
  seconds: number;
  /** Peak of the tree's resident memory, pages shared between its processes counted once, and at least the root process's own peak. */
  peakMb: number;
  /** Peak of the plain sum of each process's RSS (shared pages counted in each). */
  rssSumMb: number;
  /** CPU time of the process tree, user and system (all threads), as last sampled before it ended. */
  userSeconds: number;
  systemSeconds: number;
  output: string;
}

/** Runs the build with `args` in a child process, as `npm run build:bible` runs it; its wall time and the peaks of its process tree's memory. */
async function measuredBuild(args: string[]): Promise<MeasuredBuild> {
  const started = performance.now();
  const command = npmNodeCommand(process.cwd(), 'build:bible');
  const child = spawn(process.execPath, [...command.args, ...args], {
    env: { ...process.env, ...command.env, CI: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let peak = 0;
  let rssSum = 0;
  let cpu = { user: 0, system: 0 };
  const sampler = setInterval(() => {
    if (child.pid === undefined) return;
    const memory = treeMemory(child.pid);
    peak = Math.max(peak, memory.resident, memory.rootPeak);
    rssSum = Math.max(rssSum, memory.rssSum);
    if (memory.user + memory.system >= cpu.user + cpu.system) cpu = memory;
  }, SAMPLE_MS);
  const code: number = await new Promise((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`the build exited with code ${code}:\n${output}`);
  return {
    seconds: (performance.now() - started) / 1000,
    peakMb: peak / 1e6,
    rssSumMb: rssSum / 1e6,
    userSeconds: cpu.user,
    systemSeconds: cpu.system,
    output,
  };
}

/**
 * Resident memory of `pid` and all its descendants (worker threads are inside their process), from
 * /proc/<pid>/status: each process's anonymous pages, plus the largest file-backed and shared part of
 * any one of them (Node's own code and libraries, mapped by every node process: counted once, not once
 * per process); the root's own high-water mark (VmHWM, which no sample can miss); and, for comparison,
 * the plain sum of their RSS. Processes that ended between two samples count 0.
 *
 * Why `status` and not `smaps_rollup` (which this read before): the kernel answers `status` from
 * counters (0.2 ms a read, measured during a build), `smaps_rollup` by walking every page table of the
 * process with its memory map locked: 8 ms a read (median; up to 14) during a build, so sampling it
 * every 50 ms took about a sixth of a core from a build that needs both, and held up its mmap and
 * munmap calls meanwhile.
 */
function treeMemory(pid: number): { resident: number; rootPeak: number; rssSum: number; user: number; system: number } {
  let anonymous = 0;
  let shared = 0;
  let rootPeak = 0;
  let rssSum = 0;
  let user = 0;
  let system = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop()!;
    try {
      const status = readFileSync(`/proc/${current}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
      anonymous += kb('RssAnon');
      shared = Math.max(shared, kb('RssFile') + kb('RssShmem'));
      rssSum += kb('VmRSS');
      if (current === pid) rootPeak = kb('VmHWM');
      // utime and stime (fields 14 and 15, after the parenthesised name), in clock ticks, of all the process's threads.
      const fields = readFileSync(`/proc/${current}/stat`, 'utf8').split(') ')[1]!.split(' ');
      user += Number(fields[11]) / CLOCK_TICKS;
      system += Number(fields[12]) / CLOCK_TICKS;
      for (const task of readdirSync(`/proc/${current}/task`)) {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      }
    } catch {
      // The process ended between two samples.
    }
  }
  return { resident: anonymous + shared, rootPeak, rssSum, user, system };
}

function figures(build: MeasuredBuild): string {
  return (
    `${build.seconds.toFixed(1)} s wall — goal ≤ ${BUILD_GOAL_S} s ${verdict(build.seconds <= BUILD_GOAL_S)}; ` +
    `peak ${build.peakMb.toFixed(0)} MB resident over the process tree — goal ≤ ${BUILD_GOAL_MB} MB ${verdict(build.peakMb <= BUILD_GOAL_MB)}; ` +
    `CPU ${build.userSeconds.toFixed(1)} s user + ${build.systemSeconds.toFixed(1)} s system`
  );
}

/** The run whose wall time is the median (the lower middle one for an even count). */
function median(measured: readonly MeasuredBuild[]): MeasuredBuild {
  const sorted = [...measured].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Milliseconds of CPU a fixed JavaScript workload takes (maps and strings, like the build's own work,
 * about a second on this machine at its fastest): the machine's speed at the moment, for reading the
 * build's figures. Not a benchmark of anything of ours.
 */
function cpuCheckMs(): number {
  const started = process.cpuUsage();
  const map = new Map<string, number>();
  let sum = 0;
  for (let i = 0; i < 3_000_000; i++) {
    map.set(`k${i % 100_000}`, i);
    sum += map.get(`k${i % 5_000}`) ?? 0;
  }
  if (sum < 0) throw new Error('unreachable: keeps the loop from being optimised away');
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

function best<T>(times: number, work: () => T): { ms: number; value: T } {
  let result = { ms: Infinity, value: undefined as T };
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    const value = work();
    const ms = performance.now() - started;
    if (ms < result.ms) result = { ms, value };
  }
  return result;
}

async function bestAsync<T>(times: number, work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  let result = { ms: Infinity, value: undefined as T };
  for (let run = 0; run < times; run++) {
    const started = performance.now();
    const value = await work();
    const ms = performance.now() - started;
    if (ms < result.ms) result = { ms, value };
  }
  return result;
}

function verdict(met: boolean): string {
  return met ? chalk.green('met') : chalk.yellow('NOT met');
}
