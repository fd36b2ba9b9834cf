// The service's peak RSS (VmHWM) after every endpoint in every language and short bursts like the bench's, for paired
// before/after comparisons of settings in a few minutes (a full `npm run bench` takes about eight).
// Usage: node --import tsx scripts/bench/peak-rss.ts [--variant SPEC]... [--rounds N] [--probe DIR] [--public DIR] [--db PATH]
//   --variant SPEC  a service to measure: words `NAME=value` (variables set over npm start's), `--flag` (Node flags added
//                   after npm start's), `@DIR` (another checkout's npm start); an empty SPEC ('') is this checkout as it is.
//                   `label:` before the words names it. Default: one variant, this checkout as it is.
//   --rounds N      rounds (default 3), each measuring every variant in turn, so that a change of the machine's load
//                   falls on all of them; the figures are each round's, then the medians
//   --closed-s N    seconds of each closed-loop run (static, range, search; default 3, after 1 of warm-up): longer runs
//                   for a steadier CPU per answer
//   --no-bursts     the closed-loop runs only (a CPU comparison)
//   --bursts IDS    only these bursts (comma-separated ids of scenarios.ts: search@800,range@2000…), --burst-scale K each K times longer
//                   (a latency comparison: the p99 of each burst is printed)
//   --probe DIR     loads scripts/bench/rss-probe.mjs into each service: what the RSS was made of at its highest (V8's
//                   spaces, smaps by mapping), written to DIR/<label>-<round>.json
// Figures: VmHWM after each phase, and the server's CPU time per answer of static chapters, ranges and searches
// (closed loop), which tells a setting that saves memory by spending CPU. Run it under `flock /tmp/bench.lock`.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LANGS } from '../../build/contract/books.ts';
import { parseCommandLine } from '../command-line.ts';
import { closedLoop } from './closed-loop.ts';
import { readCorpora } from './corpus.ts';
import { visitEveryEndpoint } from './coverage.ts';
import { median } from './median.ts';
import { openLoop } from './open-loop.ts';
import { peakRssMb } from './processes.ts';
import { LATENCY_SCENARIOS, scenarioInputs, THROUGHPUT_SCENARIOS } from './scenarios.ts';
import { mintKey, startService } from './service.ts';

interface Variant {
  label: string;
  env: Record<string, string>;
  nodeFlags: string[];
  checkout?: string;
}

const options = parseCommandLine('scripts/bench/peak-rss.ts', {
  variant: { type: 'string', multiple: true },
  rounds: { type: 'string', default: '3' },
  probe: { type: 'string' },
  'closed-s': { type: 'string', default: '3' },
  'no-bursts': { type: 'boolean', default: false },
  bursts: { type: 'string' },
  'burst-scale': { type: 'string', default: '1' },
  public: { type: 'string', default: process.env.BIBLE_PUBLIC_DIR ?? 'public' },
  db: { type: 'string', default: process.env.BIBLE_DB_PATH ?? 'var/bible.sqlite' },
});
const variants = (options.variant ?? ['']).map(parseVariant);
const rounds = Number(options.rounds);
const SEED = 16;

// Smaller query sets than the bench's, for runs of seconds: the bench's scenarios over them.
const inputs = scenarioInputs(readCorpora(resolve(options.db)), { searchesPerLang: 200, ranges: 500 }, SEED);

/** The phases, in the bench's order of kinds: closed loop first (CPU per answer), then open-loop bursts. */
const CLOSED = ['static-chapter.service', 'range.service', 'search.service'].map(scenario(THROUGHPUT_SCENARIOS));
/** The bursts and how long each runs (ms): the bench's latency scenarios of the Bible and MCP, shorter. */
const BURST_MS: Record<string, number> = {
  'search@800': 5000,
  'range@500': 3000,
  'parallel@200': 3000,
  'references@200': 3000,
  'mcp-passage@200': 3000,
  'range@2000': 5000,
};
const OPEN = Object.keys(BURST_MS).map(scenario(LATENCY_SCENARIOS));

const work = await mkdtemp(join(tmpdir(), 'peak-rss-'));
if (options.probe) await mkdir(resolve(options.probe), { recursive: true });
const results = new Map<string, { peak: number[]; cpu: Record<string, number[]> }>();
try {
  for (let round = 1; round <= rounds; round++) {
    for (const variant of variants) {
      const line = await measure(variant, round);
      const result = results.get(variant.label) ?? { peak: [], cpu: {} };
      result.peak.push(line.peak);
      for (const [id, us] of Object.entries(line.cpu)) (result.cpu[id] ??= []).push(us);
      results.set(variant.label, result);
    }
  }
  console.log(
    `\nmedians of ${rounds} rounds (load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}):`,
  );
  for (const [label, result] of results) {
    const cpu = Object.entries(result.cpu)
      .map(([id, values]) => `${id} ${median(values).toFixed(0)}`)
      .join(', ');
    console.log(
      `  ${label}: peak ${median(result.peak).toFixed(1)} MB (${result.peak.map((n) => n.toFixed(1)).join(', ')}); CPU µs per answer: ${cpu}`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

async function measure(variant: Variant, round: number): Promise<{ peak: number; cpu: Record<string, number> }> {
  const probeFile = options.probe ? join(resolve(options.probe), `${variant.label.replace(/[^\w.-]+/g, '_')}-${round}.json`) : undefined;
  const workDir = join(work, `${round}-${variant.label.replace(/[^\w.-]+/g, '_')}`);
  const service = await startService({
    workDir,
    name: `service (${variant.label})`,
    // A church database of the run's own, as the bench's SQLite backend gives (backends.ts).
    backendEnv: { DATABASE_PATH: join(workDir, 'church.sqlite') },
    biblePublicDir: resolve(options.public),
    bibleDatabasePath: resolve(options.db),
    logLevel: 'info',
    checkout: variant.checkout,
    nodeFlags: [...variant.nodeFlags, ...(probeFile ? ['--import', resolve('scripts/bench/rss-probe.mjs')] : [])],
    env: { ...variant.env, BIBLE_ANSWER_CACHE_BYTES: '0', ...(probeFile ? { RSS_PROBE_OUT: probeFile } : {}) },
  });
  try {
    const key = await mintKey(service.env);
    await visitEveryEndpoint(service.url, key, LANGS);
    const steps: string[] = [`start+coverage ${await peak(service.pid)}`];
    const cpu: Record<string, number> = {};
    for (const phase of CLOSED) {
      const result = await closedLoop({
        baseUrl: service.url,
        paths: phase.paths(inputs),
        durationS: Number(options['closed-s']),
        warmUpS: 1,
        pid: service.pid,
      });
      cpu[phase.id] = result.serverCpuUsPerRequest ?? Number.NaN;
      steps.push(`${phase.id} ${await peak(service.pid)}`);
    }
    const burstIds = options.bursts?.split(',').map((id) => id.trim());
    for (const phase of options['no-bursts'] ? [] : OPEN.filter((burst) => !burstIds || burstIds.includes(burst.id))) {
      const durationMs = BURST_MS[phase.id]! * Number(options['burst-scale']);
      const result = await openLoop({
        baseUrl: service.url,
        paths: phase.paths(inputs),
        rate: phase.rate,
        durationMs,
        headers: phase.headers,
      });
      steps.push(
        `${phase.id} ${await peak(service.pid)} (p99 ${result.latency.p99.toFixed(1)} ms, ${result.errors.total} errors ${JSON.stringify(result.errors.byStatus)})`,
      );
    }
    const top = (await peakRssMb(service.pid)) ?? Number.NaN;
    const cpuText = Object.entries(cpu)
      .map(([id, us]) => `${id} ${us.toFixed(0)}`)
      .join(', ');
    console.log(
      `round ${round} ${variant.label}: peak ${top.toFixed(1)} MB; CPU µs/answer ${cpuText}; load ${loadavg()[0]!.toFixed(2)}\n    ${steps.join(' > ')}`,
    );
    return { peak: top, cpu };
  } finally {
    await service.stop();
  }
}

/** The scenario of `list` with id `id` (a typo here fails at start, not after minutes of measuring). */
function scenario<S extends { id: string }>(list: readonly S[]): (id: string) => S {
  return (id) => {
    const found = list.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`scripts/bench/scenarios.ts has no scenario ${id}`);
    return found;
  };
}

async function peak(pid: number): Promise<string> {
  return ((await peakRssMb(pid)) ?? Number.NaN).toFixed(0);
}

/** `label: NAME=value --flag @DIR` (see the usage). */
function parseVariant(spec: string, index: number): Variant {
  const colon = /^([^\s=:@-][^\s=:]*):\s*(.*)$/.exec(spec);
  const words = (colon ? colon[2]! : spec).split(/\s+/).filter(Boolean);
  const variant: Variant = { label: colon?.[1] ?? (words.join(' ') || `as-is${index > 0 ? index + 1 : ''}`), env: {}, nodeFlags: [] };
  for (const word of words) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (assignment) variant.env[assignment[1]!] = assignment[2]!;
    else if (word.startsWith('--')) variant.nodeFlags.push(word);
    else if (word.startsWith('@')) variant.checkout = resolve(word.slice(1));
    else throw new Error(`--variant: "${word}" is neither NAME=value, --flag nor @DIR`);
  }
  return variant;
}
