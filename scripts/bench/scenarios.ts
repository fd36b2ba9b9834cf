// What a run measures: each throughput and latency scenario is one entry of a list, naming its target server, paths and goal.
import { DEMO_CHURCH } from './coverage.ts';
import type { LanguageCorpus, RangeQuery, SearchQuery } from './query-sets.ts';
import {
  mcpPassageCalls,
  parallelPaths,
  rangeQueries,
  referenceTextPaths,
  searchPath,
  searchQueries,
  shuffled,
  verseOfTheDayPaths,
} from './query-sets.ts';
import type { RawRequest } from './raw-client.ts';
import type { Goal } from './report.ts';

/**
 * The servers of a run, by name: `service` (the real entry), `express` and `node` (bare apps
 * answering the service's own church bytes), `nginx` (the static tree with the generated
 * configuration). A scenario whose target did not start is skipped, with the reason.
 */
export type TargetName = 'service' | 'express' | 'node' | 'nginx' | (string & {});

/** What scenarios draw their paths from. */
export interface ScenarioInputs {
  /** Every language's searches, mixed (query-sets.ts). */
  searches: readonly SearchQuery[];
  /** Ranges of every language, mixed. */
  ranges: readonly RangeQuery[];
  /** /parallel paths: each range in its language and two others (query-sets.ts parallelPaths). */
  parallels: readonly string[];
  /** /references paths: texts of about 1,000 characters quoting four references each. */
  referenceTexts: readonly string[];
  /** /verse-of-the-day paths: every day of a leap year in every language. */
  days: readonly string[];
}

/**
 * The query sets of a run, drawn from the corpus: the same for the same build, sizes and seed.
 * Searches and ranges of every language are mixed, so that no language has the run to itself.
 *
 * @example const inputs = scenarioInputs(readCorpora(databasePath), { searchesPerLang: 1000, ranges: 1000 }, 16)
 */
export function scenarioInputs(
  corpora: readonly LanguageCorpus[],
  sizes: { searchesPerLang: number; ranges: number },
  seed: number,
): ScenarioInputs {
  const searches = shuffled(
    corpora.flatMap((corpus) => searchQueries(corpus, sizes.searchesPerLang, seed)),
    seed,
  );
  const ranges = shuffled(rangeQueries(corpora, sizes.ranges, seed), seed);
  return {
    searches,
    ranges,
    parallels: parallelPaths(ranges),
    referenceTexts: referenceTextPaths(corpora, ranges, sizes.ranges, seed),
    days: shuffled(verseOfTheDayPaths(), seed),
  };
}

export interface ThroughputScenario {
  id: string;
  label: string;
  target: TargetName;
  paths: (inputs: ScenarioInputs) => readonly string[];
  /** Sends the run's key (church endpoints). */
  keyed?: boolean;
  /**
   * Other throughput scenarios of the list (the ceilings, measured in the same run) this one is
   * compared with: one figure each, with a goal on the ratio when there is one.
   */
  compare?: readonly { baseline: string; goal?: Goal }[];
}

export interface LatencyScenario {
  id: string;
  label: string;
  target: TargetName;
  /** Paths to GET, or POSTs with their bodies. */
  paths: (inputs: ScenarioInputs) => readonly (string | RawRequest)[];
  /** Requests per second offered. */
  rate: number;
  keyed?: boolean;
  /** Headers sent with every request besides the key (an Accept that picks a representation, a Content-Type). */
  headers?: Record<string, string>;
  /** Ceiling of the p99, in ms. */
  p99GoalMs?: number;
}

export const CHURCH_PROFILE_PATH = `/api/public/v1/churches/${DEMO_CHURCH}`;
export const CHURCH_EVENTS_PATH = `${CHURCH_PROFILE_PATH}/events`;
/** A chapter of the static tree, by its English abbreviation, as a reader's page asks for it. */
export const STATIC_CHAPTER_PATH = '/api/v1/bible/John/3?lang=en';

/** How many different ranges and searches a throughput run cycles through. */
const THROUGHPUT_SET = 200;

const only = (path: string) => () => [path];
const atLeast = (ratio: number): Goal => ({ on: 'ratio', op: '>=', limit: ratio });

/** Throughput, closed loop (autocannon, 10 connections), in this order. */
export const THROUGHPUT_SCENARIOS: readonly ThroughputScenario[] = [
  { id: 'static-chapter.nginx', label: 'Static chapter, nginx', target: 'nginx', paths: only(STATIC_CHAPTER_PATH) },
  // The floor of Node itself: the chapter's bytes from a bare node:http server (with fewer headers than the service's:
  // baselines.ts keeps type, cache and ETag). Its CPU per answer against the service's is what the service adds.
  { id: 'static-chapter.node', label: 'Static chapter, bare node:http', target: 'node', paths: only(STATIC_CHAPTER_PATH) },
  {
    id: 'static-chapter.service',
    label: 'Static chapter, service',
    target: 'service',
    paths: only(STATIC_CHAPTER_PATH),
    compare: [{ baseline: 'static-chapter.nginx', goal: atLeast(0.9) }, { baseline: 'static-chapter.node' }],
  },
  { id: 'church-profile.node', label: 'Church profile, bare node:http', target: 'node', paths: only(CHURCH_PROFILE_PATH), keyed: true },
  { id: 'church-profile.express', label: 'Church profile, bare Express', target: 'express', paths: only(CHURCH_PROFILE_PATH), keyed: true },
  {
    id: 'church-profile.service',
    label: 'Church profile, service',
    target: 'service',
    paths: only(CHURCH_PROFILE_PATH),
    keyed: true,
    compare: [
      { baseline: 'church-profile.express', goal: atLeast(0.8) },
      { baseline: 'church-profile.node', goal: atLeast(0.5) },
    ],
  },
  { id: 'church-events.node', label: 'Church events, bare node:http', target: 'node', paths: only(CHURCH_EVENTS_PATH), keyed: true },
  { id: 'church-events.express', label: 'Church events, bare Express', target: 'express', paths: only(CHURCH_EVENTS_PATH), keyed: true },
  {
    id: 'church-events.service',
    label: 'Church events, service',
    target: 'service',
    paths: only(CHURCH_EVENTS_PATH),
    keyed: true,
    compare: [{ baseline: 'church-events.express' }, { baseline: 'church-events.node', goal: atLeast(0.5) }],
  },
  {
    id: 'range.service',
    label: `Range (${THROUGHPUT_SET} different), service`,
    target: 'service',
    paths: ({ ranges }) => ranges.slice(0, THROUGHPUT_SET).map((range) => range.path),
  },
  {
    id: 'search.service',
    label: `Search (${THROUGHPUT_SET} different), service`,
    target: 'service',
    paths: ({ searches }) => searches.slice(0, THROUGHPUT_SET).map(searchPath),
  },
];

/**
 * The throughput scenarios grouped as they are measured: a scenario with comparisons together with
 * its baselines (in list order), measured in turns (closed-loop.ts
 * `closedLoopInTurns`), so that a ratio is not the machine's drift between two windows; services that
 * share a baseline in one group; every other scenario alone. Each group keeps list order and comes
 * where its first scenario is in the list.
 *
 * @example throughputGroups(THROUGHPUT_SCENARIOS)[0].map((s) => s.id) // ['static-chapter.nginx', 'static-chapter.node', 'static-chapter.service']
 */
export function throughputGroups(scenarios: readonly ThroughputScenario[]): ThroughputScenario[][] {
  // Each id's group; a scenario that meets two groups (a baseline two services share) merges them, so none is measured twice.
  const groupOf = new Map<string, Set<string>>();
  for (const scenario of scenarios) {
    const group = new Set([scenario.id, ...(scenario.compare ?? []).map((comparison) => comparison.baseline)]);
    for (const id of [...group]) for (const member of groupOf.get(id) ?? []) group.add(member);
    for (const id of group) groupOf.set(id, group);
  }
  const groups = new Set(scenarios.map((scenario) => groupOf.get(scenario.id)!));
  return [...groups].map((ids) => scenarios.filter((scenario) => ids.has(scenario.id)));
}

/** Latency at a fixed offered rate (open loop), in this order. */
export const LATENCY_SCENARIOS: readonly LatencyScenario[] = [
  {
    id: 'search@200',
    label: 'Search at 200 req/s',
    target: 'service',
    paths: ({ searches }) => searches.map(searchPath),
    rate: 200,
    p99GoalMs: 2.5,
  },
  {
    id: 'search@800',
    label: 'Search at 800 req/s',
    target: 'service',
    paths: ({ searches }) => searches.map(searchPath),
    rate: 800,
    p99GoalMs: 5,
  },
  {
    id: 'range@500',
    label: 'Range at 500 req/s',
    target: 'service',
    paths: ({ ranges }) => ranges.map((range) => range.path),
    rate: 500,
    p99GoalMs: 1,
  },
  {
    id: 'parallel@200',
    label: 'Parallel (3 languages, up to 9 verses) at 200 req/s',
    target: 'service',
    paths: ({ parallels }) => parallels,
    rate: 200,
    p99GoalMs: 10,
  },
  {
    id: 'references@200',
    label: 'References in a 1,000-character text at 200 req/s',
    target: 'service',
    paths: ({ referenceTexts }) => referenceTexts,
    rate: 200,
    p99GoalMs: 10,
  },
  {
    id: 'verse-of-the-day@500',
    label: 'Verse of the day at 500 req/s',
    target: 'service',
    paths: ({ days }) => days,
    rate: 500,
    p99GoalMs: 2,
  },
  {
    id: 'church-events-calendar@500',
    label: 'Church events as an iCalendar (Accept: text/calendar) at 500 req/s',
    target: 'service',
    paths: only(CHURCH_EVENTS_PATH),
    rate: 500,
    keyed: true,
    headers: { accept: 'text/calendar' },
  },
  {
    id: 'church-profile-json-ld@500',
    label: 'Church profile as JSON-LD (Accept: application/ld+json) at 500 req/s',
    target: 'service',
    paths: only(CHURCH_PROFILE_PATH),
    rate: 500,
    keyed: true,
    headers: { accept: 'application/ld+json' },
  },
  {
    id: 'mcp-passage@200',
    label: 'MCP tools/call get_bible_passage (one range each) at 200 req/s',
    target: 'service',
    paths: ({ ranges }) => mcpPassageCalls(ranges),
    rate: 200,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  },
  {
    id: 'range@2000',
    label: 'Range at 2,000 req/s',
    target: 'service',
    paths: ({ ranges }) => ranges.map((range) => range.path),
    rate: 2000,
    p99GoalMs: 2,
  },
];

/**
 * The floor under a latency figure: bare node:http answering the church profile's fixed bytes at
 * the same offered rate, through the same sender, in the same run. Its percentiles are the
 * machine's and the sender's (scheduling, wake-ups, the loopback); what a scenario shows above
 * them is the service's own.
 */
export function latencyFloorScenario(rate: number): LatencyScenario {
  return {
    id: `floor@${rate}`,
    label: `Floor: bare node:http, fixed bytes, at ${rate.toLocaleString('en-US')} req/s`,
    target: 'node',
    paths: only(CHURCH_PROFILE_PATH),
    rate,
    keyed: true,
  };
}

/** The rates of the scenarios with a p99 goal, each once, in their order: a floor is measured at each. */
export function floorRates(scenarios: readonly LatencyScenario[]): number[] {
  return [...new Set(scenarios.filter((scenario) => scenario.p99GoalMs !== undefined).map((scenario) => scenario.rate))];
}

/** Ceilings of the figures that are not scenarios (issue 28: the service within 150 MB, the build within 6 s and 300 MB). */
export const GOALS = {
  worstSearchMs: 25,
  serviceRssMb: 150,
  buildRssMb: 300,
  buildSeconds: 6,
} as const;

/** The church profile on one deployment: a storage backend and how many instances (more than one: behind nginx, one Redis). */
export interface DeploymentScenario {
  id: string;
  label: string;
  /** A name of BACKENDS (backends.ts). */
  backend: string;
  /** 1: the instance itself; 2 or more: an nginx round-robin upstream over them, sharing one Redis for the limits. */
  instances: number;
  /** A floor on its throughput over the first deployment's (one instance on SQLite). */
  goal?: Goal;
}

/**
 * The deployments compared (`--only backends`), each measured alone with the church profile's
 * throughput settings; the first is the one every other is compared with.
 */
export const DEPLOYMENT_SCENARIOS: readonly DeploymentScenario[] = [
  { id: 'church-profile.sqlite×1', label: 'Church profile, one instance on SQLite', backend: 'sqlite', instances: 1 },
  {
    id: 'church-profile.postgres×1',
    label: 'Church profile, one instance on PostgreSQL',
    backend: 'postgres',
    instances: 1,
    goal: atLeast(0.6),
  },
  {
    id: 'church-profile.postgres×2',
    label: 'Church profile, two instances on PostgreSQL behind nginx (round robin, one Redis)',
    backend: 'postgres',
    instances: 2,
  },
];
