// Bible reads answered before Express: versions, books and chapters from the tree, verses, ranges and searches from the database, with the headers, limit and access line of the Express routes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Lang } from '../../build/contract/books.ts';
import { BIBLE_CACHE_CONTROL, BIBLE_CORS_HEADERS } from '../../build/contract/http-policy.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { type Problem, problems } from '../../build/contract/problems.ts';
import { writeJson } from '../http/cache.ts';
import type { FrontHandler } from '../http/http-server.ts';
import { accessLogger, type Logger } from '../http/logger.ts';
import { pageEnvelope } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import { requestIdFor } from '../http/request-log.ts';
import { writeProblem } from '../http/write-problem.ts';
import type { BibleLimit } from '../limits/bible-limit.ts';
import { readChapterFile } from './chapter.ts';
import { langNamed, parseSearch, type SearchParams } from './params.ts';
import { readRange } from './range.ts';
import { searchBible } from './search.ts';
import { sendStatic } from './send-static.ts';
import type { BibleBuild, BibleSource } from './source.ts';
import type { StaticFile } from './static-files.ts';

export interface BibleFastPathOptions {
  bible: BibleSource;
  /** The limiter of the Express routes (the same counts, so a request is counted once whichever answers it). */
  bibleLimit: BibleLimit;
  logger: Logger;
  publicBaseUrl: string;
  /** The client's address as req.ip gives it under the app's trust proxy setting (src/http/client-address.ts). */
  clientAddress: (req: IncomingMessage) => string | undefined;
}

/**
 * A read the fast path answers: a file of the tree, a range's body, a search to run, or the
 * problem any of them answers with (an unknown book, a Bible being rebuilt, ...); `counted`
 * reads go through the per-address limit first, as the Express routes put the limiter first.
 */
type Answer = { counted: boolean } & (
  | { kind: 'file'; file: StaticFile }
  | { kind: 'range'; json: string }
  | { kind: 'search'; build: BibleBuild; params: SearchParams }
  | { kind: 'problem'; problem: Problem }
);

/**
 * The parameters the search endpoint reads. A query with any other name goes to Express, whose
 * access line hides the values of secret-named parameters; none of these is one.
 */
const SEARCH_PARAMETERS = new Set(['q', 'lang', 'page', 'size', 'book', 'testament']);

const PREFIX = '/api/v1/bible/';

/** Path segments the fast path reads: a book abbreviation or a number, nothing percent-encoded or odd (Express gets those). */
const PLAIN_SEGMENT = /^[A-Za-z0-9]{1,10}$/;

/**
 * GET and HEAD of `/api/v1/bible/versions`, `/books`, `/{abbr}/{chapter}`, `/{abbr}/{chapter}/{verse}`
 * and `/{abbr}/{chapter}/{from}/{to}`, with no query or `?lang=` one of the five (any letter case), and of `/search`
 * with the parameters it reads (SEARCH_PARAMETERS), answered without
 * Express's per-request work (prototype swaps, the middleware chain, the router), which cost more
 * than the answer itself. The answer is the Express routes' own: the same functions read it
 * (readChapterFile, readRange, searchBible) and send it (sendStatic, and writeJson beside sendJson), with the
 * request id, the CORS headers, the per-address limit and one access line, as the middleware gives.
 *
 * A read that fails with a problem (unknown book, chapter out of range, a Bible not built, ...) is
 * answered here with the problem the routes would send, after the count for a counted read.
 * Everything else goes to Express, untouched: other paths and methods, other query parameters,
 * and unexpected errors (Express logs them and answers 500).
 */
export function createBibleFastPath(options: BibleFastPathOptions): FrontHandler {
  const access = accessLogger(options.logger);
  const cors = Object.entries(BIBLE_CORS_HEADERS).flat();
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url;
    if (url === undefined || !url.startsWith(PREFIX)) return false;
    const started = process.hrtime.bigint();
    const answer = prepare(options.bible, url);
    if (!answer) return false;

    const requestId = requestIdFor(header(req, 'x-request-id'));
    const leading = ['X-Request-Id', requestId, ...cors];
    const ip = options.clientAddress(req);
    res.on('finish', () => {
      // The fields and order of request-log.ts's line; the path is the URL as sent (its only parameter is lang).
      access.info({ requestId, method: req.method, path: url, ip, status: res.statusCode, ms: elapsedMs(started) }, 'request');
    });
    // An error no problem describes: logged and answered 500, as the app's error handler does (src/http/errors.ts).
    const fail = (error: unknown) => {
      options.logger.error({ requestId, path: url, err: error }, 'unhandled error');
      if (res.headersSent) res.destroy();
      else writeProblem(req, res, problems.internalError(), leading, options.publicBaseUrl);
    };
    try {
      if (!answer.counted) send(req, res, answer, leading, { publicBaseUrl: options.publicBaseUrl, fail });
      else {
        options.bibleLimit
          .count(ip ?? 'unknown')
          .then((outcome) => {
            const headers = outcome ? [...leading, ...outcome.headers.flat()] : leading;
            if (outcome?.refused) writeProblem(req, res, outcome.refused, headers, options.publicBaseUrl);
            else send(req, res, answer, headers, { publicBaseUrl: options.publicBaseUrl, fail });
          })
          .catch(fail);
      }
    } catch (error) {
      fail(error);
    }
    return true;
  };
}

/**
 * The answer to `url`, or undefined for Express to answer: a path or query it does not read, or an
 * error other than a problem (Express logs it and answers 500).
 */
function prepare(bible: BibleSource, url: string): Answer | undefined {
  const queryAt = url.indexOf('?');
  const segments = (queryAt === -1 ? url.slice(PREFIX.length) : url.slice(PREFIX.length, queryAt)).split('/');
  if (segments.length === 1 && segments[0] === 'search') return prepareSearch(bible, queryAt === -1 ? '' : url.slice(queryAt + 1));
  if (!segments.every((segment) => PLAIN_SEGMENT.test(segment))) return undefined;
  const lang = langOf(queryAt === -1 ? '' : url.slice(queryAt + 1));
  if (lang === undefined) return undefined;
  const [first = '', second = '', third = '', fourth = ''] = segments;
  if (segments.length === 1 && first !== 'versions' && first !== 'books') return undefined;
  if (segments.length > 4) return undefined;
  const counted = segments.length > 2;
  try {
    const build = bible.current();
    switch (segments.length) {
      case 1: {
        const file = build.files.get(first === 'versions' ? staticPaths.versions : staticPaths.books(lang));
        return file && { counted, kind: 'file', file };
      }
      case 2:
        return { counted, kind: 'file', file: readChapterFile(build, lang, first, second) };
      case 3:
        return {
          counted,
          kind: 'range',
          json: JSON.stringify(readRange(build.queries, lang, first, second, ['verse', third], ['verse', third])),
        };
      default:
        return {
          counted,
          kind: 'range',
          json: JSON.stringify(readRange(build.queries, lang, first, second, ['from', third], ['to', fourth])),
        };
    }
  } catch (error) {
    if (error instanceof ApiError) return { counted, kind: 'problem', problem: error.problem };
    return undefined;
  }
}

/** A search, its query read as Express reads it (node:querystring, the app's "simple" parser), checked as the route checks it. */
function prepareSearch(bible: BibleSource, query: string): Answer | undefined {
  const parameters = parseQuery(query);
  if (!Object.keys(parameters).every((name) => SEARCH_PARAMETERS.has(name))) return undefined;
  try {
    const build = bible.current();
    return { counted: true, kind: 'search', build, params: parseSearch(parameters) };
  } catch (error) {
    if (error instanceof ApiError) return { counted: true, kind: 'problem', problem: error.problem };
    return undefined;
  }
}

/** The language of a query that holds nothing but `lang` (fr when there is no query), else undefined. */
function langOf(query: string): Lang | undefined {
  if (query === '') return 'fr';
  if (!query.startsWith('lang=')) return undefined;
  return langNamed(query.slice('lang='.length));
}

/** Sends `answer` after `headers` (request id, CORS, and the limit's when it was counted). */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  answer: Answer,
  headers: string[],
  context: { publicBaseUrl: string; fail: (error: unknown) => void },
): void {
  if (answer.kind === 'problem') writeProblem(req, res, answer.problem, headers, context.publicBaseUrl);
  else if (answer.kind === 'range') writeJson(req, res, answer.json, BIBLE_CACHE_CONTROL, headers);
  else if (answer.kind === 'file') sendStatic(req, res, answer.file, headers);
  else {
    const { build, params } = answer;
    // References on this thread (indexed lookups); the word search on a worker: its cost depends on the text asked for.
    searchBible(build.queries, build.pool, params)
      .then(({ totalItems, items }) => {
        writeJson(req, res, JSON.stringify(pageEnvelope(items, params, totalItems)), BIBLE_CACHE_CONTROL, headers);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && !res.headersSent) writeProblem(req, res, error.problem, headers, context.publicBaseUrl);
        else context.fail(error);
      });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function elapsedMs(started: bigint): number {
  return Number((process.hrtime.bigint() - started) / 1000n) / 1000;
}
