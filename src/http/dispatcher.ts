// The one dispatcher on node:http: every request of the API is answered from the endpoint tables (routing, key, limits, CORS, caching, problems, access line); the pages (Express) get the rest.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import FindMyWay from 'find-my-way';
import parseUrl from 'parseurl';
import { type Problem, problems } from '../../build/contract/problems.ts';
import { type AccessRecord, accessLine, requestIdFor } from './access-log.ts';
import type { PreparedJson } from './cache.ts';
import type { TrustProxy } from './client-address.ts';
import { clientAddress } from './client-address.ts';
import { isPreflight, preflightHeaders } from './cors.ts';
import {
  type Body,
  type CachePolicy,
  type CorsPolicy,
  type Exchange as HandedExchange,
  JSON_MEDIA_TYPE,
  type LimitName,
  type QueryParameter,
  type ServedTable,
} from './endpoint.ts';
import { problemForError, writeProblem } from './errors.ts';
import type { Logger } from './logger.ts';
import { chooseMediaType } from './media-types.ts';
import { ApiError } from './problem.ts';
import { serviceProblems } from './problems.ts';
import { writeAnswer } from './respond.ts';

/** What authenticating a request's key decided (src/keys/auth.ts makes it). */
export type KeyOutcome = { refused: Problem } | { refused?: undefined; locals: { apiKeyId: number; apiKeyRateLimitKey: string } };

/** The key check of tables that need a key. */
export interface KeyCheck {
  authenticate(authorization: string | undefined, address: string | undefined): Promise<KeyOutcome>;
}

/** A limiter: one count per request; undefined when it is off or its store failed (the request passes). */
export interface Limiter {
  count(subject: string): Promise<{ headers: [string, string][]; refused?: Problem } | undefined>;
}

export interface DispatcherOptions {
  tables: readonly ServedTable[];
  /** Where the API lives: every path under it is answered here (an unknown one 404, another method 405), never by `pages`. */
  apiRoot: string;
  /** A JSON answer at a path of its own under the root: the OpenAPI document made from the tables. */
  document: { path: string; body: PreparedJson; cache: CachePolicy };
  keyCheck: KeyCheck;
  limiters: Readonly<Record<LimitName, Limiter>>;
  /** Express's compiled `trust proxy` setting, so that the address counted and logged is the one the pages see as req.ip. */
  trust: TrustProxy;
  logger: Logger;
  publicBaseUrl: string;
  /** Everything that is not the API's: the portal, /docs, the search index files (the Express app). */
  pages: RequestListener;
}

/** A table's prefix and what every request under it goes through, made once at registration. */
interface Space {
  prefix?: string;
  cors?: CorsPolicy;
  /** The CORS headers as name, value… */
  corsHeaders: readonly string[];
  key: boolean;
  limit?: LimitName;
  load?: (params: Readonly<Record<string, string>>) => unknown;
}

/** What an endpoint answers, by request. */
type Answer = (request: {
  loaded: unknown;
  query: Record<string, unknown>;
  params: Readonly<Record<string, string>>;
}) => Body | Promise<Body>;

/** The representations of an endpoint of a table that negotiates: JSON first, each with its answer. */
interface Offers {
  /** The media types, JSON first (the default). */
  types: readonly string[];
  answers: ReadonlyMap<string, Answer>;
  /** The 406 of a request that accepts none of them. */
  refused: Problem;
}

/** An endpoint as registered: everything that does not depend on the request, resolved once (fastify's way). */
interface Route {
  space: Space;
  /** The path parameters, in path order. */
  names: readonly string[];
  limit?: LimitName;
  cache: CachePolicy;
  quiet: boolean;
  /** Null when the endpoint reads no query parameter. */
  readers: readonly QueryParameter[] | null;
  /** Null when its table does not negotiate: `answer` whatever the Accept. */
  offers: Offers | null;
  answer: Answer;
  /** An exchange endpoint's (POST, its own body and answer); `answer` is then never called. */
  exchange?: (exchange: HandedExchange) => Promise<void>;
}

/** One request on its way: what its access line says, and the headers every answer to it starts with. */
interface Exchange extends AccessRecord {
  req: IncomingMessage;
  res: ServerResponse;
  /** Name, value…: the request id, the space's CORS, the limiters' headers once counted. */
  leading: string[];
  route: Route | undefined;
  /** The path parameters as matched, not yet decoded. */
  matched: Record<string, string | undefined>;
  /** The query string, without the `?`. */
  query: string;
  /** The key's opaque counting value, once authenticated. */
  countingKey?: string;
}

/**
 * Stands for `%` in the path the router is given: find-my-way percent-decodes a path before it
 * matches it, where Express (whose URLs callers know) matches literal segments as sent and decodes
 * only the parameters (`/vers%69ons` is no path; `/G%6E/1` is Gn 1). A request target cannot hold
 * a NUL (Node's parser refuses it), so the path keeps its meaning.
 */
const PERCENT_STAND_IN = '\u0000';

const EMPTY_QUERY: Record<string, unknown> = Object.freeze({});

/**
 * The request listener of the service. Routing is find-my-way, fastify's radix-tree router: one
 * lookup per request, whatever the number of endpoints; it is what fastify itself routes with, kept
 * by the same maintainers. Per request: the id and the access line, one router lookup, then what
 * the route compiled at registration says: the space's key and limiter, the path's parameters
 * decoded, the endpoint's limiter, the table's load, the query parameters read in order, the
 * answer written by the one response writer; any failure through the one error mapping and the
 * one problem writer. Paths outside the API go to `pages`, with their request id and access line.
 */
export function createDispatcher(options: DispatcherOptions): RequestListener {
  const { logger, publicBaseUrl, trust, pages, keyCheck, limiters, document } = options;
  const line = accessLine(logger);
  // Paths are matched as written: another letter case or a trailing slash is another path (404).
  const router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, maxParamLength: Number.POSITIVE_INFINITY });
  const root: Space = { prefix: options.apiRoot, corsHeaders: [], key: false };
  const spaces: Space[] = [root];
  const register = (path: string, route: Route) => router.on('GET', path.replace(/\{([^}]+)\}/g, ':$1'), noHandler, route);

  for (const { table, deps } of options.tables) {
    const { prefix, cors, limit, load } = table;
    const space: Space = {
      prefix,
      cors,
      corsHeaders: cors ? Object.entries(cors.headers).flat() : [],
      key: table.key === true,
      limit,
      load: load && ((params) => load(params, deps)),
    };
    if (prefix !== undefined) spaces.push(space);
    for (const endpoint of table.endpoints) {
      const names = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
      const declared = (endpoint.params ?? []).map((parameter) => parameter.name);
      if (names.join('/') !== declared.join('/'))
        throw new Error(`${endpoint.path}: its parameters are ${names}, its table declares ${declared}`);
      if (prefix !== undefined && !endpoint.path.startsWith(`${prefix}/`))
        throw new Error(`${endpoint.path} is not under its table's prefix ${prefix}`);
      if ((endpoint.limit ?? limit) === 'key' && !space.key) throw new Error(`${endpoint.path}: a key limit needs a key`);
      if (endpoint.alternatives?.length && !table.negotiates)
        throw new Error(`${endpoint.path}: alternatives need a table that negotiates`);
      const { query } = endpoint;
      const answer: Answer = (request) => endpoint.answer(request, deps);
      register(endpoint.path, {
        space,
        names,
        limit: endpoint.limit,
        cache: endpoint.cache ?? table.cache,
        quiet: endpoint.quiet === true,
        readers: query.length === 0 ? null : query,
        offers: table.negotiates ? offersOf(answer, endpoint.alternatives ?? [], deps) : null,
        answer,
      });
    }
    for (const endpoint of table.exchanges ?? []) {
      if ((endpoint.limit ?? limit) === 'key' && !space.key) throw new Error(`${endpoint.path}: a key limit needs a key`);
      register(endpoint.path, {
        space,
        names: [],
        limit: endpoint.limit,
        cache: table.cache,
        quiet: false,
        readers: null,
        offers: null,
        answer: () => {
          throw new Error(`${endpoint.path} is an exchange endpoint`);
        },
        exchange: (exchange) => endpoint.exchange(exchange, deps),
      });
    }
  }
  register(document.path, {
    space: root,
    names: [],
    cache: document.cache,
    quiet: false,
    readers: null,
    offers: null,
    answer: () => document.body,
  });
  // The most specific prefix first: /api/v1/bible before /api.
  spaces.sort((a, b) => (b.prefix?.length ?? 0) - (a.prefix?.length ?? 0));
  /** The space a path no endpoint matched belongs to, if any. */
  const spaceOf = (path: string) => spaces.find(({ prefix }) => prefix !== undefined && (path === prefix || path.startsWith(`${prefix}/`)));

  const refuse = (x: Exchange, problem: Problem) => writeProblem(x.req, x.res, problem, x.leading, publicBaseUrl);
  const fail = (x: Exchange, error: unknown) => {
    if (x.res.headersSent) {
      // Too late for a problem body: the client sees a cut connection, the log says why.
      logger.error({ requestId: x.requestId, path: x.url, err: error }, 'error after the response started');
      x.res.destroy();
      return;
    }
    const problem = problemForError(error, logger, { requestId: x.requestId, path: x.url });
    const cache = x.route?.cache;
    writeProblem(x.req, x.res, problem, cache?.onProblems ? [...x.leading, 'Cache-Control', cache.cacheControl] : x.leading, publicBaseUrl);
  };
  /** Runs `step`; a failure is answered through the one error mapping. */
  const attempt = (x: Exchange, step: () => void) => {
    try {
      step();
    } catch (error) {
      fail(x, error);
    }
  };
  /** Goes on with `value` now, or once it resolves: the synchronous answers (a file of the tree) make no promise. */
  const then = <T>(x: Exchange, value: T | Promise<T>, next: (resolved: T) => void) => {
    if (isPromise(value))
      value.then(
        (resolved) => attempt(x, () => next(resolved)),
        (error: unknown) => fail(x, error),
      );
    else next(value);
  };

  /** Counts the request with the limiter `limit` names; false when it is refused (and answered). */
  const count = async (x: Exchange, limit: LimitName): Promise<boolean> => {
    const outcome = await limiters[limit].count(limit === 'key' ? (x.countingKey as string) : (x.ip ?? 'unknown'));
    if (outcome === undefined) return true;
    for (const [name, value] of outcome.headers) x.leading.push(name, value);
    if (outcome.refused) refuse(x, outcome.refused);
    return outcome.refused === undefined;
  };

  /** The space's key check and limiter, for every request under it; false when it is refused (and answered). */
  const guard = async (x: Exchange, space: Space): Promise<boolean> => {
    if (space.key) {
      const outcome = await keyCheck.authenticate(x.req.headers.authorization, x.ip);
      if (outcome.refused) {
        refuse(x, outcome.refused);
        return false;
      }
      x.apiKeyId = outcome.locals.apiKeyId;
      x.countingKey = outcome.locals.apiKeyRateLimitKey;
    }
    return space.limit === undefined || count(x, space.limit);
  };

  /**
   * The answer of the representation the request's Accept chooses, with `Vary: Accept` on every
   * answer from here on (its 404s and 406 too); undefined when it accepts none (answered 406).
   */
  const negotiated = (x: Exchange, offers: Offers): Answer | undefined => {
    x.leading.push('Vary', 'Accept');
    const chosen = chooseMediaType(offers.types, x.req.headers.accept);
    if (chosen === undefined) {
      refuse(x, offers.refused);
      return undefined;
    }
    return offers.answers.get(chosen);
  };

  /** The matched endpoint: its parameters decoded, its own limiter, the table's load, the query read, the answer written. */
  const serve = (x: Exchange, path: string) =>
    attempt(x, () => {
      const route = x.route;
      if (route === undefined) return refuse(x, problems.pathNotFound(path));
      const params = decodedParameters(x.matched, route.names);
      then(x, route.limit === undefined || count(x, route.limit), (passed) => {
        if (!passed) return;
        const answer = route.offers === null ? route.answer : negotiated(x, route.offers);
        if (answer === undefined) return;
        then(x, route.space.load?.(params), (loaded) => {
          const query = route.readers === null ? EMPTY_QUERY : readQuery(route.readers, x.query);
          then(x, answer({ loaded, query, params }), (body) => then(x, writeAnswer(x.req, x.res, body, x.leading, route.cache), noHandler));
        });
      });
    });

  /** An exchange endpoint's own limiter, then the exchange handed over with the leading headers set on the response. */
  const handOver = (x: Exchange, exchange: (exchange: HandedExchange) => Promise<void>) =>
    attempt(x, () => {
      const limit = x.route?.limit;
      then(x, limit === undefined || count(x, limit), (passed) => {
        if (!passed) return;
        const { leading, res } = x;
        for (let i = 0; i < leading.length; i += 2) res.setHeader(leading[i] as string, leading[i + 1] as string);
        res.setHeader('Cache-Control', (x.route as Route).cache.cacheControl);
        then(x, exchange({ req: x.req, res, requestId: x.requestId, address: x.ip }), noHandler);
      });
    });

  return (req, res) => {
    const started = performance.now();
    const requestId = requestIdFor(req.headers['x-request-id']);
    const url = parseUrl(req);
    const path = url?.pathname ?? '';
    const found =
      path.charCodeAt(0) === 0x2f ? router.find('GET', path.includes('%') ? path.replaceAll('%', PERCENT_STAND_IN) : path) : null;
    const route = found && hasEveryParameter(found.params, (found.store as Route).names) ? (found.store as Route) : undefined;
    const x: Exchange = {
      requestId,
      method: req.method,
      url: req.url ?? '',
      ip: clientAddress(req, trust),
      started,
      quiet: route?.quiet,
      req,
      res,
      leading: [],
      route,
      matched: route ? found!.params : {},
      query: typeof url?.query === 'string' ? url.query : '',
    };
    res.on('finish', () => line(x, res.statusCode));
    const space = route ? route.space : spaceOf(path);
    if (space === undefined) {
      res.setHeader('X-Request-Id', requestId);
      pages(req, res);
      return;
    }
    x.leading = ['X-Request-Id', requestId, ...space.corsHeaders];
    const exchange = route?.exchange;
    if (exchange !== undefined) {
      if (req.method !== 'POST') return refuse(x, serviceProblems.postOnly(req.method));
      if (space.key || space.limit) then(x, guard(x, space), (passed) => passed && handOver(x, exchange));
      else handOver(x, exchange);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (space.cors && isPreflight(req)) {
        res.writeHead(204, [...x.leading, ...preflightHeaders(space.cors, req)]);
        res.end();
      } else refuse(x, problems.methodNotAllowed(req.method));
      return;
    }
    if (space.key || space.limit) then(x, guard(x, space), (passed) => passed && serve(x, path));
    else serve(x, path);
  };
}

/** The representations of an endpoint: JSON (its `answer`) first, then its alternatives in order. */
function offersOf(
  answer: Answer,
  alternatives: readonly { mediaType: string; answer: (request: Parameters<Answer>[0], deps: never) => Body | Promise<Body> }[],
  deps: unknown,
): Offers {
  const answers = new Map<string, Answer>([[JSON_MEDIA_TYPE, answer]]);
  for (const alternative of alternatives) answers.set(alternative.mediaType, (request) => alternative.answer(request, deps as never));
  const types = [...answers.keys()];
  return { types, answers, refused: serviceProblems.notAcceptable(types) };
}

/**
 * The parameters as Express gives them: percent-decoded, and a value that cannot be decoded a 400
 * naming it, in Express's own words (the first such parameter, in path order).
 */
function decodedParameters(matched: Record<string, string | undefined>, names: readonly string[]): Readonly<Record<string, string>> {
  let params = matched as Record<string, string>;
  for (const name of names) {
    const raw = params[name] as string;
    if (!raw.includes(PERCENT_STAND_IN)) continue;
    if (params === matched) params = { ...(matched as Record<string, string>) };
    const value = raw.replaceAll(PERCENT_STAND_IN, '%');
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError(problems.malformedRequest(400, `Failed to decode param '${value}'`));
    }
  }
  return params;
}

/** An empty parameter is no parameter (`/Gn/1/`, `//1`): as in Express, which needs one character at least. */
function hasEveryParameter(matched: Record<string, string | undefined>, names: readonly string[]): boolean {
  for (const name of names) if (!matched[name]) return false;
  return true;
}

/** The endpoint's query parameters, read in order from the query as Express's "simple" parser (node:querystring) reads it. */
function readQuery(readers: readonly QueryParameter[], query: string): Record<string, unknown> {
  const raw = query === '' ? EMPTY_QUERY : parseQuery(query);
  const values: Record<string, unknown> = {};
  for (const reader of readers) values[reader.name] = reader.read(raw[reader.name], values);
  return values;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function noHandler(): void {}
