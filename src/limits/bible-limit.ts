// Per-address limit on the Bible's dynamic endpoints (range, search, passage); config.bibleRateLimitPerMinute, 0 = off.
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ipKeyGenerator, type Options } from 'express-rate-limit';
import { type Problem, problems } from '../../build/contract/problems.ts';
import type { AppServices } from '../app-services.ts';
import { ApiError } from '../http/problem.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';

/** The name of the per-address policy in the RateLimit headers (also quoted by the OpenAPI document). */
export const bibleLimitPolicyName = (limit: number) => `${limit}-per-minute-per-address`;

/** What counting one request decided: the rate-limit headers to send, and the 429 when the address is over its limit. */
export interface BibleLimitOutcome {
  /** `RateLimit`, `RateLimit-Policy` and, past the limit, `Retry-After`, in that order, as name/value pairs. */
  headers: [string, string][];
  /** Set past the limit: the request is refused with this problem. */
  refused?: Problem;
}

/** The Bible's per-address limiter; one per app, shared by the Express routes and the fast path (one count per request). */
export interface BibleLimit {
  /**
   * Counts one request from `address` (the client address as req.ip gives it). Undefined when
   * the limit is off or its store failed (the request passes, as a Redis outage must not take the
   * Bible down; the failure is logged as the other limiters log theirs).
   */
  count(address: string): Promise<BibleLimitOutcome | undefined>;
}

/**
 * The limiter over `services.limitStores.bible` (memory, or Redis shared by instances). It writes
 * what express-rate-limit writes with `standardHeaders: 'draft-8'` (the church limiter still uses
 * it): `RateLimit: "<policy>"; r=<remaining>; t=<seconds to reset>` and `RateLimit-Policy:
 * "<policy>"; q=<limit>; w=60; pk=:<partition key>:`, plus Retry-After past the limit. It is its
 * own code so that handlers outside Express (src/bible/fast-path.ts) count with the same store
 * and the same rules, and because a request costs one store call and no per-request hashing.
 */
export function createBibleLimit(services: Pick<AppServices, 'config' | 'limitStores' | 'logger'>): BibleLimit {
  const limit = services.config.bibleRateLimitPerMinute;
  if (limit === 0) return { count: async () => undefined };
  const store = services.limitStores.bible;
  const logger = limiterLogger(services.logger, 'bible');
  // The stores read windowMs only (express-rate-limit hands them its whole options object).
  void Promise.resolve(store.init?.({ windowMs: RATE_LIMIT_WINDOW_MS } as Options)).catch((error: unknown) =>
    logger.error(error, 'express-rate-limit: error during store initialization.'),
  );
  const name = bibleLimitPolicyName(limit);
  const windowSeconds = Math.ceil(RATE_LIMIT_WINDOW_MS / 1000);
  const policies = new Map<string, string>();
  return {
    async count(address) {
      const key = ipKeyGenerator(address);
      let totalHits: number;
      let resetTime: Date | undefined;
      try {
        ({ totalHits, resetTime } = await store.increment(key));
      } catch (error) {
        logger.error(error, 'express-rate-limit: error from store, allowing request without rate-limiting.');
        return undefined;
      }
      const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
      const headers: [string, string][] = [
        ['RateLimit', `"${name}"; r=${Math.max(limit - totalHits, 0)}; t=${resetSeconds}`],
        ['RateLimit-Policy', policyHeader(policies, key, `"${name}"; q=${limit}; w=${windowSeconds}; pk=:`)],
      ];
      if (totalHits <= limit) return { headers };
      headers.push(['Retry-After', String(resetSeconds)]);
      return { headers, refused: problems.bibleRateLimited(limit, String(resetSeconds)) };
    },
  };
}

/**
 * The limiter as Express middleware (search and passage, and the ranges Express answers): the
 * headers set, then the route, or the 429 problem through the error handler.
 */
export function bibleLimitMiddleware(bibleLimit: BibleLimit): RequestHandler {
  return (req, res, next) => {
    bibleLimit.count(req.ip ?? 'unknown').then((outcome) => {
      for (const [header, value] of outcome?.headers ?? []) res.setHeader(header, value);
      next(outcome?.refused ? new ApiError(outcome.refused) : undefined);
    }, next);
  };
}

/** Distinct addresses whose policy header is remembered: its partition key is a hash, the same for every request of an address. */
const REMEMBERED_POLICIES = 1024;

/** The RateLimit-Policy value for `key`, with its partition key (base64 of the first 12 hex digits of its SHA-256, as express-rate-limit writes it). */
function policyHeader(policies: Map<string, string>, key: string, prefix: string): string {
  let value = policies.get(key);
  if (value === undefined) {
    const partitionKey = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
    value = `${prefix}${partitionKey}:`;
    // Bounded: past the cap the map starts again (a cache of hashes, nothing is lost but the work).
    if (policies.size >= REMEMBERED_POLICIES) policies.clear();
    policies.set(key, value);
  }
  return value;
}
