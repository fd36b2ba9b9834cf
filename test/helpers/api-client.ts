// Test helper: fetch for HTTP tests that checks every response against the OpenAPI document the server serves.
import zlib from 'node:zlib';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/** One response as a test received it, its body already decoded (no Content-Encoding left). */
export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  /** The Content-Type header, or null when there is none. */
  contentType: string | null;
  /** The body as text; empty for HEAD, 204 and 304. */
  body: string;
}

/** Thrown when a response is not what the document describes; its message says what differs. */
export class UndocumentedResponseError extends Error {
  override name = 'UndocumentedResponseError';
}

/** Where every origin under test serves its OpenAPI document. */
export const DOCUMENT_PATH = '/api/openapi.json';

/**
 * fetch, then the response is checked against the document served by the same origin (loaded once):
 * its status must be documented for the operation, its media type must be the documented one and its
 * body must match the schema. Errors on paths that are no operation must be problem+json Problems.
 * A mismatch throws, so the test fails naming it. The response is returned unread.
 *
 * @example const response = await apiFetch(`${server.url}/api/v1/bible/versions`);
 */
export async function apiFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  const method = (init.method ?? 'GET').toUpperCase();
  const bodyless = method === 'HEAD' || response.status === 204 || response.status === 304;
  await checkResponse({
    method,
    url: String(url),
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: bodyless ? '' : await response.clone().text(),
  });
  return response;
}

/** GET (checked like apiFetch) with an optional `Authorization: Bearer <key>` and extra headers. */
export function getWithKey(url: string, key?: string, headers: Record<string, string> = {}): Promise<Response> {
  return apiFetch(url, { headers: key === undefined ? headers : { Authorization: `Bearer ${key}`, ...headers } });
}

/** Checks a response that a test received by other means (raw node:http); throws UndocumentedResponseError. */
export async function checkResponse(observed: ObservedResponse): Promise<void> {
  const url = new URL(observed.url);
  const contract = await servedContract(url.origin);
  const mismatch = contract.mismatch({ ...observed, path: url.pathname });
  if (mismatch !== undefined) {
    throw new UndocumentedResponseError(`${observed.method} ${url.pathname}${url.search} → ${observed.status}: ${mismatch}`);
  }
}

/** Decodes a body sent with Content-Encoding br or gzip (or none), for checkResponse. */
export function decodedBody(body: Buffer, contentEncoding: string | undefined): string {
  if (contentEncoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (contentEncoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/**
 * Loads the document served at `origin` now (startTestServer calls it), so that its request is
 * logged before any request of the test rather than among them.
 */
export async function loadServedDocument(origin: string): Promise<void> {
  await servedContract(origin);
}

/**
 * Checks the responses of `origin` against the document served by `documentOrigin`: for a static
 * host (nginx over the generated tree) that answers the API's URLs but serves no document itself.
 */
export function useDocumentOf(origin: string, documentOrigin: string): void {
  contracts.set(new URL(origin).origin, servedContract(new URL(documentOrigin).origin));
}

type Json = Record<string, unknown>;

interface Operation {
  /** The path template of the document, e.g. /api/v1/bible/{abbr}/{chapter}. */
  template: string;
  pattern: RegExp;
  /** Literal segments: a template with more of them is the more specific one (/search before /{abbr}). */
  literals: number;
  /** Lower-case method → documented responses by status key ('200', '4XX', 'default'). */
  methods: Map<string, Record<string, Json>>;
}

interface Contract {
  /** What differs between the response and the document, or undefined when it is described. */
  mismatch(observed: ObservedResponse & { path: string }): string | undefined;
}

const PROBLEM_MEDIA_TYPE = 'application/problem+json';
const contracts = new Map<string, Promise<Contract>>();

function servedContract(origin: string): Promise<Contract> {
  let contract = contracts.get(origin);
  if (contract === undefined) {
    contract = fetchDocument(origin).then(compileContract);
    // A failed load is not kept: the next request tries again, and reports its own error.
    contract.catch(() => contracts.delete(origin));
    contracts.set(origin, contract);
  }
  return contract;
}

async function fetchDocument(origin: string): Promise<Json> {
  const response = await fetch(origin + DOCUMENT_PATH);
  if (response.status !== 200)
    throw new Error(`${origin}${DOCUMENT_PATH} answered ${response.status}: no document to check responses against`);
  return (await response.json()) as Json;
}

function compileContract(document: Json): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  // The whole document is one schema resource, so `#/components/schemas/…` references resolve inside it.
  ajv.addSchema(document, DOCUMENT_PATH);
  const operations = operationsOf(document);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = validators.get(pointer);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${DOCUMENT_PATH}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      validators.set(pointer, validate);
    }
    return validate;
  };
  const problemPointer = '/components/schemas/Problem';

  return {
    mismatch(observed) {
      const mediaType = observed.contentType?.split(';')[0].trim().toLowerCase() ?? null;
      const operation = operations.find((candidate) => candidate.pattern.test(observed.path));
      // HEAD is answered as GET without a body (HTTP semantics): it is checked against the GET operation.
      const method = observed.method.toLowerCase() === 'head' ? 'get' : observed.method.toLowerCase();
      const responses = operation?.methods.get(method);
      if (operation === undefined || responses === undefined) return mismatchOutsideOperations(observed, mediaType);

      const statusKey = [String(observed.status), `${String(observed.status)[0]}XX`, 'default'].find((key) => key in responses);
      const where = `${method.toUpperCase()} ${operation.template}`;
      if (statusKey === undefined) {
        return `status ${observed.status} is not documented for ${where} (documented: ${Object.keys(responses).join(', ')})`;
      }
      const content = (responses[statusKey].content ?? {}) as Record<string, Json>;
      const documentedTypes = Object.keys(content);
      if (documentedTypes.length === 0) {
        return observed.body === ''
          ? undefined
          : `${where} documents no body for ${statusKey}, but one was sent: ${excerpt(observed.body)}`;
      }
      if (mediaType === null || !documentedTypes.includes(mediaType)) {
        return `Content-Type ${observed.contentType ?? '(none)'} differs from the documented ${documentedTypes.join(' or ')} for ${statusKey} of ${where}`;
      }
      if (observed.method === 'HEAD') return undefined;
      const pointer = `/paths/${escapePointer(operation.template)}/${method}/responses/${statusKey}/content/${escapePointer(mediaType)}/schema`;
      return bodyMismatch(validatorAt(pointer), observed.body, `the ${statusKey} schema of ${where}`);
    },
  };

  /** Off the documented operations (405s, /docs, unknown paths): errors must be Problems; successes under /api/ must be documented. */
  function mismatchOutsideOperations(observed: ObservedResponse & { path: string }, mediaType: string | null): string | undefined {
    if (observed.status >= 400) {
      if (mediaType !== PROBLEM_MEDIA_TYPE)
        return `an error answered with Content-Type ${observed.contentType ?? '(none)'}, not ${PROBLEM_MEDIA_TYPE}`;
      if (observed.method === 'HEAD') return undefined;
      return bodyMismatch(validatorAt(problemPointer), observed.body, 'the Problem schema');
    }
    const readsApi = observed.method === 'GET' || observed.method === 'HEAD';
    if (readsApi && observed.path.startsWith('/api/') && observed.path !== DOCUMENT_PATH) {
      return `${observed.path} answered ${observed.status} but the document has no GET operation for it`;
    }
    return undefined;
  }
}

function operationsOf(document: Json): Operation[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const operations = Object.entries(paths).map(([template, item]) => {
    const segments = template.split('/').slice(1);
    const source = segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/');
    const methods = new Map<string, Record<string, Json>>();
    for (const [method, operation] of Object.entries(item)) {
      if (['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method)) {
        methods.set(method, (operation.responses ?? {}) as Record<string, Json>);
      }
    }
    return {
      template,
      pattern: new RegExp(`^/${source}$`),
      literals: segments.filter((segment) => !segment.startsWith('{')).length,
      methods,
    };
  });
  return operations.sort((a, b) => b.literals - a.literals);
}

function bodyMismatch(validate: ValidateFunction, body: string, schemaName: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `the body is not JSON: ${excerpt(body)}`;
  }
  if (validate(parsed)) return undefined;
  return `the body does not match ${schemaName}:\n${formatErrors(validate.errors ?? [])}\nbody: ${excerpt(body)}`;
}

function formatErrors(errors: ErrorObject[]): string {
  return errors
    .slice(0, 10)
    .map((error) => `  ${error.instancePath || '(root)'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`)
    .join('\n');
}

function excerpt(body: string): string {
  return body.length > 400 ? `${body.slice(0, 400)}…` : body;
}

/** A JSON pointer token: `~` and `/` escaped (RFC 6901). */
function escapePointer(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
