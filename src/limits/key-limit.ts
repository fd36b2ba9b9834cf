// 120 requests per minute per API key on church endpoints; every request with the key counts, whatever its status.
import type { RequestHandler, Response } from 'express';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
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

/** The per-key limiter; one per app, shared by the Express middleware and the church fast path (one count per request). */
export interface KeyLimit {
  /**
   * Counts one request of the key whose opaque rate-limit value is `rateLimitKey` (KeyAuthLocals).
   * Undefined when the store failed: the request passes, as a Redis outage must not take the API down (logged).
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

/** The limiter as Express middleware; mount it after the key auth, which sets res.locals.apiKeyRateLimitKey. */
export function keyLimitMiddleware(keyLimit: KeyLimit): RequestHandler {
  return async (_req, res, next) => {
    const outcome = await keyLimit.count(authenticatedKey(res));
    for (const [header, value] of outcome?.headers ?? []) res.setHeader(header, value);
    next(outcome?.refused ? new ApiError(outcome.refused) : undefined);
  };
}

/** The key's opaque rate-limit value: its partition key shows in RateLimit-Policy, so it must not be the database id. */
function authenticatedKey(res: Response): string {
  const key: unknown = res.locals.apiKeyRateLimitKey;
  if (typeof key !== 'string') {
    throw new Error('keyLimitMiddleware must be mounted after the key auth (res.locals.apiKeyRateLimitKey is not set).');
  }
  return key;
}
