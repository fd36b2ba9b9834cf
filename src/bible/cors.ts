// CORS on the search index files (/bible-search), which the pages app (Express) serves: the Bible's CORS headers on every answer, and its preflights.
import type { RequestHandler } from 'express';
import { BIBLE_CORS_HEADERS, BIBLE_PREFLIGHT_HEADERS } from '../../build/contract/http-policy.ts';
import { isPreflight, preflightHeaders } from '../http/cors.ts';
import type { CorsPolicy } from '../http/endpoint.ts';

/** The Bible's CORS: its endpoints (endpoints.ts) and its search index files alike. */
export const BIBLE_CORS: CorsPolicy = { headers: BIBLE_CORS_HEADERS, preflight: BIBLE_PREFLIGHT_HEADERS };

/**
 * Mounted ahead of the method guard: the CORS headers on every answer (a 405 too), and a preflight
 * answered 204 (http/cors.ts says which OPTIONS is one); every other OPTIONS goes on to the 405.
 */
export const bibleCors: RequestHandler = (req, res, next) => {
  for (const [name, value] of Object.entries(BIBLE_CORS.headers)) res.setHeader(name, value);
  if (!isPreflight(req)) return next();
  res.writeHead(204, preflightHeaders(BIBLE_CORS, req));
  res.end();
};
