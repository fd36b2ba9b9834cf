// Answers of the Bible's computed endpoints (verse ranges, searches) kept per build in a small LRU bounded by bytes, so a repeated request runs no query.
import { LRUCache } from 'lru-cache';
import type { PreparedJson } from '../http/cache.ts';

export interface AnswerCache {
  /**
   * The answer kept under `key`, else the one `make` returns, kept for next time. A `make` that
   * throws (a 404, a 400) keeps nothing: only answers are kept, never refusals.
   *
   * @example answers.remember(`range en JHN 3 16 16`, () => prepareJson(response))
   */
  remember(key: string, make: () => PreparedJson): PreparedJson;
  /** As remember, for an answer made off the event loop (a search on a worker); two misses at once both make it. */
  rememberAsync(key: string, make: () => Promise<PreparedJson>): Promise<PreparedJson>;
  /** What the kept answers weigh, as counted against the bound (for tests and the bench). */
  readonly heldBytes: number;
}

/**
 * 4 MiB: a verse range answers in 1-3 kB and a page of search hits in 2-10 kB, so about a thousand
 * of the most asked (John 3:16 and its like) stay. Small beside the service's 150 MB: a flood of
 * different requests only replaces what is kept, it never grows it.
 */
export const DEFAULT_ANSWER_CACHE_BYTES = 4 * 1024 * 1024;

/** What a kept answer holds besides its JSON: its key, its ETag and length strings, the LRU's entry. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * An empty cache holding at most `maxBytes`. One per opened build (source.ts), so an answer never
 * outlives the build it was read from.
 */
export function createAnswerCache(maxBytes = DEFAULT_ANSWER_CACHE_BYTES): AnswerCache {
  // 0 (BIBLE_ANSWER_CACHE_BYTES=0, as the bench runs): every answer is made, nothing is kept.
  if (maxBytes === 0) return { remember: (_key, make) => make(), rememberAsync: (_key, make) => make(), heldBytes: 0 };
  const cache = new LRUCache<string, PreparedJson>({
    maxSize: maxBytes,
    // The answer is dropped, not kept, when it alone is larger than the whole bound.
    sizeCalculation: (answer, key) => answerBytes(key, answer),
  });
  const keep = (key: string, answer: PreparedJson): PreparedJson => {
    if (answerBytes(key, answer) <= maxBytes) cache.set(key, answer);
    return answer;
  };
  return {
    remember(key, make) {
      return cache.get(key) ?? keep(key, make());
    },
    async rememberAsync(key, make) {
      return cache.get(key) ?? keep(key, await make());
    },
    get heldBytes() {
      return cache.calculatedSize;
    },
  };
}

/**
 * What an answer costs in memory, counted high: its bytes, and two bytes per character of the key
 * (V8 keeps a string with any character past Latin-1 at two bytes each).
 */
function answerBytes(key: string, answer: PreparedJson): number {
  return answer.json.length + 2 * key.length + ENTRY_OVERHEAD_BYTES;
}
