// 120 requests per minute per API key on church endpoints; every request with the key counts, whatever its status.
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { serviceProblems } from '../http/problems.ts';
import { limiterLogger } from './limiter-logger.ts';
import type { LimitStores } from './stores.ts';
import { createWindowCounter, type LimitOutcome, limitOutcome } from './window-limiter.ts';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** The name of the per-key policy in the RateLimit headers (also quoted by the OpenAPI document). */
export const keyLimitPolicyName = (limit: number) => `${limit}-per-minute-per-key`;

/** What the limiter is made from. */
export interface KeyLimitDependencies {
  config: Pick<Config, 'keyRateLimitPerMinute'>;
  limitStores: Pick<LimitStores, 'key'>;
  logger: Logger;
}

/** The per-key limiter; one per app (one count per request, whatever the church path answers). */
export interface KeyLimit {
  /**
   * Counts one request of the key whose opaque rate-limit value is `rateLimitKey` (KeyAuthLocals).
   * When Redis fails or is too slow, in this instance's own count (logged): the limit then holds
   * per instance, and a Redis outage neither takes the API down nor lifts the limit.
   */
  count(rateLimitKey: string): Promise<LimitOutcome | undefined>;
}

/**
 * The limiter over `services.limitStores.key` (memory, or Redis shared by instances), counting with
 * window-limiter.ts: standard headers per draft-ietf-httpapi-ratelimit-headers-08, `RateLimit` and
 * `RateLimit-Policy`. Over the limit: 429 problem+json with Retry-After (seconds to the end of the window).
 */
export function createKeyLimit(services: KeyLimitDependencies): KeyLimit {
  const limit = services.config.keyRateLimitPerMinute;
  const counter = createWindowCounter({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    policyName: keyLimitPolicyName(limit),
    store: services.limitStores.key,
    logger: limiterLogger(services.logger, 'key'),
  });
  return {
    async count(rateLimitKey) {
      return limitOutcome(await counter.count(`key:${rateLimitKey}`), (retryAfter) => serviceProblems.keyRateLimited(limit, retryAfter));
    },
  };
}
