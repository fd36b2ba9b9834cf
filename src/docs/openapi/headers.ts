// Response headers the document declares: caching, CORS, the rate-limit headers and Retry-After, with the service's values.
import { RATE_LIMIT_WINDOW_MS } from '../../limits/key-limit.ts';
import type { Json } from './types.ts';

const WINDOW_SECONDS = RATE_LIMIT_WINDOW_MS / 1000;

/** ETag and the exact Cache-Control of a cacheable answer (also sent with its 304). */
export function cacheHeaders(cacheControl: string): Json {
  return {
    ETag: {
      description: 'Strong validator of this representation; send it back in If-None-Match for a 304.',
      schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
    },
    'Cache-Control': { schema: { type: 'string', const: cacheControl } },
  };
}

/** The CORS headers every answer of a table with a CORS policy carries, problems included. */
export function corsHeaders(headers: Readonly<Record<string, string>>): Json {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { schema: { type: 'string', const: value } }]));
}

/**
 * `RateLimit` and `RateLimit-Policy` (IETF draft 8) of a limiter with this quota per minute, as
 * src/limits/window-limiter.ts writes them (the bytes express-rate-limit's draft-8 headers have);
 * `identifier` names the policy (keyLimitPolicyName, bibleLimitPolicyName).
 */
export function rateLimitHeaders(limit: number, identifier: string): Json {
  return {
    RateLimit: {
      description: `What is left of the quota in this window: remaining requests \`r\` and seconds to the reset \`t\`.`,
      schema: { type: 'string', examples: [`"${identifier}"; r=${limit - 1}; t=${WINDOW_SECONDS}`] },
    },
    'RateLimit-Policy': {
      description: `The quota: \`q\`=${limit} requests per window of \`w\`=${WINDOW_SECONDS} seconds.`,
      schema: { type: 'string', examples: [`"${identifier}"; q=${limit}; w=${WINDOW_SECONDS}; pk=:MTJjYTE3YjQ5YWYy:`] },
    },
  };
}

/** Seconds to wait before sending again. */
export function retryAfterHeader(description: string): Json {
  return { 'Retry-After': { description, schema: { type: 'integer', minimum: 0 } } };
}

/** The challenge of a 401: `Bearer`, or `Bearer error="invalid_token"` for a key that was given but refused. */
export function wwwAuthenticateHeader(): Json {
  return {
    'WWW-Authenticate': {
      description: '`Bearer` when no key was given the Bearer way; `Bearer error="invalid_token"` for a malformed, unknown or revoked key.',
      schema: { type: 'string', enum: ['Bearer', 'Bearer error="invalid_token"'] },
    },
  };
}
