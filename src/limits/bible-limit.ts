// Per-address limit on the Bible's dynamic endpoints (range, search, passage); config.bibleRateLimitPerMinute, 0 = off.
import { ipKeyGenerator } from 'express-rate-limit';
import { problems } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
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

/** The Bible's per-address limiter; one per app (one count per request of the endpoints that declare it). */
export interface BibleLimit {
  /**
   * Counts one request from `address` (the client address as req.ip gives it). Undefined when
   * the limit is off. When Redis fails or is too slow, counted in this instance (logged as the
   * other limiters log it): an outage neither takes the Bible down nor lifts the limit.
   */
  count(address: string): Promise<LimitOutcome | undefined>;
}

/**
 * The limiter over `services.limitStores.bible` (memory, or Redis shared by instances), counting
 * with window-limiter.ts as the key limit does: the same headers as express-rate-limit with
 * `standardHeaders: 'draft-8'`. The dispatcher counts each request of an endpoint whose table entry names it.
 */
export function createBibleLimit(services: BibleLimitDependencies): BibleLimit {
  const limit = services.config.bibleRateLimitPerMinute;
  if (limit === 0) return { count: async () => undefined };
  const counter = createWindowCounter({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    policyName: bibleLimitPolicyName(limit),
    store: services.limitStores.bible,
    logger: limiterLogger(services.logger, 'bible'),
  });
  return {
    async count(address) {
      return limitOutcome(await counter.count(ipKeyGenerator(address)), (retryAfter) => problems.bibleRateLimited(limit, retryAfter));
    },
  };
}
