// The worst single search: every search of a set timed once, one after another, and the slowest timed again.
import http from 'node:http';

export interface TimedSearch<Query> {
  query: Query;
  ms: number;
  status: number;
}

export interface WorstSearch<Query> {
  query: Query;
  /** The median of the repeated timings of the slowest candidates: one slow pass (a GC pause) does not make a query the worst. */
  ms: number;
  /** Its time in the single pass over the set. */
  firstMs: number;
  status: number;
}

/** How many of the slowest are timed again, and how many times. */
const CANDIDATES = 10;
const REPEATS = 3;

/**
 * Times each path once, sequentially over one keep-alive connection (nothing else in flight), then
 * times the slowest CANDIDATES again REPEATS times and returns the one whose median is worst, with
 * every first-pass timing (for the report's details).
 */
export async function worstSearch<Query>(
  baseUrl: string,
  queries: readonly Query[],
  pathOf: (query: Query) => string,
): Promise<{ worst: WorstSearch<Query>; timings: TimedSearch<Query>[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const timings: TimedSearch<Query>[] = [];
    for (const query of queries) timings.push({ query, ...(await timedGet(agent, `${baseUrl}${pathOf(query)}`)) });
    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, CANDIDATES);
    let worst: WorstSearch<Query> | undefined;
    for (const candidate of slowest) {
      const repeats: number[] = [];
      for (let run = 0; run < REPEATS; run++) repeats.push((await timedGet(agent, `${baseUrl}${pathOf(candidate.query)}`)).ms);
      const median = repeats.sort((a, b) => a - b)[Math.floor(REPEATS / 2)]!;
      if (!worst || median > worst.ms) worst = { query: candidate.query, ms: median, firstMs: candidate.ms, status: candidate.status };
    }
    if (!worst) throw new Error('worstSearch needs at least one query');
    return { worst, timings };
  } finally {
    agent.destroy();
  }
}

/** One GET, from the call to the last byte of the answer. */
function timedGet(agent: http.Agent, url: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { agent }, (response) => {
        response.on('data', () => {});
        response.on('end', () => resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 }));
      })
      .on('error', reject);
  });
}
