// Per-address limit on the Bible's dynamic endpoints (range, search, passage); config.bibleRateLimitPerMinute, 0 = off.
import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { problems } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';
import type { LimitStores } from './stores.ts';
import { createWindowCounter, type LimitOutcome, limitOutcome } from './window-limiter.ts';

/** The name of the per-address policy in the RateLimit headers (also quoted by the OpenAPI document). */
export const bibleLimitPolicyName = (limit: number) => `${limit}-per-minute-per-address`;

/** What the limiter is made from. */
export interface BibleLimitDependencies {
  config: Pick<Config, 'bibleRateLimitPerMinute'>;
  limitStores: Pick<LimitStores, 'bible'>;
  logger: Logger;
}

/** The Bible's per-address limiter; one per app, shared by the Express routes and the fast path (one count per request). */
export interface BibleLimit {
  /**
   * Counts one request from `address` (the client address as req.ip gives it). Undefined when
   * the limit is off or its store failed (the request passes, as a Redis outage must not take the
   * Bible down; the failure is logged as the other limiters log theirs).
   */
  count(address: string): Promise<LimitOutcome | undefined>;
}

/**
 * The limiter over `services.limitStores.bible` (memory, or Redis shared by instances), counting
 * with window-limiter.ts as the key limit does: the same headers as express-rate-limit with
 * `standardHeaders: 'draft-8'`. A counter rather than middleware, so that handlers outside
 * Express (src/bible/fast-path.ts) count with the same store and the same rules.
 */
export function createBibleLimit(services: BibleLimitDependencies): BibleLimit {
  const limit = services.config.bibleRateLimitPerMinute;
  if (limit === 0) return { count: async () => undefined };
  const counter = createWindowCounter({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    policyName: bibleLimitPolicyName(limit),
    store: services.limitStores.bible,
    // The Bible is public and cheap to serve from the static tree: a Redis outage must not take it down.
    logger: limiterLogger(services.logger, 'bible'),
  });
  return {
    async count(address) {
      return limitOutcome(await counter.count(ipKeyGenerator(address)), (retryAfter) => problems.bibleRateLimited(limit, retryAfter));
    },
  };
}

/**
 * The limiter as Express middleware (search and passage, and the ranges Express answers): the
 * headers set, then the route, or the 429 problem through the error handler.
 */
export function bibleLimitMiddleware(bibleLimit: BibleLimit): RequestHandler {
  return (req, res, next) => {
    bibleLimit.count(req.ip ?? 'unknown').then((outcome) => {
      for (const [header, value] of outcome?.headers ?? []) res.setHeader(header, value);
      next(outcome?.refused ? new ApiError(outcome.refused) : undefined);
    }, next);
  };
}
