// The per-address throttle of failed key authentications: counts only 401s; past the limit an address's invalid keys get 429, its valid ones are still served.
import { ipKeyGenerator } from 'express-rate-limit';
import type { Problem } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { serviceProblems } from '../http/problems.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';
import type { LimitStores } from './stores.ts';
import { createWindowCounts } from './window-limiter.ts';

/** What the throttle is made from. */
export interface InvalidKeyThrottleDependencies {
  config: Pick<Config, 'invalidKeyLimitPerMinute'>;
  limitStores: Pick<LimitStores, 'invalidKey'>;
  logger: Logger;
}

export interface InvalidKeyThrottle {
  /**
   * For a request about to be refused with `unauthorized` (a 401): when its address is already over
   * the limit, the 429 problem instead (not counted again); otherwise counts this failure and
   * returns `unauthorized`. A request whose key is valid never comes here, so it is never refused.
   * `address` is the client address as req.ip gives it.
   */
  refusalFor(address: string | undefined, unauthorized: Problem): Promise<Problem>;
}

/**
 * Only failures are looked at: nothing is read or counted for a request whose key turns out
 * valid, so a valid key is served whatever other requests from its address sent (decisions.md),
 * and bursts of valid requests, however concurrent, can never trip it. A store that fails or does
 * not answer lets the request have its 401 (logged by the store). Built by the composition root
 * and handed to key auth (keys/auth.ts), which sends every refusal through it.
 */
export function createInvalidKeyThrottle(services: InvalidKeyThrottleDependencies): InvalidKeyThrottle {
  const limit = services.config.invalidKeyLimitPerMinute;
  const counts = createWindowCounts({
    windowMs: RATE_LIMIT_WINDOW_MS,
    store: services.limitStores.invalidKey,
    logger: limiterLogger(services.logger, 'invalid-key'),
  });
  return {
    async refusalFor(client, unauthorized) {
      const address = ipKeyGenerator(client ?? 'unknown');
      const seen = await counts.peek(address);
      // The store keeps its own (system) time, so Retry-After is measured against that, not the app's clock.
      if (seen && seen.totalHits >= limit) return serviceProblems.tooManyInvalidKeys(limit, Math.max(1, Math.ceil(seen.msToReset / 1000)));
      await counts.add(address);
      return unauthorized;
    },
  };
}
