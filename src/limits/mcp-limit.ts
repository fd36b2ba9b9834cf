// Per-address limit on MCP messages to /mcp; config.mcpRateLimitPerMinute, 0 = off.
import { ipKeyGenerator } from 'express-rate-limit';
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { serviceProblems } from '../http/problems.ts';
import { RATE_LIMIT_WINDOW_MS } from './key-limit.ts';
import { limiterLogger } from './limiter-logger.ts';
import type { LimitStores } from './stores.ts';
import { createWindowCounter, type LimitOutcome, limitOutcome } from './window-limiter.ts';

/** The name of the per-address policy of /mcp in the RateLimit headers. */
export const mcpLimitPolicyName = (limit: number) => `${limit}-mcp-messages-per-minute-per-address`;

/** What the limiter is made from. */
export interface McpLimitDependencies {
  config: Pick<Config, 'mcpRateLimitPerMinute'>;
  limitStores: Pick<LimitStores, 'mcp'>;
  logger: Logger;
}

/**
 * The limiter of /mcp, one count per MCP message (one HTTP request), over its own store (memory,
 * or Redis shared by instances): apart from the Bible's, so an assistant's calls and a web page's
 * ranges do not use each other's allowance. Fails open like the Bible's when its store fails.
 */
export function createMcpLimit(services: McpLimitDependencies): { count(address: string): Promise<LimitOutcome | undefined> } {
  const limit = services.config.mcpRateLimitPerMinute;
  if (limit === 0) return { count: async () => undefined };
  const counter = createWindowCounter({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    policyName: mcpLimitPolicyName(limit),
    store: services.limitStores.mcp,
    logger: limiterLogger(services.logger, 'mcp'),
  });
  return {
    async count(address) {
      return limitOutcome(await counter.count(ipKeyGenerator(address)), (retryAfter) => serviceProblems.mcpRateLimited(limit, retryAfter));
    },
  };
}
