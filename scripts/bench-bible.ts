// Benchmarks the Bible build: (a) a full --force build of the five versions into a temporary folder,
// (b) reading every KJV verse with our SWORD reader against the SWORD library's own mod2imp.
// Usage: BIBLE_SOURCES_DIR=DIR npm run bench:bible -- [--runs 3] [--sources DIR]
// Goals on the two-core reference machine: (a) at most 20 s, (b) at most 1.5 times mod2imp.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { $, chalk } from 'zx';
import { buildBible } from '../build/pipeline.ts';
import { resolveSourcesDir, sourcePath, verifySourceFile } from '../build/sources.ts';
import { openSwordModuleZip } from '../build/sword/module-zip.ts';
import { rawCanonicalVerses, readSwordModule } from '../build/sword/read-module.ts';
import { loadVersionManifest } from '../build/version-manifest.ts';
import { writeOutputs } from '../build/writers/output-dir.ts';
import { parseCommandLine } from './command-line.ts';

const BUILD_GOAL_S = 20;
const READER_GOAL_RATIO = 1.5;

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

  // (a) Full build, forced, into a temporary output.
  const cpuBefore = process.cpuUsage();
  const buildStarted = performance.now();
  const result = await buildBible({
    sourcesDir,
    publicDir: join(work, 'public'),
    databasePath: join(work, 'var/bible.sqlite'),
    reportPath: join(work, 'var/bible-report.json'),
    force: true,
  });
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (result.status === 'built') console.log(result.summary);
  console.log(
    `(a) full build: ${buildSeconds.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU in this process` +
      ` (worker threads included) — goal ≤ ${BUILD_GOAL_S} s ${verdict(buildSeconds <= BUILD_GOAL_S)}`,
  );

  // (b) Every KJV verse: our reader against mod2imp over the same module.
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

  console.log(`(b) KJV, every verse (best of ${runs}):`);
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
