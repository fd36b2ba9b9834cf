// Per-address limit on the Bible's dynamic endpoints (range, search); config.bibleRateLimitPerMinute, 0 = off.
import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { problems } from '../../build/contract/problems.ts';
import type { AppServices } from '../app-services.ts';
import { ApiError } from '../http/problem.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';
import { createWindowLimiter } from './window-limiter.ts';

/** The name of the per-address policy in the RateLimit headers (also quoted by the OpenAPI document). */
export const bibleLimitPolicyName = (limit: number) => `${limit}-per-minute-per-address`;

export function createBibleRateLimit(services: Pick<AppServices, 'config' | 'limitStores' | 'logger'>): RequestHandler {
  const limit = services.config.bibleRateLimitPerMinute;
  if (limit === 0) return (_req, _res, next) => next();
  return createWindowLimiter({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    policyName: bibleLimitPolicyName(limit),
    store: services.limitStores.bible,
    keyOf: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    // The Bible is public and cheap to serve from the static tree: a Redis outage must not take it down.
    logger: limiterLogger(services.logger, 'bible'),
    onLimited: (_req, _res, next, retryAfterSeconds) => {
      next(new ApiError(problems.bibleRateLimited(limit, String(retryAfterSeconds))));
    },
  });
}
