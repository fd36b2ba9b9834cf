// Adapts the service logger to express-rate-limit's logger (configuration warnings, store errors).
import type { Logger as LimiterLogger } from 'express-rate-limit';
import type { Logger } from '../http/logger.ts';

export function limiterLogger(logger: Logger, limiter: string): LimiterLogger {
  return {
    error: (error, message) => logger.error(message ?? 'rate limiter error', { limiter, error: String(error) }),
    warn: (warning, message) => logger.warn(message ?? 'rate limiter warning', { limiter, warning: String(warning) }),
  };
}
