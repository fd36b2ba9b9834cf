// One per-address limit over a window counter: what the Bible's dynamic endpoints and /mcp each count with, on their own store.

import type { Store } from 'express-rate-limit';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Problem } from '../../build/contract/problems.ts';
import type { Logger } from '../http/logger.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';
import { createWindowCounter, type LimitOutcome, limitOutcome } from './window-limiter.ts';

/** A per-address limiter: one count per request. */
export interface AddressLimit {
  /**
   * Counts one request from `address` (the client address as req.ip gives it). Undefined when the
   * limit is off. When Redis fails or is too slow, counted in this instance (logged as the other
   * limiters log it): an outage neither takes the endpoints down nor lifts the limit.
   */
  count(address: string): Promise<LimitOutcome | undefined>;
}

/** What one per-address limit is: its allowance a minute (0 = off), names, store and refusal. */
export interface AddressLimitOptions {
  limit: number;
  /** The policy's name in the RateLimit headers. */
  policyName: string;
  /** The limiter's name in the log. */
  name: string;
  store: Store;
  logger: Logger;
  refusal(limit: number, retryAfterSeconds: number | string): Problem;
}

/** A limiter counting with window-limiter.ts per client address (as express-rate-limit's ipKeyGenerator groups IPv6), in one-minute windows. */
export function createAddressLimit({ limit, policyName, name, store, logger, refusal }: AddressLimitOptions): AddressLimit {
  if (limit === 0) return { count: async () => undefined };
  const counter = createWindowCounter({ windowMs: RATE_LIMIT_WINDOW_MS, limit, policyName, store, logger: limiterLogger(logger, name) });
  return {
    async count(address) {
      return limitOutcome(await counter.count(ipKeyGenerator(address)), (retryAfter) => refusal(limit, retryAfter));
    },
  };
}
