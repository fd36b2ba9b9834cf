// The per-address throttle of failed key authentications: counts only 401s, refuses an address only once it is over the limit.
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, type Options } from 'express-rate-limit';
import { problems } from '../../build/contract/problems.ts';
import type { AppServices } from '../app-services.ts';
import { ApiError } from '../http/problem.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';

export interface InvalidKeyThrottle {
  /** Middleware: an address over the limit gets a 429 before its key is even looked at; any other passes untouched. */
  refuseThrottled: RequestHandler;
  /** Counts one failed authentication (a 401) for the request's address; resolves once counted (or the store failed). */
  countFailure(req: Request): Promise<void>;
}

/**
 * Unlike a limiter that counts every request on arrival and takes it back when it did not
 * fail, nothing is counted for a request whose key turns out valid: bursts of valid requests,
 * however concurrent, can never trip it. The check reads the count without adding to it.
 * A store that fails or does not answer lets the request pass (logged by the store).
 */
export function createInvalidKeyThrottle(services: Pick<AppServices, 'config' | 'limitStores' | 'logger'>): InvalidKeyThrottle {
  const limit = services.config.invalidKeyLimitPerMinute;
  const store = services.limitStores.invalidKey;
  const log = limiterLogger(services.logger, 'invalid-key');
  initStore(store, log);
  const addressOf = (req: Request) => ipKeyGenerator(req.ip ?? 'unknown');

  return {
    refuseThrottled: (req, _res, next) => {
      if (!store.get) return next();
      Promise.resolve(store.get(addressOf(req)))
        .then((info) => {
          // rate-limit-redis reads an absent count as NaN: no count.
          if (info === undefined || !(info.totalHits >= limit)) return next();
          next(new ApiError(problems.tooManyInvalidKeys(limit, secondsUntil(info.resetTime))));
        })
        .catch((error: unknown) => {
          log.error(error, 'invalid-key throttle: store error, letting the request through');
          next();
        });
    },
    async countFailure(req) {
      try {
        await store.increment(addressOf(req));
      } catch (error) {
        log.error(error, 'invalid-key throttle: store error, the failure was not counted');
      }
    },
  };
}

/** express-rate-limit initialises the stores it is given; this throttle uses its store directly, so it does. */
function initStore(store: AppServices['limitStores']['invalidKey'], log: ReturnType<typeof limiterLogger>): void {
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
