// The church endpoints' auth middleware: Bearer sk_live_ key → active key, or a 401 problem; invalid keys throttled per address.
import type { RequestHandler } from 'express';
import { type AugmentedRequest, ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { problems } from '../../build/contract/problems.ts';
import type { AppServices } from '../app-services.ts';
import { ApiError } from '../http/problem.ts';
import { RATE_LIMIT_WINDOW_MS } from '../limits/key-limit.ts';
import { limiterLogger } from '../limits/limiter-logger.ts';
import { isWellFormedKey, KEY_PREFIX } from './format.ts';

export type KeyAuthServices = Pick<AppServices, 'keys' | 'fingerprinter' | 'limitStores' | 'config' | 'logger' | 'clock'>;

/** Set on res.locals for the handlers after a successful authentication. */
export interface KeyAuthLocals {
  /** Id of the API key (never the key itself); the per-key rate limit counts by it. */
  apiKeyId: number;
  /** Owner of the key. */
  apiKeyDeveloperId: number;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Authenticates a request by `Authorization: Bearer sk_live_…`.
 * Order: per-address throttle of failed attempts, header shape, key format and checksum
 * (no database work for a malformed key), then the fingerprint lookup.
 */
export function createKeyAuth(services: KeyAuthServices): RequestHandler {
  const throttle = createInvalidKeyThrottle(services);
  const authenticate = createAuthenticate(services);
  return (req, res, next) => {
    throttle(req, res, (error?: unknown) => {
      if (error !== undefined) return next(error);
      // Called from the throttle's callback, so Express does not see this promise: forward its rejection here.
      authenticate(req, res, next).catch(next);
    });
  };
}

function createAuthenticate({ keys, fingerprinter, clock }: KeyAuthServices): (...args: Parameters<RequestHandler>) => Promise<void> {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (header === undefined || header.trim() === '') {
      return next(new ApiError(problems.apiKeyMissing(KEY_PREFIX)));
    }
    const match = BEARER.exec(header);
    if (!match) {
      return next(new ApiError(problems.authorizationNotBearer(KEY_PREFIX)));
    }
    const token = match[1];
    if (!isWellFormedKey(token)) return next(new ApiError(problems.apiKeyMalformed(KEY_PREFIX)));
    const key = await keys.activeKeyByFingerprint(fingerprinter.fingerprint(token));
    if (!key) return next(new ApiError(problems.apiKeyUnknown()));
    const locals: KeyAuthLocals = { apiKeyId: key.id, apiKeyDeveloperId: key.developerId };
    Object.assign(res.locals, locals);
    await keys.markUsed(key.id, clock.now());
    next();
  };
}

/**
 * Counts only failed authentications (401s) per client address; past the limit the
 * address gets 429 before its key is even looked at, whichever key it sends.
 */
function createInvalidKeyThrottle({ config, limitStores, logger }: KeyAuthServices): RequestHandler {
  const limit = config.invalidKeyLimitPerMinute;
  return rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    // The RateLimit headers of church responses describe the per-key limit; this one stays silent until it refuses.
    standardHeaders: false,
    legacyHeaders: false,
    store: limitStores.invalidKey,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    // Every request is counted on arrival and uncounted when it did not end in 401.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 401,
    passOnStoreError: true,
    logger: limiterLogger(logger, 'invalid-key'),
    handler: (req, _res, next) => {
      const retryAfter = secondsUntil((req as AugmentedRequest).rateLimit?.resetTime);
      next(new ApiError(problems.tooManyInvalidKeys(limit, retryAfter)));
    },
  });
}

// The limiter's store keeps its own (system) time, so Retry-After is measured against that, not the app's clock.
function secondsUntil(time: Date | undefined): number {
  if (time === undefined) return Math.ceil(RATE_LIMIT_WINDOW_MS / 1000);
  return Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000));
}
