// Per-address limit on the Bible's dynamic endpoints (range, search, passage); config.bibleRateLimitPerMinute, 0 = off.
import { problems } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { type AddressLimit, createAddressLimit } from './address-limit.ts';
import type { LimitStores } from './stores.ts';

/** The name of the per-address policy in the RateLimit headers (also quoted by the OpenAPI document). */
export const bibleLimitPolicyName = (limit: number) => `${limit}-per-minute-per-address`;

/** What the limiter is made from. */
export interface BibleLimitDependencies {
  config: Pick<Config, 'bibleRateLimitPerMinute'>;
  limitStores: Pick<LimitStores, 'bible'>;
  logger: Logger;
}

/** The Bible's per-address limiter; one per app (one count per request of the endpoints that declare it). */
export type BibleLimit = AddressLimit;

/**
 * The limiter over `services.limitStores.bible` (memory, or Redis shared by instances), counting
 * with window-limiter.ts as the key limit does: the same headers as express-rate-limit with
 * `standardHeaders: 'draft-8'`. The dispatcher counts each request of an endpoint whose table entry names it.
 */
export function createBibleLimit(services: BibleLimitDependencies): BibleLimit {
  const limit = services.config.bibleRateLimitPerMinute;
  return createAddressLimit({
    limit,
    policyName: bibleLimitPolicyName(limit),
    name: 'bible',
    store: services.limitStores.bible,
    logger: services.logger,
    refusal: problems.bibleRateLimited,
  });
}
