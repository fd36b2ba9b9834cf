// Per-address limit on MCP messages to /mcp; config.mcpRateLimitPerMinute, 0 = off.
import type { Config } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { serviceProblems } from '../http/problems.ts';
import { type AddressLimit, createAddressLimit } from './address-limit.ts';
import type { LimitStores } from './stores.ts';

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
 * ranges do not use each other's allowance. When its store fails it counts in this instance, as the Bible's does.
 */
export function createMcpLimit(services: McpLimitDependencies): AddressLimit {
  const limit = services.config.mcpRateLimitPerMinute;
  return createAddressLimit({
    limit,
    policyName: mcpLimitPolicyName(limit),
    name: 'mcp',
    store: services.limitStores.mcp,
    logger: services.logger,
    refusal: serviceProblems.mcpRateLimited,
  });
}
