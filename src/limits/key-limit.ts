// 120 requests per minute per API key on church endpoints; every request with the key counts, whatever its status.
import type { RequestHandler, Response } from 'express';
import { problems } from '../../build/contract/problems.ts';
import type { AppServices } from '../app-services.ts';
import { ApiError } from '../http/problem.ts';
import { limiterLogger } from './limiter-logger.ts';
import { createWindowLimiter } from './window-limiter.ts';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** The name of the per-key policy in the RateLimit headers (also quoted by the OpenAPI document). */
export const keyLimitPolicyName = (limit: number) => `${limit}-per-minute-per-key`;

/**
 * The per-key limiter; mount it after createKeyAuth, which sets res.locals.apiKeyRateLimitKey.
 * Standard headers per draft-ietf-httpapi-ratelimit-headers-08: `RateLimit` and `RateLimit-Policy` (window-limiter.ts).
 * Over the limit: 429 problem+json with Retry-After (seconds to the end of the window).
 */
export function createKeyRateLimit(services: Pick<AppServices, 'config' | 'limitStores' | 'logger'>): RequestHandler {
  const limit = services.config.keyRateLimitPerMinute;
  return createWindowLimiter({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    policyName: keyLimitPolicyName(limit),
    store: services.limitStores.key,
    keyOf: (_req, res) => `key:${authenticatedKey(res)}`,
    // A Redis outage must not take the API down: the request passes and the error is logged.
    logger: limiterLogger(services.logger, 'key'),
    onLimited: (_req, _res, next, retryAfterSeconds) => {
      next(new ApiError(problems.keyRateLimited(limit, String(retryAfterSeconds))));
    },
  });
}

/** The key's opaque rate-limit value: its partition key shows in RateLimit-Policy, so it must not be the database id. */
function authenticatedKey(res: Response): string {
  const key: unknown = res.locals.apiKeyRateLimitKey;
  if (typeof key !== 'string') {
    throw new Error('createKeyRateLimit must be mounted after createKeyAuth (res.locals.apiKeyRateLimitKey is not set).');
  }
  return key;
}
