// A fixed-window rate limiter over an express-rate-limit Store: one count per request, the draft-8 RateLimit headers, a 429 past the limit.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger as LimiterLogger, Options, Store } from 'express-rate-limit';

export interface WindowLimiterOptions {
  windowMs: number;
  /** Requests allowed per window and counting key. */
  limit: number;
  /** The policy's name in `RateLimit` and `RateLimit-Policy`. */
  policyName: string;
  /** Memory or Redis (bounded-store.ts); initialised here with windowMs, so one store per limiter. */
  store: Store;
  /** The counting key of a request; it may throw (a limiter mounted in the wrong place). */
  keyOf: (req: Request, res: Response) => string;
  /** Answers a request over the limit; `Retry-After` (seconds to the window's end) is already set. */
  onLimited: (req: Request, res: Response, next: NextFunction, retryAfterSeconds: number) => void;
  /** Store errors: the request passes (fail open) and the error is logged here. */
  logger: LimiterLogger;
}

/** Partition keys remembered (each one a SHA-256 spared): enough for every active key or address of a busy minute. */
const PARTITION_KEYS_KEPT = 10_000;

/**
 * The limiter express-rate-limit was configured as before (standardHeaders draft-8, no legacy
 * headers, passOnStoreError), with the same stores, counts and bytes in every header, without its
 * per-request work that only checks its own configuration (validations, debug logging, a dozen
 * awaits): a large share of the church profile's CPU per answer.
 *
 * @example router.use(createWindowLimiter({ windowMs: 60_000, limit: 120, policyName: '120-per-minute-per-key', store, keyOf, onLimited, logger }))
 */
export function createWindowLimiter(options: WindowLimiterOptions): RequestHandler {
  const { limit, store, keyOf, onLimited, logger } = options;
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  const policyStart = `"${options.policyName}"; q=${limit}; w=${windowSeconds}; pk=:`;
  const stateStart = `"${options.policyName}"; r=`;
  const partitionKey = partitionKeys();
  initStore(store, options.windowMs, logger);

  return async (req, res, next) => {
    const key = keyOf(req, res);
    let totalHits: number;
    let resetTime: Date | undefined;
    try {
      ({ totalHits, resetTime } = await store.increment(key));
    } catch (error) {
      logger.error(error, 'express-rate-limit: error from store, allowing request without rate-limiting.');
      next();
      return;
    }
    const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
    appendHeader(res, 'RateLimit', `${stateStart}${Math.max(limit - totalHits, 0)}; t=${resetSeconds}`);
    appendHeader(res, 'RateLimit-Policy', `${policyStart}${partitionKey(key)}:`);
    if (totalHits > limit) {
      res.setHeader('Retry-After', String(resetSeconds));
      onLimited(req, res, next, resetSeconds);
      return;
    }
    next();
  };
}

/**
 * The policy's partition key of a counting key, as express-rate-limit derives it:
 * base64(first 12 hex digits of its SHA-256). Remembered for the most recent keys.
 */
function partitionKeys(): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let partition = known.get(key);
    if (partition === undefined) {
      partition = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
      // Oldest first out: a Map iterates in insertion order.
      if (known.size >= PARTITION_KEYS_KEPT) known.delete(known.keys().next().value!);
      known.set(key, partition);
    }
    return partition;
  };
}

/** A second value for a header already set (two limiters on one path) is appended, as RFC 9110 lists allow. */
function appendHeader(res: Response, name: string, value: string): void {
  const previous = res.getHeader(name);
  res.setHeader(name, previous === undefined ? value : [...(Array.isArray(previous) ? previous : [String(previous)]), value]);
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
