// CORS on the Bible paths: its headers on every response, and the answer to a browser's preflight.
import type { RequestHandler } from 'express';
import { ALLOWED_METHODS, BIBLE_CORS_HEADERS, BIBLE_PREFLIGHT_HEADERS, REQUEST_HEADERS_LIST } from '../../build/contract/http-policy.ts';

/** Mounted by app.ts ahead of the method guard, so a 405 on a Bible path carries the CORS headers too. */
export const bibleCorsHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of Object.entries(BIBLE_CORS_HEADERS)) res.setHeader(name, value);
  next();
};

/**
 * A preflight (OPTIONS with Origin, Access-Control-Request-Method GET or HEAD, and any
 * Access-Control-Request-Headers a valid list of header names) answers 204 with the allowed
 * methods, the requested headers echoed and a max age. Every other OPTIONS goes on to the
 * method guard and its 405, as the spec says: a preflight for another method fails in the browser.
 * Mounted ahead of the method guard, after bibleCorsHeaders.
 */
export const bibleCorsPreflight: RequestHandler = (req, res, next) => {
  if (
    req.method !== 'OPTIONS' ||
    !isPreflight(req.get('origin'), req.get('access-control-request-method'), req.get('access-control-request-headers'))
  ) {
    return next();
  }
  // The echoed list depends on the request: a cache must keep one answer per list (and per method).
  res.setHeader('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  for (const [name, value] of Object.entries(BIBLE_PREFLIGHT_HEADERS)) res.setHeader(name, value);
  const requestedHeaders = req.get('access-control-request-headers');
  if (requestedHeaders) res.setHeader('Access-Control-Allow-Headers', requestedHeaders);
  res.status(204).end();
};

function isPreflight(origin: string | undefined, method: string | undefined, headers: string | undefined): boolean {
  if (!origin || !method || !(ALLOWED_METHODS as readonly string[]).includes(method)) return false;
  return headers === undefined || headers.trim() === '' || REQUEST_HEADERS_LIST.test(headers.trim());
}
