// `npm run bench`: the service's speed and memory beside their ceilings (bare node:http, bare Express, nginx), measured in one run.
// Usage: npm run bench -- [--quick] [--backend sqlite] [--public DIR] [--db PATH] [--sources DIR] [--no-build]
//                         [--log-level info] [--cpu-prof DIR] [--out DIR] [--seed N]
//   --quick        short runs and small query sets, written to var/bench/ (for development: not comparable)
//   --backend NAME the service's storage backend (scripts/bench/backends.ts; default sqlite)
//   --public DIR, --db PATH  a built Bible (default BIBLE_PUBLIC_DIR or public/, BIBLE_DB_PATH or var/bible.sqlite);
//                  when there is none and the sources are at hand (--sources DIR or BIBLE_SOURCES_DIR) one is
//                  built into a temporary folder
//   --no-build     do not measure a full Bible build (it needs the sources and takes a minute)
//   --log-level L  the service's LOG_LEVEL (default info: the access line of every request, as in production)
//   --cpu-prof DIR a V8 CPU profile of the service, written when it stops (open it in Chrome DevTools)
//   --only PARTS   a comma-separated subset of throughput, latency, worst-search, backends (default all four; the peak
//                  RSS is always read, the build measured unless --no-build): for profiling one part. backends: the
//                  church profile on one instance on SQLite, one on PostgreSQL, two on PostgreSQL behind nginx
//                  (scenarios.ts DEPLOYMENT_SCENARIOS), each alone, skipped with the reason when a server is missing
//   --latency IDS  only these latency scenarios (comma-separated ids of scenarios.ts LATENCY_SCENARIOS: parallel@200…)
//   --throughput IDS only these throughput scenarios (ids of scenarios.ts THROUGHPUT_SCENARIOS: static-chapter.nginx…)
//   --checkout DIR the service of another checkout (its `npm start`; every deployment's instances too), for a before/after on the same Bible and bench
//   --out DIR      where results.json and RESULTS.md go (default bench/, var/bench/ with --quick)
// Goals (issues 16 and 28) are printed beside each figure; figures, not pass/fail: the exit code says only whether the run worked.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { $, chalk } from 'zx';
import { LANGS } from '../build/contract/books.ts';
import { staticPaths } from '../build/contract/layout.ts';
import { NGINX_MAPS_PATH } from '../build/writers/host-rewrites.ts';
import { adversarialSearches } from './bench/adversarial-searches.ts';
import { BACKENDS } from './bench/backends.ts';
import { fetchFixedRoutes, startBaseline } from './bench/baselines.ts';
import { measureBuild } from './bench/build-figures.ts';
import { type ClosedLoopResult, type ClosedLoopRun, closedLoopInTurns } from './bench/closed-loop.ts';
import { readCorpora } from './bench/corpus.ts';
import { visitEveryEndpoint } from './bench/coverage.ts';
import { findDeploymentTools, startDeployment, whyNotDeployable } from './bench/deployments.ts';
import { deploymentFigures, floorFigures, latencyFigures, type MeasuredFloor, stallFigures, throughputFigures } from './bench/figures.ts';
import { currentCommit, describeMachine, loadNow } from './bench/machine.ts';
import { findOrInstallNginx, startNginx } from './bench/nginx.ts';
import { openLoop } from './bench/open-loop.ts';
import { peakRssMb, type RunningServer } from './bench/processes.ts';
import { type LanguageCorpus, type SearchQuery, searchPath } from './bench/query-sets.ts';
import { type Figure, type Results, reported, resultsMarkdown, tableRow } from './bench/report.ts';
import {
  CHURCH_EVENTS_PATH,
  CHURCH_PROFILE_PATH,
  DEPLOYMENT_SCENARIOS,
  floorRates,
  GOALS,
  LATENCY_SCENARIOS,
  type LatencyScenario,
  latencyFloorScenario,
  STATIC_CHAPTER_PATH,
  scenarioInputs,
  THROUGHPUT_SCENARIOS,
  throughputGroups,
} from './bench/scenarios.ts';
import { mintKey, startService } from './bench/service.ts';
import { probeStalls } from './bench/stall-probe.ts';
import { worstSearch } from './bench/worst-search.ts';
import { parseCommandLine } from './command-line.ts';
import { npmNodeCommand } from './lib/npm-start.ts';

/** What the run lacks to start (no built Bible and no sources): its message says what to do, no stack. */
class SetupError extends Error {}

/** Durations and set sizes: a full run (the committed figures) and a quick one (development). */
const MODES = {
  full: { throughputS: 10, throughputTurns: 5, warmUpS: 2, latencyS: 20, searchesPerLang: 1000, ranges: 1000 },
  quick: { throughputS: 2, throughputTurns: 2, warmUpS: 0.5, latencyS: 3, searchesPerLang: 100, ranges: 200 },
} as const;

/** How long each core's busy loop runs to count the machine's stalls (stall-probe.ts). */
const STALL_PROBE_MS = 5_000;

/** Full builds measured (bench:bible's default): the wall time is their median, the memory their highest peak. */
const BUILD_RUNS = 3;

/** The parts of a run that --only can choose. */
const PARTS = ['throughput', 'latency', 'worst-search', 'backends'] as const;

const options = parseCommandLine('scripts/bench.ts', {
  quick: { type: 'boolean', default: false },
  backend: { type: 'string', default: 'sqlite' },
  public: { type: 'string' },
  db: { type: 'string' },
  sources: { type: 'string' },
  'no-build': { type: 'boolean', default: false },
  'log-level': { type: 'string', default: 'info' },
  'cpu-prof': { type: 'string' },
  out: { type: 'string' },
  only: { type: 'string', default: PARTS.join(',') },
  seed: { type: 'string', default: '16' },
  latency: { type: 'string' },
  throughput: { type: 'string' },
  checkout: { type: 'string' },
});
const mode = options.quick ? MODES.quick : MODES.full;
const backend = BACKENDS.get(options.backend);
if (!backend) fail(`--backend must be one of ${[...BACKENDS.keys()].join(', ')}, got "${options.backend}"`);
const backendMissing = backend.unavailable();
if (backendMissing) fail(`--backend ${backend.name}: ${backendMissing}`);
const seed = Number(options.seed);
if (!Number.isInteger(seed)) fail(`--seed must be a whole number, got "${options.seed}"`);
const parts = new Set(options.only.split(',').map((part) => part.trim()));
const unknownPart = [...parts].find((part) => !(PARTS as readonly string[]).includes(part));
if (unknownPart !== undefined) fail(`--only takes ${PARTS.join(', ')}; got "${unknownPart}"`);
const sourcesDir = options.sources ?? process.env.BIBLE_SOURCES_DIR;
const outDir = resolve(options.out ?? (options.quick ? 'var/bench' : 'bench'));

const machine = describeMachine();
const work = await mkdtemp(join(tmpdir(), 'bench-'));
const servers: RunningServer[] = [];
const figures: Figure[] = [];
const skipped: Results['skipped'] = [];
const measurements: Record<string, unknown> = {};
let exitCode = 0;
try {
  log(
    `${mode === MODES.quick ? 'QUICK run' : 'Full run'}: ${machine.cores} × ${machine.cpuModel}, load ${machine.loadAverage.start.join(' ')}, Node ${process.version}, backend ${backend.name}`,
  );
  const bible = await locateBible();
  log(`Bible: ${bible.publicDir} and ${bible.databasePath}`);

  // Query sets from the corpus: the same for the same build and seed.
  const corpora = readCorpora(bible.databasePath);
  const inputs = scenarioInputs(corpora, mode, seed);
  const { searches, ranges } = inputs;
  log(`query sets: ${searches.length} searches (${mode.searchesPerLang} per language), ${ranges.length} ranges`);

  // The machine's own stalls, before any server runs: the floor under every open-loop percentile.
  if (parts.has('latency')) {
    const stalls = await probeStalls(STALL_PROBE_MS, machine.cores);
    figures.push(...stallFigures(stalls));
    log(
      `machine: ${stalls.stallsPerSecond.toFixed(1)} stalls of ≥ 1 ms per second of a busy loop, ${stalls.lostPercent.toFixed(2)}% of its time, longest ${stalls.longestMs.toFixed(1)} ms`,
    );
  }

  // The servers, each in its own process, on free loopback ports.
  const prepared = await backend.prepare(join(work, 'backend'));
  const service = await startService({
    workDir: join(work, 'service'),
    name: `service (${backend.name})`,
    backendEnv: prepared.env,
    biblePublicDir: bible.publicDir,
    bibleDatabasePath: bible.databasePath,
    logLevel: options['log-level'],
    cpuProfileDir: options['cpu-prof'] ? resolve(options['cpu-prof']) : undefined,
    checkout: options.checkout ? resolve(options.checkout) : undefined,
  });
  // Stopped in reverse order: the backend after the service that uses it.
  servers.push({ ...service, name: 'backend', stop: () => prepared.close() }, service);
  const key = await mintKey(service.env);
  const keyHeaders = { authorization: `Bearer ${key}` };
  const coverage = await visitEveryEndpoint(service.url, key, LANGS);
  measurements.coverage = coverage;
  for (const failure of coverage.failures) log(chalk.yellow(`  ${failure.path} answered ${failure.status}`));
  log(`every endpoint in every language: ${coverage.requests} requests, ${coverage.failures.length} not 200`);

  const targets = new Map<string, RunningServer>([['service', service]]);
  const routes = await fetchFixedRoutes(service.url, [CHURCH_PROFILE_PATH, CHURCH_EVENTS_PATH, STATIC_CHAPTER_PATH], keyHeaders);
  for (const kind of ['node', 'express'] as const) {
    const baseline = await startBaseline(kind, routes, await mkdirIn(work, `baseline-${kind}`));
    servers.push(baseline);
    targets.set(kind, baseline);
  }
  const nginx = await findOrInstallNginx(log);
  if ('path' in nginx) {
    const started = await startNginx(nginx.path, bible.publicDir, service.url, await mkdirIn(work, 'nginx'));
    servers.push(started);
    targets.set('nginx', started);
  } else {
    skipped.push({ figure: 'static chapter through nginx (and the service against it)', reason: nginx.skipped });
  }
  log(`servers: ${[...targets].map(([name, server]) => `${name} ${server.url}`).join(', ')}`);

  // Throughput, closed loop.
  const throughput = new Map<string, ClosedLoopResult>();
  const throughputIds = options.throughput?.split(',').map((id) => id.trim());
  const chosen = parts.has('throughput') ? THROUGHPUT_SCENARIOS.filter((s) => !throughputIds || throughputIds.includes(s.id)) : [];
  for (const group of throughputGroups(chosen)) {
    const runs = group.flatMap((scenario): ClosedLoopRun[] => {
      const target = targets.get(scenario.target);
      if (!target) return [];
      const options = {
        baseUrl: target.url,
        paths: scenario.paths(inputs),
        headers: scenario.keyed ? keyHeaders : undefined,
        durationS: mode.throughputS,
        warmUpS: mode.warmUpS,
        pid: target.pid,
      };
      return [{ id: scenario.id, options }];
    });
    // A service and its ceilings in turns; a scenario compared with nothing in one window.
    const results = await closedLoopInTurns(runs, mode.throughputTurns);
    for (const scenario of group) {
      const result = results.get(scenario.id);
      if (!result) continue;
      throughput.set(scenario.id, result);
      const problems = result.non2xx + result.errors > 0 ? chalk.yellow(` (${result.non2xx} non-2xx, ${result.errors} errors)`) : '';
      const cpu = result.serverCpuUsPerRequest === undefined ? '' : `, server CPU ${result.serverCpuUsPerRequest.toFixed(0)} µs per answer`;
      log(`${scenario.label}: ${Math.round(result.requestsPerSecond).toLocaleString('en-US')} req/s${cpu}${turnsNote(result)}${problems}`);
    }
  }
  measurements.throughput = Object.fromEntries(throughput);
  figures.push(...throughputFigures(THROUGHPUT_SCENARIOS, throughput));

  // Latency at a fixed offered rate, open loop; at each rate with a p99 goal, first the floor (bare node:http) at that rate.
  const latencyIds = options.latency?.split(',').map((id) => id.trim());
  const latencyScenarios = parts.has('latency') ? LATENCY_SCENARIOS.filter((s) => !latencyIds || latencyIds.includes(s.id)) : [];
  const floors = new Map<number, MeasuredFloor>();
  const floorAt = new Set(floorRates(latencyScenarios));
  const runOpenLoop = async (scenario: LatencyScenario, target: RunningServer) => {
    const result = await openLoop({
      baseUrl: target.url,
      paths: scenario.paths(inputs),
      rate: scenario.rate,
      durationMs: mode.latencyS * 1000,
      warmUpMs: mode.warmUpS * 1000,
      headers: { ...(scenario.keyed ? keyHeaders : {}), ...scenario.headers },
    });
    const { latency } = result;
    log(
      `${scenario.label} offered: p50 ${latency.p50.toFixed(2)} ms, p90 ${latency.p90.toFixed(2)}, p99 ${latency.p99.toFixed(2)}, max ${latency.max.toFixed(1)}; ` +
        `achieved ${result.achievedRate.toFixed(0)}/s, ${result.errors.total} errors (sender lag p99 ${result.sendLag.p99.toFixed(2)} ms; ` +
        `first ${mode.warmUpS} s, not counted: p99 ${result.warmUp.p99.toFixed(2)} ms, max ${result.warmUp.max.toFixed(1)})`,
    );
    return result;
  };
  for (const scenario of latencyScenarios) {
    const target = targets.get(scenario.target);
    if (!target) continue;
    const floorTarget = targets.get('node');
    if (floorAt.has(scenario.rate) && !floors.has(scenario.rate) && floorTarget) {
      const floorScenario = latencyFloorScenario(scenario.rate);
      const floor = { scenario: floorScenario, result: await runOpenLoop(floorScenario, floorTarget) };
      floors.set(scenario.rate, floor);
      figures.push(...floorFigures(floor));
    }
    const result = await runOpenLoop(scenario, target);
    figures.push(...latencyFigures(scenario, result, scenario.p99GoalMs === undefined ? undefined : floors.get(scenario.rate)));
  }

  // The worst single search: the set's slowest, and searches made to be slow.
  if (parts.has('worst-search')) figures.push(...(await worstSearchFigures(service.url, searches, corpora)));

  // Peak memory of the service, now that every endpoint and language has been used under load.
  const rss = await peakRssMb(service.pid);
  if (rss === undefined) throw new Error('the service is gone: no /proc status to read its peak RSS from');
  figures.push({
    id: 'service.peak-rss',
    label: 'Service peak RSS, all five languages and every endpoint used (VmHWM)',
    value: rss,
    unit: 'MB',
    goal: { on: 'value', op: '<=', limit: GOALS.serviceRssMb },
  });
  log(`service peak RSS: ${rss.toFixed(0)} MB`);
  await stopServers();

  // The church profile on each deployment, one at a time once the run's own servers are stopped.
  if (parts.has('backends')) figures.push(...(await deploymentComparison(bible)));

  // A full Bible build, measured by scripts/bench-bible.ts, once nothing else of the run is running.
  if (options['no-build']) {
    skipped.push({ figure: 'full Bible build', reason: '--no-build' });
  } else if (!sourcesDir) {
    skipped.push({ figure: 'full Bible build', reason: 'no sources (set BIBLE_SOURCES_DIR or pass --sources DIR)' });
  } else {
    log('full Bible build (scripts/bench-bible.ts)…');
    const build = await measureBuild(sourcesDir, BUILD_RUNS);
    figures.push(
      {
        id: 'build.peak-rss',
        label: `Full Bible build peak RSS (process tree, highest of ${BUILD_RUNS})`,
        value: build.peakMb,
        unit: 'MB',
        goal: { on: 'value', op: '<=', limit: GOALS.buildRssMb },
      },
      {
        id: 'build.wall',
        label: `Full Bible build wall time (median of ${BUILD_RUNS}, as bench:bible measures it)`,
        value: build.seconds,
        unit: 's',
        goal: { on: 'value', op: '<=', limit: GOALS.buildSeconds },
        // How fast the machine was, and each build's system time (file creation soon after deletions costs seconds of it).
        details: { runs: build.runs, fixedWorkloadMs: build.fixedWorkloadMs },
      },
    );
    const runs = build.runs.map(
      (run) => `${run.seconds.toFixed(1)} s (${run.userSeconds.toFixed(1)} user + ${run.systemSeconds.toFixed(1)} system)`,
    );
    const workload = build.fixedWorkloadMs
      ? `; fixed workload ${build.fixedWorkloadMs.before} ms before, ${build.fixedWorkloadMs.after} after`
      : '';
    log(`full build: ${build.seconds.toFixed(1)} s, peak RSS ${build.peakMb.toFixed(0)} MB; runs ${runs.join(', ')}${workload}`);
  }

  machine.loadAverage.end = loadNow();
  const results: Results = {
    date: new Date().toISOString(),
    commit: await currentCommit(),
    node: process.version,
    machine,
    settings: {
      quick: options.quick,
      backend: backend.name,
      logLevel: options['log-level'],
      seed,
      ...mode,
      searches: searches.length,
      rangeCount: ranges.length,
      connections: 10,
    },
    skipped,
    figures: figures.map(reported),
  };
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'results.json'), `${JSON.stringify({ ...results, measurements }, null, 2)}\n`);
  await writeFile(join(outDir, 'RESULTS.md'), resultsMarkdown(results));
  log('');
  for (const figure of results.figures) log(tableRow(figure));
  log(`\nwritten: ${join(outDir, 'results.json')} and RESULTS.md (load at the end ${machine.loadAverage.end.join(' ')})`);
} catch (error) {
  console.error(chalk.red(error instanceof SetupError ? error.message : ((error as Error).stack ?? String(error))));
  exitCode = 1;
} finally {
  await stopServers();
  await rm(work, { recursive: true, force: true });
}
process.exit(exitCode);

/** The built Bible to measure: the configured one, else one built now from the sources into the run's folder. */
async function locateBible(): Promise<{ publicDir: string; databasePath: string }> {
  const publicDir = resolve(options.public ?? process.env.BIBLE_PUBLIC_DIR ?? 'public');
  const databasePath = resolve(options.db ?? process.env.BIBLE_DB_PATH ?? 'var/bible.sqlite');
  const needed = [join(publicDir, staticPaths.stamp), join(publicDir, NGINX_MAPS_PATH), databasePath];
  const missing = needed.filter((file) => !existsSync(file));
  if (missing.length === 0) return { publicDir, databasePath };
  if (!sourcesDir) {
    throw new SetupError(
      `no built Bible: missing ${missing.join(', ')}. Build one (BIBLE_SOURCES_DIR=… npm run build:bible), ` +
        'pass --public and --db, or give the sources (BIBLE_SOURCES_DIR or --sources) to build one for this run.',
    );
  }
  log(`no built Bible (missing ${missing.join(', ')}): building one from ${sourcesDir} into the run's folder…`);
  const built = { publicDir: join(work, 'bible/public'), databasePath: join(work, 'bible/bible.sqlite') };
  const command = npmNodeCommand(process.cwd(), 'build:bible');
  await $({
    env: { ...process.env, ...command.env, CI: '1' },
  })`${process.execPath} ${command.args} --sources ${sourcesDir} --out ${built.publicDir} --db ${built.databasePath} --report ${join(work, 'bible/report.json')}`.quiet();
  return built;
}

/**
 * The church profile's throughput (the settings of its throughput scenario) on every deployment of
 * DEPLOYMENT_SCENARIOS that this machine can run: all started (an idle deployment costs the others no
 * CPU), then measured in turns (closedLoopInTurns), so that the PostgreSQL/SQLite ratio is not the
 * machine's drift between two windows, then all stopped.
 */
async function deploymentComparison(bible: { publicDir: string; databasePath: string }): Promise<Figure[]> {
  const tools = findDeploymentTools();
  const runs: ClosedLoopRun[] = [];
  for (const scenario of DEPLOYMENT_SCENARIOS) {
    const missing = whyNotDeployable(scenario, tools);
    if (missing) {
      skipped.push({ figure: scenario.label, reason: missing });
      log(chalk.yellow(`${scenario.label}: skipped, ${missing}`));
      continue;
    }
    const deployment = await startDeployment(scenario, tools, {
      workDir: await mkdirIn(work, `deployment-${runs.length + 1}`),
      biblePublicDir: bible.publicDir,
      bibleDatabasePath: bible.databasePath,
      logLevel: options['log-level'],
      checkout: options.checkout ? resolve(options.checkout) : undefined,
    });
    servers.push({ name: scenario.id, url: deployment.url, pid: deployment.pid ?? 0, stop: deployment.stop });
    runs.push({
      id: scenario.id,
      options: {
        baseUrl: deployment.url,
        paths: [CHURCH_PROFILE_PATH],
        headers: { authorization: `Bearer ${deployment.key}` },
        durationS: mode.throughputS,
        warmUpS: mode.warmUpS,
        processes: deployment.processes,
      },
    });
  }
  const measured = await closedLoopInTurns(runs, mode.throughputTurns);
  await stopServers();
  for (const scenario of DEPLOYMENT_SCENARIOS) {
    const result = measured.get(scenario.id);
    if (!result) continue;
    const problems = result.non2xx + result.errors > 0 ? chalk.yellow(` (${result.non2xx} non-2xx, ${result.errors} errors)`) : '';
    const cpu = Object.entries(result.cpuUsPerRequestByRole ?? {})
      .map(([role, us]) => `${role} ${us.toFixed(0)}`)
      .join(', ');
    log(
      `${scenario.label}: ${Math.round(result.requestsPerSecond).toLocaleString('en-US')} req/s${turnsNote(result)}; CPU µs per answer: ${cpu}${problems}`,
    );
  }
  measurements.deployments = Object.fromEntries(measured);
  return deploymentFigures(DEPLOYMENT_SCENARIOS, measured);
}

/** Each turn's answers per second, for a result measured in turns ('' for one window). */
function turnsNote(result: ClosedLoopResult): string {
  const turns = result.requestsPerSecondByTurn;
  return turns ? ` (turns: ${turns.map((rate) => Math.round(rate).toLocaleString('en-US')).join(', ')})` : '';
}

/** The slowest search of the set and the slowest adversarial one, each timed alone, against the goal. */
async function worstSearchFigures(
  baseUrl: string,
  searches: readonly SearchQuery[],
  corpora: readonly LanguageCorpus[],
): Promise<Figure[]> {
  const fromSet = await worstSearch(baseUrl, searches, searchPath);
  const adversarial = await worstSearch(baseUrl, adversarialSearches(corpora), searchPath);
  measurements.adversarial = adversarial.timings.map((timing) => ({ ...timing.query, ms: timing.ms, status: timing.status }));
  const figures: Figure[] = [];
  for (const [label, id, { worst, timings }] of [
    ['Slowest search of the query set', 'worst-search.set', fromSet],
    ['Slowest adversarial search', 'worst-search.adversarial', adversarial],
  ] as const) {
    const notOk = timings.filter((timing) => timing.status !== 200);
    figures.push({
      id,
      label: `${label} (alone)`,
      value: worst.ms,
      unit: 'ms',
      goal: { on: 'value', op: '<=', limit: GOALS.worstSearchMs },
      details: {
        query: worst.query,
        status: worst.status,
        firstPassMs: worst.firstMs,
        timed: timings.length,
        notOk: notOk.map((timing) => ({ ...timing.query, status: timing.status })),
      },
    });
    log(`${label}: ${worst.ms.toFixed(1)} ms — ${worst.query.lang} "${worst.query.q}" (${worst.query.kind}, status ${worst.status})`);
    for (const timing of notOk) log(chalk.yellow(`  ${timing.query.lang} "${timing.query.q}" answered ${timing.status}`));
  }
  return figures;
}

async function stopServers(): Promise<void> {
  while (servers.length > 0) await servers.pop()!.stop();
}

async function mkdirIn(parent: string, name: string): Promise<string> {
  const dir = join(parent, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

function log(line: string): void {
  console.log(line);
}

function fail(message: string): never {
  console.error(chalk.red(message));
  process.exit(1);
}
