// The paths of the document, made from the endpoint tables: each endpoint's operation, parameters, headers and every status it can answer.
import { type Problem, problems } from '../../../build/contract/problems.ts';
import {
  type DocumentText,
  type Endpoint,
  type EndpointTable,
  JSON_MEDIA_TYPE,
  type LimitName,
  type ParameterDocument,
} from '../../http/endpoint.ts';
import { serviceProblems } from '../../http/problems.ts';
import { KEY_PREFIX } from '../../keys/format.ts';
import { bibleLimitPolicyName } from '../../limits/bible-limit.ts';
import { keyLimitPolicyName, RATE_LIMIT_WINDOW_MS } from '../../limits/key-limit.ts';
import { cacheHeaders, corsHeaders, rateLimitHeaders, retryAfterHeader, wwwAuthenticateHeader } from './headers.ts';
import { problemResponse } from './problem-responses.ts';
import type { DocumentParts, Json, OpenApiConfig } from './types.ts';

/** A table of any domain, as the document reads it. */
export type AnyTable = EndpointTable<unknown, unknown>;

/** The text of a response nothing more specific describes, by status. */
const RESPONSE_TEXT: Readonly<Record<number, string>> = {
  400: 'A parameter is malformed or out of bounds; `parameter` names it.',
  401: 'No key, a key of the wrong shape, or a key that is unknown or revoked.',
  406: 'The `Accept` header asked for none of the media types this endpoint offers; `detail` lists them.',
  500: 'The service failed; the failure is logged.',
};

/** Every endpoint of `tables`, in their order: path → `{ get: operation }`. */
export function tablePaths(parts: DocumentParts, tables: readonly AnyTable[]): Json {
  const paths: Json = {};
  for (const table of tables) {
    for (const endpoint of table.endpoints) paths[endpoint.path] = { get: operation(parts, table, endpoint) };
  }
  return paths;
}

/** A limiter as the document states it, or undefined when it is off on this server. */
interface LimitDocument {
  limit: number;
  policyName: string;
  refused: Problem;
  text: string;
}

function limitDocument(name: LimitName, config: OpenApiConfig): LimitDocument | undefined {
  const windowSeconds = RATE_LIMIT_WINDOW_MS / 1000;
  if (name === 'key') {
    const limit = config.keyRateLimitPerMinute;
    return {
      limit,
      policyName: keyLimitPolicyName(limit),
      refused: serviceProblems.keyRateLimited(limit, windowSeconds),
      text: `More than ${limit} requests within a minute with this key`,
    };
  }
  const limit = config.bibleRateLimitPerMinute;
  if (limit === 0) return undefined;
  return {
    limit,
    policyName: bibleLimitPolicyName(limit),
    refused: problems.bibleRateLimited(limit, windowSeconds),
    text: `More than ${limit} range and search requests within a minute from this address`,
  };
}

function operation(parts: DocumentParts, table: AnyTable, endpoint: Endpoint<unknown, unknown>): Json {
  const { config, components } = parts;
  const { operation: about } = endpoint;
  const limits = [table.limit, endpoint.limit].flatMap((name) => (name === undefined ? [] : [limitDocument(name, config)]));
  const counted = limits.filter((limit) => limit !== undefined);
  const limitHeaders = Object.assign({}, ...counted.map((limit) => rateLimitHeaders(limit.limit, limit.policyName))) as Json;
  const cors = table.cors ? corsHeaders(table.cors.headers) : {};
  const cache = endpoint.cache ?? table.cache;
  const cacheControl = { 'Cache-Control': { schema: { type: 'string', const: cache.cacheControl } } };
  const okHeaders = {
    ...(cache.etag ? cacheHeaders(cache.cacheControl) : cacheControl),
    ...cors,
    ...limitHeaders,
    ...(about.precompressed ? encodingHeaders() : {}),
    ...(table.negotiates ? { Vary: { schema: { type: 'string', const: 'Accept' } } } : {}),
  };
  const problemHeaders = { ...cors, ...limitHeaders, ...(cache.onProblems ? cacheControl : {}) };
  const media = about.examples === undefined ? { example: documented(about.example, config) } : { examples: about.examples };
  const responses: Json = {
    '200': {
      description: about.responses?.[200] ?? about.summary,
      headers: okHeaders,
      content: { [JSON_MEDIA_TYPE]: { schema: components.ref(about.body), ...media }, ...alternativesContent(endpoint, config) },
    },
  };
  if (about.redirect) {
    responses['301'] = {
      description: about.redirect,
      headers: {
        Location: { description: 'The canonical URL of the resource, relative to this host.', schema: { type: 'string' } },
        ...cacheControl,
        ...cors,
        ...limitHeaders,
      },
    };
  }
  if (cache.etag) responses['304'] = { description: 'Not modified: If-None-Match matched the ETag.', headers: okHeaders };

  const answered: Problem[] = [...(table.problems ?? []), ...(about.problems ?? [])];
  if (table.negotiates)
    answered.push(serviceProblems.notAcceptable([JSON_MEDIA_TYPE, ...(endpoint.alternatives ?? []).map((other) => other.mediaType)]));
  // A parameter of the path that cannot be percent-decoded: the HTTP layer's own 400.
  if (endpoint.params?.length) answered.push(problems.malformedRequest(400, "Failed to decode param '%E0%A4%A'"));
  const text: Record<number, string> = {};
  if (table.key) {
    answered.push(serviceProblems.apiKeyMissing(KEY_PREFIX), serviceProblems.apiKeyMalformed(KEY_PREFIX), serviceProblems.apiKeyUnknown());
  }
  if (counted.length > 0 || table.key) {
    const reasons = counted.map((limit) => limit.text);
    answered.push(...counted.map((limit) => limit.refused));
    if (table.key) {
      reasons.push(`more than ${config.invalidKeyLimitPerMinute} requests with a missing or invalid key from this address`);
      answered.push(serviceProblems.tooManyInvalidKeys(config.invalidKeyLimitPerMinute, RATE_LIMIT_WINDOW_MS / 1000));
    }
    text[429] = `${reasons.join(', or ')}.`;
  }
  answered.push(problems.internalError());

  const statuses = [...new Set(answered.map((problem) => problem.status))].sort((a, b) => a - b);
  for (const status of statuses) {
    const examples = answered.filter((problem) => problem.status === status);
    const description =
      about.responses?.[status] ??
      documented(table.responses?.[status], config) ??
      text[status] ??
      (status === 400 && endpoint.params?.length
        ? 'A parameter is malformed or out of bounds (`parameter` names it), or the path cannot be decoded.'
        : RESPONSE_TEXT[status]);
    if (description === undefined) throw new Error(`${endpoint.path}: no text for its ${status} responses`);
    // A refused key is refused before any count: it carries no rate-limit header.
    let headers: Json = status === 401 ? { ...cors } : { ...problemHeaders };
    if (status === 429 || examples.some((problem) => problem.headers?.['Retry-After'] !== undefined)) {
      headers = {
        ...retryAfterHeader(status === 429 ? 'Seconds until the window resets.' : 'Seconds to wait before asking again.'),
        ...headers,
      };
    }
    if (examples.some((problem) => problem.headers?.['WWW-Authenticate'] !== undefined))
      headers = { ...wwwAuthenticateHeader(), ...headers };
    responses[String(status)] = problemResponse(parts, description, examples, headers);
  }

  return {
    tags: [table.tag],
    operationId: about.operationId,
    summary: about.summary,
    description: documented(about.description, config),
    security: table.key ? [{ apiKey: [] }] : [],
    parameters: [
      ...(endpoint.params ?? []).map((parameter) => parameterOf(parts, parameter.name, 'path', parameter)),
      ...endpoint.query.map((parameter) => parameterOf(parts, parameter.name, 'query', parameter, parameter.required, parameter.default)),
    ],
    responses,
    ...(table.key ? { 'x-codeSamples': keyedCodeSamples(config, endpoint) } : {}),
  };
}

/**
 * How to call a keyed endpoint: from a server, with the key from its environment (a placeholder
 * here), as curl and as fetch. Renderers that read `x-codeSamples` (Scalar, Redoc) show these in
 * place of samples that would put a key in a browser.
 */
function keyedCodeSamples(config: OpenApiConfig, endpoint: Endpoint<unknown, unknown>): Json[] {
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    String(endpoint.params?.find((parameter) => parameter.name === name)?.example ?? name),
  );
  const url = `${config.publicBaseUrl}${path}`;
  return [
    { lang: 'Shell', label: 'curl (server)', source: `curl -H "Authorization: Bearer $CHURCH_API_KEY" '${url}'` },
    {
      lang: 'JavaScript',
      label: 'fetch (server)',
      source: `// On your server (Node.js 18+), never in a browser: the key stays in the server's environment.
const response = await fetch('${url}', {
  headers: { Authorization: \`Bearer \${process.env.CHURCH_API_KEY}\` }, // ${KEY_PREFIX}…
});
if (!response.ok) throw new Error((await response.json()).detail); // problem+json
const body = await response.json();`,
    },
  ];
}

function parameterOf(
  parts: DocumentParts,
  name: string,
  where: 'path' | 'query',
  parameter: ParameterDocument,
  required = false,
  defaultValue?: unknown,
): Json {
  const schema = parameter.schema.$id === undefined ? parts.components.inline(parameter.schema) : parts.components.ref(parameter.schema);
  return {
    name,
    in: where,
    required: where === 'path' || required,
    description: documented(parameter.description, parts.config),
    schema: defaultValue === undefined ? schema : { ...schema, default: defaultValue },
    ...(parameter.example === undefined ? {} : { example: parameter.example }),
  };
}

/** A text or example that quotes this server's settings, read with them. */
function documented<T>(value: T | ((settings: OpenApiConfig) => T), config: OpenApiConfig): T;
function documented(value: DocumentText | undefined, config: OpenApiConfig): string | undefined;
function documented(value: unknown, config: OpenApiConfig): unknown {
  return typeof value === 'function' ? value(config) : value;
}

/**
 * The 200's other media types, chosen by Accept: a JSON one (JSON-LD) as an object, a text one
 * (iCalendar) as a string, each with its real example.
 */
function alternativesContent(endpoint: Endpoint<unknown, unknown>, config: OpenApiConfig): Json {
  const content: Json = {};
  for (const other of endpoint.alternatives ?? []) {
    const isJson = other.mediaType.endsWith('+json');
    content[other.mediaType] = {
      schema: isJson ? { type: 'object', description: other.description } : { type: 'string', description: other.description },
      example: documented(other.example, config),
    };
  }
  return content;
}

/** A file of the tree is sent in the best stored encoding the client accepts. */
function encodingHeaders(): Json {
  return {
    Vary: { schema: { type: 'string', const: 'Accept-Encoding' } },
    'Content-Encoding': {
      description: 'When the client accepts it: the precompressed file.',
      schema: { type: 'string', enum: ['br', 'gzip'] },
    },
  };
}
