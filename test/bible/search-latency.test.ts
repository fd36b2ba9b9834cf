// Searches run off the event loop: with the costliest searches in flight at the per-address limit, static chapters keep their latency.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { COSTLIEST_ALLOWED_QUERY, heavySearchVersions } from './heavy-search-bible.ts';
import { rawRequest } from './raw-request.ts';

let bible: BibleFixture;
let server: TestServer;

beforeAll(async () => {
  bible = await buildBibleFixture(heavySearchVersions());
  // The budget is not under test here: on 2 busy cores a 200 ms search may well take a second.
  server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'warn', BIBLE_SEARCH_TIMEOUT_MS: '20000' });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

/** Issue 11's worst searches (100 × a; a phrase of 66 × de, now refused at once) and the costliest one still allowed. */
const WORST_SEARCHES = [
  `q=${encodeURIComponent(Array(100).fill('a').join(' '))}&lang=en`,
  `q=${encodeURIComponent(`"${Array(66).fill('de').join(' ')}"`)}&lang=fr`,
  `q=${encodeURIComponent(COSTLIEST_ALLOWED_QUERY)}&lang=fr`,
];

/** The per-address limit (600 a minute by default) spread evenly: one search every 100 ms. */
const SEARCH_INTERVAL_MS = 100;

test('with the worst searches in flight at the per-address limit, the p99 of a static chapter stays within a few ms', async () => {
  const chapter = `${server.url}/api/v1/bible/Gn/1?lang=fr`;
  const search = (query: string) => rawRequest(`${server.url}/api/v1/bible/search?${query}`);
  // Warm up: the chapter in the file cache, the search workers started.
  expect((await rawRequest(chapter)).status).toBe(200);
  expect((await search(WORST_SEARCHES[2])).status).toBe(200);

  // What this machine gives without searches: other test files and processes share its cores.
  const quiet = await chapterLatencies(chapter, 2000);

  const searchStatuses: number[] = [];
  const searchesInFlight: Promise<void>[] = [];
  let sent = 0;
  const searcher = setInterval(() => {
    const query = WORST_SEARCHES[sent++ % WORST_SEARCHES.length];
    searchesInFlight.push(search(query).then((res) => void searchStatuses.push(res.status)));
  }, SEARCH_INTERVAL_MS);
  const busy = await chapterLatencies(chapter, 4000);
  clearInterval(searcher);
  await Promise.all(searchesInFlight);

  console.log(`static chapter alone: ${describe(quiet)}; under ${sent} worst searches: ${describe(busy)}`);
  // The searches answered (the refused phrase with 400), none was dropped as busy at this rate.
  expect(new Set(searchStatuses)).toEqual(new Set([200, 400]));
  // Loose on purpose, and never tighter than the machine's own noise: a search on the event loop
  // holds it ~200 ms each time, which puts the p99 in the hundreds of milliseconds.
  expect(percentile(busy, 0.99)).toBeLessThan(Math.max(50, 2 * percentile(quiet, 0.99)));
}, 30_000);

/** Latencies of static chapter requests sent one after another, 5 ms apart, for `durationMs`; sorted. */
async function chapterLatencies(url: string, durationMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const started = performance.now();
    const res = await rawRequest(url);
    latencies.push(performance.now() - started);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return latencies.sort((a, b) => a - b);
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(sorted.length * fraction) - 1)];
}

function describe(sorted: readonly number[]): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return `${sorted.length} requests, p50 ${ms(percentile(sorted, 0.5))}, p99 ${ms(percentile(sorted, 0.99))}, max ${ms(sorted.at(-1) ?? 0)}`;
}
