// Test helper: fetch for HTTP tests that checks every response against the OpenAPI document the server serves.
import zlib from 'node:zlib';
import { type Contract, compileContract, type ObservedResponse, OPENAPI_DOCUMENT_PATH } from './openapi-contract.ts';

/** Thrown when a response is not what the document describes; its message says what differs. */
export class UndocumentedResponseError extends Error {
  override name = 'UndocumentedResponseError';
}

/** The compiled document of each origin under test, loaded on its first response. */
const contracts = new Map<string, Promise<Contract>>();

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

async function fetchDocument(origin: string): Promise<Record<string, unknown>> {
  const response = await fetch(origin + OPENAPI_DOCUMENT_PATH);
  if (response.status !== 200) {
    throw new Error(`${origin}${OPENAPI_DOCUMENT_PATH} answered ${response.status}: no document to check responses against`);
  }
  return (await response.json()) as Record<string, unknown>;
}
