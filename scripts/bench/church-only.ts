// The church scenarios alone, for working on the church request path: service vs bare Express vs bare node:http, CPU per answer.
// Usage: node --import tsx scripts/bench/church-only.ts [--public DIR] [--db PATH] [--requests N] [--rounds N]
//                                                       [--log-level info] [--cpu-prof DIR]
//   --public DIR, --db PATH  a built Bible (default public/ and var/bible.sqlite): the service waits for it to answer
//   --requests N   answers counted per target and path in each round (default 20000), after a warm-up of a quarter as many
//   --rounds N     rounds, each measuring every target back to back (default 3): the figures are each round's, then the median
//   --only WHICH   profile or events: one path only (default both)
//   --cpu-prof DIR a V8 CPU profile of the service, written when it stops, with the bundle's source map beside it
//                  (read it with scripts/bench/profile-summary.ts)
//   --compare DIR  also the service of another checkout (DIR, e.g. the main branch), measured as `before` in every round
//   --backend NAME sqlite (default) or postgres (a throwaway server, as `npm run bench` starts it): the database of the
//                  service (and of --compare's); the database server's CPU per answer is printed beside the service's
// Figures: the server's CPU time per answer (utime + stime of its process around a fixed number of answers, which a busy
// machine moves much less than req/s) and req/s, with the load average; the ratio service/Express is Express's CPU per
// answer over the service's (what the throughput ratio tends to when both are CPU-bound). Not part of `npm run bench`.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { parseCommandLine } from '../command-line.ts';
import { BACKENDS, type PreparedBackend } from './backends.ts';
import { fetchFixedRoutes, startBaseline } from './baselines.ts';
import { median } from './median.ts';
import { cpuSnapshot, cpuSpentMs, cpuTimeMs, type RunningServer } from './processes.ts';
import { CHURCH_EVENTS_PATH, CHURCH_PROFILE_PATH } from './scenarios.ts';
import { mintKey, startService } from './service.ts';

interface Measure {
  requestsPerSecond: number;
  cpuUsPerAnswer: number;
  /** The database server's CPU per answer (PostgreSQL's processes), 0 for an embedded database. */
  databaseCpuUsPerAnswer: number;
  non2xx: number;
}

/** A server measured: a baseline, or a service with its key and its database server's processes (none on SQLite). */
type Target = RunningServer & { headers?: Record<string, string>; database?: () => number[] };

const options = parseCommandLine('scripts/bench/church-only.ts', {
  public: { type: 'string', default: process.env.BIBLE_PUBLIC_DIR ?? 'public' },
  db: { type: 'string', default: process.env.BIBLE_DB_PATH ?? 'var/bible.sqlite' },
  requests: { type: 'string', default: '20000' },
  rounds: { type: 'string', default: '3' },
  'log-level': { type: 'string', default: 'info' },
  'cpu-prof': { type: 'string' },
  only: { type: 'string' },
  compare: { type: 'string' },
  backend: { type: 'string', default: 'sqlite' },
});
const backend = BACKENDS.get(options.backend) ?? fail(`--backend takes ${[...BACKENDS.keys()].join(' or ')}`);
const unavailable = backend.unavailable();
if (unavailable) fail(unavailable);
const requests = Number(options.requests);
const rounds = Number(options.rounds);
const ALL_PATHS = { profile: CHURCH_PROFILE_PATH, events: CHURCH_EVENTS_PATH } as const;
const PATHS =
  options.only === undefined
    ? Object.values(ALL_PATHS)
    : [ALL_PATHS[options.only as keyof typeof ALL_PATHS] ?? fail(`--only takes profile or events`)];
const TARGETS = ['node', 'express', ...(options.compare ? ['before'] : []), 'service'];

const work = await mkdtemp(join(tmpdir(), 'bench-church-'));
const servers: RunningServer[] = [];
const backends: PreparedBackend[] = [];
try {
  const service = await startIn(resolve('.'), 'service');
  const routes = await fetchFixedRoutes(service.url, PATHS, service.headers);
  const targets = new Map<string, Target>([['service', service]]);
  if (options.compare) targets.set('before', await startIn(resolve(options.compare), 'before'));
  for (const kind of ['node', 'express'] as const) {
    const dir = join(work, `baseline-${kind}`);
    await mkdir(dir, { recursive: true });
    const baseline = await startBaseline(kind, routes, dir);
    servers.push(baseline);
    targets.set(kind, baseline);
  }

  const results = new Map<string, Measure[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const path of PATHS) {
      for (const name of TARGETS) {
        const target = targets.get(name)!;
        const measure = await measureTarget(target, path, target.headers ?? service.headers);
        const id = `${path} ${name}`;
        results.set(id, [...(results.get(id) ?? []), measure]);
        console.log(
          `round ${round} ${id}: ${measure.cpuUsPerAnswer.toFixed(0)} µs CPU per answer` +
            `${measure.databaseCpuUsPerAnswer ? ` (+ ${measure.databaseCpuUsPerAnswer.toFixed(0)} in the database server)` : ''}, ${Math.round(measure.requestsPerSecond)} req/s` +
            `${measure.non2xx ? ` (${measure.non2xx} non-2xx)` : ''}, load ${loadavg()[0]!.toFixed(2)}`,
        );
      }
    }
  }
  console.log('\nmedians:');
  for (const path of PATHS) {
    const medianOf = (name: string, pick: (measure: Measure) => number) => median(results.get(`${path} ${name}`)!.map(pick));
    const cpu = Object.fromEntries(TARGETS.map((name) => [name, medianOf(name, (m) => m.cpuUsPerAnswer)]));
    const rps = Object.fromEntries(TARGETS.map((name) => [name, medianOf(name, (m) => m.requestsPerSecond)]));
    for (const name of TARGETS.filter((target) => target === 'service' || target === 'before')) {
      const ratios = results
        .get(`${path} express`)!
        .map((express, round) => express.cpuUsPerAnswer / results.get(`${path} ${name}`)![round]!.cpuUsPerAnswer);
      console.log(
        `${path} ${name}: express/${name} CPU per answer by round ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}`,
      );
    }
    console.log(`${path}: CPU µs per answer ${TARGETS.map((name) => `${name} ${cpu[name]!.toFixed(0)}`).join(', ')}`);
    console.log(`${path}: req/s ${TARGETS.map((name) => `${name} ${Math.round(rps[name]!)}`).join(', ')}`);
  }
  console.log(
    `load at the end ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const server of servers.reverse()) await server.stop();
  for (const prepared of backends) await prepared.close();
  await rm(work, { recursive: true, force: true });
  // The profile names lines of the bundle: its source map beside it, before another `npm start` replaces the bundle.
  if (options['cpu-prof'])
    await copyFile(resolve('dist/start/server.mjs.map'), join(options['cpu-prof'], 'server.mjs.map')).catch(() => {});
}

/**
 * The service of the checkout in `dir` on a fresh SQLite database with the demo data, and a key for it made with
 * that checkout's CLI (run from the working directory, so it is `dir` while it runs).
 */
async function startIn(dir: string, name: string): Promise<Target & { headers: Record<string, string> }> {
  const here = process.cwd();
  process.chdir(dir);
  try {
    const prepared = await backend.prepare(await mkdirIn(work, `${name}-backend`));
    backends.push(prepared);
    const service = await startService({
      workDir: join(work, name),
      name: `${name} (${backend.name})`,
      backendEnv: prepared.env,
      biblePublicDir: resolve(here, options.public),
      bibleDatabasePath: resolve(here, options.db),
      logLevel: options['log-level'],
      cpuProfileDir: options['cpu-prof'] && name === 'service' ? resolve(here, options['cpu-prof']) : undefined,
      checkout: dir,
    });
    servers.push(service);
    return { ...service, headers: { authorization: `Bearer ${await mintKey(service.env)}` }, database: () => prepared.processes() };
  } finally {
    process.chdir(here);
  }
}

async function mkdirIn(parent: string, name: string): Promise<string> {
  const dir = join(parent, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A warm-up of a quarter of `requests`, then `requests` answers counted with the server's CPU time around them. */
async function measureTarget(target: Target, path: string, headers: Record<string, string>): Promise<Measure> {
  const base = { url: `${target.url}${path}`, connections: 10, headers };
  await autocannon({ ...base, amount: Math.ceil(requests / 4) });
  const database = target.database?.() ?? [];
  const before = (await cpuTimeMs(target.pid)) ?? Number.NaN;
  const databaseBefore = await cpuSnapshot(database);
  const result = await autocannon({ ...base, amount: requests });
  const after = (await cpuTimeMs(target.pid)) ?? Number.NaN;
  const databaseAfter = await cpuSnapshot(database);
  return {
    requestsPerSecond: result.requests.average,
    cpuUsPerAnswer: ((after - before) * 1000) / requests,
    databaseCpuUsPerAnswer: (cpuSpentMs(databaseBefore, databaseAfter) * 1000) / requests,
    non2xx: result.non2xx + result.errors,
  };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
