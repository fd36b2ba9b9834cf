// The per-address throttle of failed key authentications: counts only 401s; past the limit an address's invalid keys get 429, its valid ones are still served.
import { ipKeyGenerator, type Options } from 'express-rate-limit';
import type { Problem } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { serviceProblems } from '../http/problems.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';
import type { LimitStores } from './stores.ts';

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
 * not answer lets the request have its 401 (logged by the store).
 */
export function createInvalidKeyThrottle(services: InvalidKeyThrottleDependencies): InvalidKeyThrottle {
  const limit = services.config.invalidKeyLimitPerMinute;
  const store = services.limitStores.invalidKey;
  const log = limiterLogger(services.logger, 'invalid-key');
  initStore(store, log);
  return {
    async refusalFor(client, unauthorized) {
      const address = ipKeyGenerator(client ?? 'unknown');
      try {
        const info = await store.get?.(address);
        // rate-limit-redis reads an absent count as NaN: no count.
        if (info !== undefined && info.totalHits >= limit) return serviceProblems.tooManyInvalidKeys(limit, secondsUntil(info.resetTime));
      } catch (error) {
        log.error(error, 'invalid-key throttle: store error, answering 401 without the throttle');
      }
      try {
        await store.increment(address);
      } catch (error) {
        log.error(error, 'invalid-key throttle: store error, the failure was not counted');
      }
      return unauthorized;
    },
  };
}

/** express-rate-limit initialises the stores it is given; this throttle uses its store directly, so it does. */
function initStore(store: LimitStores['invalidKey'], log: ReturnType<typeof limiterLogger>): void {
  try {
    Promise.resolve(store.init?.({ windowMs: RATE_LIMIT_WINDOW_MS } as Options)).catch((error: unknown) =>
      log.error(error, 'invalid-key throttle: store initialisation failed'),
    );
  } catch (error) {
    log.error(error, 'invalid-key throttle: store initialisation failed');
  }
}

// The store keeps its own (system) time, so Retry-After is measured against that, not the app's clock.
function secondsUntil(time: Date | undefined): number {
  if (time === undefined) return Math.ceil(RATE_LIMIT_WINDOW_MS / 1000);
  return Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000));
}
