// What an endpoint of the API is: one row of a domain's table (src/bible/endpoints.ts, src/church/endpoints.ts, src/health/endpoints.ts), from which routing, documentation and host rules are made.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import type { Problem } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { PreparedJson, PreparedText } from './cache.ts';
import type { DiskFile, StoredFile } from './representations.ts';

/** A permanent redirect to the one URL of the resource asked for under another name (`Location` relative to the host). */
export interface Redirect {
  kind: 'redirect';
  location: string;
}

/** What an answer sends: a JSON (or other text) body serialised and tagged, a file held in memory (its stored encodings), a file streamed from disk, or a redirect. */
export type Body = PreparedJson | PreparedText | StoredFile | DiskFile | Redirect;

/** The media type of every endpoint's main answer: the default of content negotiation. */
export const JSON_MEDIA_TYPE = 'application/json';

/** How an answer may be kept by clients and caches. */
export interface CachePolicy {
  /** Cache-Control of the answer and of its 304. */
  cacheControl: string;
  /** A strong ETag per representation, and 304 on a matching If-None-Match; off for answers true only for the instant they were made. */
  etag: boolean;
  /** Sent on problems too: a probe's `no-store` must keep its 503 out of caches as much as its 200. */
  onProblems?: boolean;
}

/** CORS of every answer under a table's prefix (problems, unknown paths and refused methods included), and of its preflights. */
export interface CorsPolicy {
  headers: Readonly<Record<string, string>>;
  /** The answer to a preflight (OPTIONS with Origin and Access-Control-Request-Method GET or HEAD), beside the requested headers echoed. */
  preflight: Readonly<Record<string, string>>;
}

/**
 * Who is counted: `key` per API key (the table needs a key), `address` per client address. The
 * composition root gives the dispatcher one limiter of each (src/limits/).
 */
export type LimitName = 'key' | 'address' | 'mcp';

/** The settings an endpoint's documentation quotes (figures and addresses of this server). */
export type DocumentSettings = Pick<
  Config,
  | 'publicBaseUrl'
  | 'publicSiteUrl'
  | 'keyRateLimitPerMinute'
  | 'invalidKeyLimitPerMinute'
  | 'bibleRateLimitPerMinute'
  | 'mcpRateLimitPerMinute'
  | 'biblePassageMaxVerses'
>;

/** A text of the documentation, or one that quotes this server's settings. */
export type DocumentText = string | ((settings: DocumentSettings) => string);

/** A parameter as the OpenAPI document shows it. */
export interface ParameterDocument {
  /** Its values; a schema with a `$id` becomes a component. */
  schema: TSchema;
  description: DocumentText;
  example?: unknown;
}

/** A path parameter (`{abbr}` of the path template): documented here, read by the answer (a book is one of the language's, a chapter one of the book's). */
export interface PathParameter extends ParameterDocument {
  name: string;
}

/**
 * A query parameter: its documentation, and how the dispatcher reads it before the answer runs, in
 * the order the endpoint lists them. A parameter the endpoint does not list is ignored.
 */
export interface QueryParameter<Name extends string = string, Value = unknown> extends ParameterDocument {
  name: Name;
  required?: boolean;
  /** The value when it is left out, as the document states it (`read` returns it too). */
  default?: unknown;
  /**
   * The value as the answer uses it, from the query as node:querystring parses it (undefined when
   * absent, an array when repeated); a bad one throws an ApiError naming the parameter. `earlier`
   * holds the values read before it (a book is looked up in the language given).
   */
  read(raw: unknown, earlier: Readonly<Record<string, unknown>>): Value;
}

/** The values of an endpoint's query parameters, by name. */
export type QueryValues<P extends readonly QueryParameter[]> = { [K in P[number] as K['name']]: ReturnType<K['read']> };

/** What an answer is given. */
export interface EndpointRequest<Loaded, Query> {
  /** What the table's `load` found for this request (the Bible build, the church). */
  loaded: Loaded;
  query: Query;
  /** The path parameters, percent-decoded. */
  params: Readonly<Record<string, string>>;
}

/** The OpenAPI operation of an endpoint: what it is, what it answers, and the problems beyond those its table answers everywhere. */
export interface Operation {
  operationId: string;
  summary: string;
  description: DocumentText;
  /** The 200's body. */
  body: TSchema;
  /** One real answer; a function when it quotes the settings. */
  example?: unknown;
  /** Several real answers, by name. */
  examples?: Record<string, { summary: string; value: unknown }>;
  /** Problems this endpoint answers beyond its table's, by example (real problems of the catalogue): one response per status. */
  problems?: readonly Problem[];
  /** A response's text where this endpoint's differs from its table's, by status (the 200's is the summary by default). */
  responses?: Readonly<Record<number, string>>;
  /** Sent in the best stored encoding the client accepts (Vary: Accept-Encoding, Content-Encoding). */
  precompressed?: boolean;
  /** When it may answer 301 (a Redirect body): what the redirect means, for its response. */
  redirect?: string;
}

/**
 * Another representation of an endpoint's answer, chosen by `Accept` (tables that negotiate): its
 * media type, the answer that makes it, and how the OpenAPI document shows it.
 */
export interface Alternative<Deps, Loaded, Query = Record<string, unknown>> {
  /** The media type as Accept names it (`text/calendar`); the answer's Content-Type adds its charset. */
  mediaType: string;
  answer(request: EndpointRequest<Loaded, Query>, deps: Deps): Body | Promise<Body>;
  /** What this representation is, for the 200 of the OpenAPI operation. */
  description: string;
  /** One real answer: a string for a text format, a value for a JSON one; a function when it quotes the settings. */
  example: unknown;
}

/** One endpoint: GET (and HEAD) of `path`. */
export interface Endpoint<Deps, Loaded, Query = Record<string, unknown>> {
  /** The path template as the OpenAPI document writes it: `/api/v1/bible/{abbr}/{chapter}`. */
  path: string;
  /** Every `{name}` of the path, in order. */
  params?: readonly PathParameter[];
  /** The query parameters it reads, in the order they are read (the first bad one is the one answered). */
  query: readonly QueryParameter[];
  /** Counted by this limiter once its path matched (beside its table's). */
  limit?: LimitName;
  /** Its table's by default. */
  cache?: CachePolicy;
  /** Successful answers logged at debug, not info: probes come every few seconds. */
  quiet?: boolean;
  answer(request: EndpointRequest<Loaded, Query>, deps: Deps): Body | Promise<Body>;
  /** Representations beside JSON (tables that negotiate only), in the server's order of preference after JSON. */
  alternatives?: readonly Alternative<Deps, Loaded, Query>[];
  operation: Operation;
}

/** The endpoints of one domain and what they share. */
export interface EndpointTable<Deps, Loaded = undefined> {
  /** The OpenAPI tag of its operations. */
  tag: string;
  /** Every path under it is this table's: one no endpoint matches answers 404 here, with `cors`. */
  prefix?: string;
  cors?: CorsPolicy;
  /**
   * Checked for every request under the prefix, an endpoint matched or not, before its path is
   * read: an API key, and the limiter that counts it.
   */
  key?: boolean;
  limit?: LimitName;
  /**
   * Answers chosen by `Accept` (`Vary: Accept`): JSON, the default, and each endpoint's
   * `alternatives`; a type none of them matches answers 406 listing them. Checked after the key
   * and the limits (no key is 401 whatever the Accept), before `load`.
   */
  negotiates?: boolean;
  cache: CachePolicy;
  /** What every endpoint's answer needs first (a Bible build, the church the path names); its problems come before the query's. */
  load?(params: Readonly<Record<string, string>>, deps: Deps): Loaded | Promise<Loaded>;
  /** Problems any endpoint of the table may answer (documented on each), by example. */
  problems?: readonly Problem[];
  /** The text of a response by status, for every endpoint of the table. */
  responses?: Readonly<Record<number, DocumentText>>;
  endpoints: readonly Endpoint<Deps, Loaded>[];
  /** Endpoints that take a request body and write their own answer (MCP): routed, keyed, limited and logged like the others, not in OpenAPI. */
  exchanges?: readonly ExchangeEndpoint<Deps>[];
}

/** What an exchange endpoint is handed: the request, its response (the leading headers already set on it), and who sent it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** The client address, as the limits count it and the access line logs it. */
  address: string | undefined;
}

/**
 * A POST endpoint with a protocol of its own (the Model Context Protocol at /mcp): the dispatcher
 * finds it, runs its table's key check and limiter and its own limiter, answers any other method
 * 405 with `Allow: POST`, and hands the exchange over; the endpoint reads the body and writes the
 * answer. A failure before the answer has started becomes a problem like any other.
 */
export interface ExchangeEndpoint<Deps> {
  path: string;
  method: 'POST';
  limit?: LimitName;
  exchange(exchange: Exchange, deps: Deps): Promise<void>;
}

/**
 * A typed way to write a table's endpoints: `query`'s values reach the answer by name, with the
 * type each parameter's `read` returns.
 *
 * @example const endpoint = endpointOf<BibleDependencies, BibleBuild>(); endpoint({ path: '/api/v1/bible/books', query: [lang], answer: ({ query }) => … })
 */
export function endpointOf<Deps, Loaded>() {
  return <const P extends readonly QueryParameter[]>(
    definition: Omit<Endpoint<Deps, Loaded, QueryValues<P>>, 'query'> & { query: P },
  ): Endpoint<Deps, Loaded> => definition as unknown as Endpoint<Deps, Loaded>;
}

/** A table and what its answers are made from, as the dispatcher serves it. */
export interface ServedTable {
  table: EndpointTable<unknown, unknown>;
  deps: unknown;
}

/** Pairs a table with its dependencies (checked against each other here, where both types are known). */
export function served<Deps, Loaded>(table: EndpointTable<Deps, Loaded>, deps: Deps): ServedTable {
  return { table: table as unknown as EndpointTable<unknown, unknown>, deps };
}
