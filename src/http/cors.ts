// CORS preflights: which OPTIONS is one, and the headers of its 204 under a table's CORS policy.
import type { IncomingMessage } from 'node:http';
import { ALLOWED_METHODS, REQUEST_HEADERS_LIST } from '../../build/contract/http-policy.ts';
import type { CorsPolicy } from './endpoint.ts';

/**
 * A preflight: OPTIONS with Origin, Access-Control-Request-Method GET or HEAD, and any
 * Access-Control-Request-Headers a valid list of header names. Every other OPTIONS is answered
 * 405, as the spec says: a preflight for another method fails in the browser.
 */
export function isPreflight(req: IncomingMessage): boolean {
  if (req.method !== 'OPTIONS') return false;
  const { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } = req.headers;
  if (!origin || !method || !(ALLOWED_METHODS as readonly string[]).includes(method)) return false;
  return headers === undefined || headers.trim() === '' || REQUEST_HEADERS_LIST.test(headers.trim());
}

/**
 * The headers of a preflight's 204 after the policy's own: Vary (the echoed list depends on the
 * request, so a cache keeps one answer per list and method), the allowed methods and max age, and
 * the requested headers echoed.
 */
export function preflightHeaders(policy: CorsPolicy, req: IncomingMessage): string[] {
  const headers = ['Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'];
  for (const [name, value] of Object.entries(policy.preflight)) headers.push(name, value);
  const requested = req.headers['access-control-request-headers'];
  if (requested) headers.push('Access-Control-Allow-Headers', requested);
  return headers;
}
