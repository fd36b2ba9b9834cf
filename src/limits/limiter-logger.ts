// Adapts the service logger to express-rate-limit's logger (configuration warnings, store errors).
import type { Logger as LimiterLogger } from 'express-rate-limit';
import type { Logger } from '../http/logger.ts';
import { LimitStoreUnavailable } from './bounded-store.ts';

export function limiterLogger(logger: Logger, limiter: string): LimiterLogger {
  return {
    error: (error, message) => {
      // Already reported, once per interval, by the store's outage reporter: not one more line per request.
      if (error instanceof LimitStoreUnavailable) return;
      logger.error({ limiter, err: error }, message ?? 'rate limiter error');
    },
    warn: (warning, message) => logger.warn({ limiter, warning: String(warning) }, message ?? 'rate limiter warning'),
  };
}
