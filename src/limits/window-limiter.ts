// A fixed-window rate limiter over an express-rate-limit Store: one count per request, the draft-8 RateLimit headers, past the limit the Retry-After.
import { createHash } from 'node:crypto';
import type { Logger as LimiterLogger, Options, Store } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import type { Problem } from '../../build/contract/problems.ts';

export interface WindowCounterOptions {
  windowMs: number;
  /** Requests allowed per window and counting key. */
  limit: number;
  /** The policy's name in `RateLimit` and `RateLimit-Policy`. */
  policyName: string;
  /** Memory or Redis (bounded-store.ts); initialised here with windowMs, so one store per limiter. */
  store: Store;
  /** Store errors: the request passes (fail open) and the error is logged here. */
  logger: LimiterLogger;
}

/** What counting one request decided. */
export interface WindowCount {
  /** `RateLimit`, `RateLimit-Policy` and, past the limit, `Retry-After`, in that order, as name/value pairs. */
  headers: [string, string][];
  /** Set past the limit: seconds to the window's end (the Retry-After value). */
  retryAfterSeconds?: number;
}

/** What a limiter decided for one request: the rate-limit headers to send, and the 429 problem when it is over its limit. */
export interface LimitOutcome {
  /** `RateLimit`, `RateLimit-Policy` and, past the limit, `Retry-After`, in that order, as name/value pairs. */
  headers: [string, string][];
  /** Set past the limit: the request is refused with this problem. */
  refused?: Problem;
}

/**
 * A count as the key limit and the Bible limit answer it: its headers, and past the limit the
 * problem `refuse` makes of the Retry-After value. Undefined stays undefined (the store failed).
 *
 * @example limitOutcome(await counter.count(key), (retryAfter) => serviceProblems.keyRateLimited(limit, retryAfter))
 */
export function limitOutcome(counted: WindowCount | undefined, refuse: (retryAfter: string) => Problem): LimitOutcome | undefined {
  if (!counted) return undefined;
  const { headers, retryAfterSeconds } = counted;
  return retryAfterSeconds === undefined ? { headers } : { headers, refused: refuse(String(retryAfterSeconds)) };
}

/** One limiter's counts, used by Express middleware and by the handlers in front of Express alike (key-limit.ts, bible-limit.ts). */
export interface WindowCounter {
  /** Counts one request under `key`; undefined when the store failed (the request passes; the error is logged). */
  count(key: string): Promise<WindowCount | undefined>;
}

/** Partition keys remembered (each one a SHA-256 spared): enough for every active key or address of a busy minute. */
const PARTITION_KEYS_KEPT = 10_000;

/**
 * The counts express-rate-limit kept when configured as before (standardHeaders draft-8, no
 * legacy headers, passOnStoreError), with the same stores, counts and bytes in every header,
 * without its per-request work that only checks its own configuration (validations, debug
 * logging, a dozen awaits): a large share of the church profile's CPU per answer. One store call
 * per request.
 *
 * @example const counts = createWindowCounter({ windowMs: 60_000, limit: 60, policyName: '60-per-minute-per-address', store, logger });
 */
export function createWindowCounter(options: WindowCounterOptions): WindowCounter {
  const { limit, store, logger } = options;
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  const policyStart = `"${options.policyName}"; q=${limit}; w=${windowSeconds}; pk=:`;
  const stateStart = `"${options.policyName}"; r=`;
  const partitionKey = partitionKeys();
  initStore(store, options.windowMs, logger);
  return {
    async count(key) {
      let totalHits: number;
      let resetTime: Date | undefined;
      try {
        ({ totalHits, resetTime } = await store.increment(key));
      } catch (error) {
        logger.error(error, 'express-rate-limit: error from store, allowing request without rate-limiting.');
        return undefined;
      }
      const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
      const headers: [string, string][] = [
        ['RateLimit', `${stateStart}${Math.max(limit - totalHits, 0)}; t=${resetSeconds}`],
        ['RateLimit-Policy', `${policyStart}${partitionKey(key)}:`],
      ];
      if (totalHits <= limit) return { headers };
      headers.push(['Retry-After', String(resetSeconds)]);
      return { headers, retryAfterSeconds: resetSeconds };
    },
  };
}

/**
 * The policy's partition key of a counting key, as express-rate-limit derives it:
 * base64(first 12 hex digits of its SHA-256). Remembered for the most recent keys.
 */
function partitionKeys(): (key: string) => string {
  const known = new LRUCache<string, string>({ max: PARTITION_KEYS_KEPT });
  return (key) => {
    let partition = known.get(key);
    if (partition === undefined) {
      partition = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
      known.set(key, partition);
    }
    return partition;
  };
}

/** The stores take the window from their limiter (express-rate-limit's `init`); a failure is logged, the limiter still counts. */
function initStore(store: Store, windowMs: number, logger: LimiterLogger): void {
  try {
    Promise.resolve(store.init?.({ windowMs } as Options)).catch((error: unknown) =>
      logger.error(error, 'express-rate-limit: async error during store initialization.'),
    );
  } catch (error) {
    logger.error(error, 'express-rate-limit: error during store initialization.');
  }
}
