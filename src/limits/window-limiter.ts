// Fixed-window counts over an express-rate-limit Store, the one mechanism under every limit and throttle; for the key and Bible limits, the draft-8 RateLimit headers.
import { createHash } from 'node:crypto';
import type { Logger as LimiterLogger, Options, Store } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import type { Problem } from '../../build/contract/problems.ts';

export interface WindowCountsOptions {
  windowMs: number;
  /** Memory or Redis (bounded-store.ts); initialised here with windowMs, so one store per limiter. */
  store: Store;
  /** Store errors: the request passes (fail open) and the error is logged here. */
  logger: LimiterLogger;
}

/** One counting key in its window, as the store answered. */
export interface WindowState {
  /** Requests counted under the key in this window. */
  totalHits: number;
  /** Milliseconds to the window's end by the store's own clock (the whole window when the store does not say). */
  msToReset: number;
}

/**
 * One limiter's counts in its store; every limit and throttle counts through one (the key and
 * Bible limits through createWindowCounter, the invalid-key and sign-in throttles directly).
 * None rejects: a store that fails or does not answer is logged and the request passes.
 */
export interface WindowCounts {
  /** Counts one request under `key`: the state after it; undefined when the store failed. */
  add(key: string): Promise<WindowState | undefined>;
  /** The state of `key` without counting anything; undefined when nothing is counted under it, or the store failed. */
  peek(key: string): Promise<WindowState | undefined>;
  /** Takes back one request counted under `key` (it turned out not to be one the limiter counts). */
  takeBack(key: string): Promise<void>;
}

export interface WindowCounterOptions extends WindowCountsOptions {
  /** Requests allowed per window and counting key. */
  limit: number;
  /** The policy's name in `RateLimit` and `RateLimit-Policy`. */
  policyName: string;
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

/**
 * The counts of one store, initialised with the window (express-rate-limit's `init`).
 *
 * @example const counts = createWindowCounts({ windowMs: 15 * 60_000, store, logger }); const state = await counts.add(address);
 */
export function createWindowCounts({ windowMs, store, logger }: WindowCountsOptions): WindowCounts {
  initStore(store, windowMs, logger);
  const stateOf = (totalHits: number, resetTime: Date | undefined): WindowState => ({
    totalHits,
    msToReset: resetTime ? resetTime.getTime() - Date.now() : windowMs,
  });
  return {
    async add(key) {
      try {
        const { totalHits, resetTime } = await store.increment(key);
        return stateOf(totalHits, resetTime);
      } catch (error) {
        logger.error(error, 'rate-limit store error: the request passes without being counted');
        return undefined;
      }
    },
    async peek(key) {
      try {
        const info = await store.get?.(key);
        // rate-limit-redis reads an absent count as NaN: nothing counted.
        return info === undefined || Number.isNaN(info.totalHits) ? undefined : stateOf(info.totalHits, info.resetTime);
      } catch (error) {
        logger.error(error, 'rate-limit store error: the request passes without the limit');
        return undefined;
      }
    },
    async takeBack(key) {
      try {
        await store.decrement(key);
      } catch (error) {
        logger.error(error, 'rate-limit store error: a count was not taken back');
      }
    },
  };
}

/** Partition keys remembered (each one a SHA-256 spared): enough for every active key or address of a busy minute. */
const PARTITION_KEYS_KEPT = 10_000;

/**
 * The counts express-rate-limit kept when configured as before (standardHeaders draft-8, no
 * legacy headers, passOnStoreError), with the same stores, counts and bytes in every header,
 * without its per-request work that only checks its own configuration (validations, debug
 * logging, a dozen awaits): a large share of the church profile's CPU per answer. One store call
 * per request (through createWindowCounts).
 *
 * @example const counter = createWindowCounter({ windowMs: 60_000, limit: 60, policyName: '60-per-minute-per-address', store, logger });
 */
export function createWindowCounter(options: WindowCounterOptions): WindowCounter {
  const { limit } = options;
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  const policyStart = `"${options.policyName}"; q=${limit}; w=${windowSeconds}; pk=:`;
  const stateStart = `"${options.policyName}"; r=`;
  const partitionKey = partitionKeys();
  const counts = createWindowCounts(options);
  return {
    async count(key) {
      const state = await counts.add(key);
      if (!state) return undefined;
      const { totalHits } = state;
      const resetSeconds = Math.max(0, Math.ceil(state.msToReset / 1000));
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
      logger.error(error, 'rate-limit store initialisation failed'),
    );
  } catch (error) {
    logger.error(error, 'rate-limit store initialisation failed');
  }
}
