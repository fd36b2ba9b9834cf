// Church reads answered before Express: key auth, the per-key limit, the answer of answers.ts, with the headers, problems and access line of the Express path.
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Problem } from '../../build/contract/problems.ts';
import { type PreparedJson, writePreparedJson } from '../http/cache.ts';
import { CHURCH_CACHE_CONTROL } from '../http/cache-policy.ts';
import { problemForError } from '../http/errors.ts';
import type { FrontHandler } from '../http/http-server.ts';
import { accessLogger, type Logger } from '../http/logger.ts';
import { requestIdFor } from '../http/request-log.ts';
import { writeProblem } from '../http/write-problem.ts';
import type { KeyAuthenticator } from '../keys/auth.ts';
import type { KeyLimit } from '../limits/key-limit.ts';
import type { ChurchAnswers, Query } from './answers.ts';
import type { ChurchRecord } from './records.ts';

export interface ChurchFastPathOptions {
  answers: ChurchAnswers;
  /** The key auth and key limit of the Express routes (the same throttle and counts, whichever answers). */
  keyAuth: KeyAuthenticator;
  keyLimit: KeyLimit;
  logger: Logger;
  publicBaseUrl: string;
  /** The client's address as req.ip gives it under the app's trust proxy setting (src/http/client-address.ts). */
  clientAddress: (req: IncomingMessage) => string | undefined;
}

/** One church read: the answer of a church found by its slug, given the request's query. */
type Read = (
  answers: ChurchAnswers,
  church: ChurchRecord,
  query: Query,
  segments: readonly string[],
) => PreparedJson | Promise<PreparedJson>;

/** A read and the query parameters it reads: a query with any other name goes to Express. */
interface Endpoint {
  read: Read;
  parameters: ReadonlySet<string>;
}

const PREFIX = '/api/public/v1/churches/';

const NO_PARAMETERS: ReadonlySet<string> = new Set();
const PAGE_PARAMETERS: ReadonlySet<string> = new Set(['page', 'size']);

/** The sub-resources of `/{slug}/…`, one segment each; `''` is the profile. Photos (`gallery/{albumId}/photos`) apart. */
const ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map([
  ['', { read: (answers, church) => answers.profile(church), parameters: NO_PARAMETERS }],
  ['events', { read: (answers, church) => answers.events(church), parameters: NO_PARAMETERS }],
  ['posts', { read: (answers, church, query) => answers.posts(church, query), parameters: PAGE_PARAMETERS }],
  ['live', { read: (answers, church) => answers.live(church), parameters: NO_PARAMETERS }],
  ['library', { read: (answers, church, query) => answers.library(church, query), parameters: new Set(['page', 'size', 'type']) }],
  ['store', { read: (answers, church) => answers.store(church), parameters: NO_PARAMETERS }],
  ['gallery', { read: (answers, church) => answers.gallery(church), parameters: NO_PARAMETERS }],
]);

const PHOTOS: Endpoint = {
  read: (answers, church, _query, segments) => answers.photos(church, segments[2] as string),
  parameters: NO_PARAMETERS,
};

/**
 * Path segments the fast path reads: nothing percent-encoded (Express decodes those) or empty (a
 * trailing slash, which strict routing answers 404); any other character reads the same in both.
 */
const PLAIN_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * GET and HEAD of `/api/public/v1/churches/{slug}` and of its sub-resources (events, posts, live,
 * library, store, gallery, gallery/{albumId}/photos) with the query parameters each reads,
 * answered without Express's per-request work (prototype swaps, the middleware chain, the router),
 * which cost as much as the answer itself. The answer is the Express path's own: the same key auth
 * (keys/auth.ts, with its invalid-key throttle and "last used"), the same per-key limit
 * (limits/key-limit.ts), the same answers (answers.ts) sent the same way (writePreparedJson beside
 * sendPreparedJson, writeProblem beside sendProblem, problemForError beside problemHandler), with the
 * request id and one access line with the key's id, as request-log.ts gives.
 *
 * Everything else goes to Express, untouched: other paths and methods, other query parameters,
 * encoded or empty segments.
 */
export function createChurchFastPath(options: ChurchFastPathOptions): FrontHandler {
  const { answers, keyAuth, keyLimit, logger, publicBaseUrl } = options;
  const access = accessLogger(logger);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url;
    if (url === undefined || !url.startsWith(PREFIX)) return false;
    const route = routeOf(url);
    if (!route) return false;

    const started = performance.now();
    const requestId = requestIdFor(header(req, 'x-request-id'));
    const ip = options.clientAddress(req);
    let apiKeyId: number | undefined;
    res.on('finish', () => {
      // The fields and order of request-log.ts's line; the path is the URL as sent (none of its parameters is secret-named).
      access.info(
        {
          requestId,
          method: req.method,
          path: url,
          ip,
          status: res.statusCode,
          ms: Math.trunc((performance.now() - started) * 1000) / 1000,
          ...(apiKeyId === undefined ? {} : { apiKeyId }),
        },
        'request',
      );
    });

    let leading = ['X-Request-Id', requestId];
    const refuse = (problem: Problem) => writeProblem(req, res, problem, leading, publicBaseUrl);
    const answer = async () => {
      const auth = await keyAuth.authenticate(header(req, 'authorization'), ip);
      if (auth.refused) return refuse(auth.refused);
      apiKeyId = auth.locals.apiKeyId;
      const counted = await keyLimit.count(auth.locals.apiKeyRateLimitKey);
      if (counted) leading = [...leading, ...counted.headers.flat()];
      if (counted?.refused) return refuse(counted.refused);
      const church = await answers.church(route.segments[0] as string);
      const body = await route.endpoint.read(answers, church, route.query, route.segments);
      writePreparedJson(req, res, body, CHURCH_CACHE_CONTROL, leading);
    };
    answer().catch((error: unknown) => {
      // As the app's error handler: a problem, a logged 503 for a database down, a logged 500 for the rest.
      if (res.headersSent) {
        logger.error({ requestId, path: url, err: error }, 'error after the response started');
        res.destroy();
      } else refuse(problemForError(error, logger, { requestId, path: url }));
    });
    return true;
  };
}

/** The endpoint `url` names, its path segments after the prefix and its query; undefined for Express to answer. */
function routeOf(url: string): { endpoint: Endpoint; segments: string[]; query: Query } | undefined {
  const queryAt = url.indexOf('?');
  const segments = (queryAt === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, queryAt)).split('/');
  if (!segments.every((segment) => PLAIN_SEGMENT.test(segment))) return undefined;
  let endpoint: Endpoint | undefined;
  if (segments.length <= 2) endpoint = ENDPOINTS.get(segments[1] ?? '');
  else if (segments.length === 4 && segments[1] === 'gallery' && segments[3] === 'photos') endpoint = PHOTOS;
  if (!endpoint) return undefined;
  // Read as Express reads it (node:querystring, the app's "simple" parser).
  const query: Query = queryAt === -1 ? {} : parseQuery(url.slice(queryAt + 1));
  if (!Object.keys(query).every((name) => endpoint.parameters.has(name))) return undefined;
  return { endpoint, segments, query };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
