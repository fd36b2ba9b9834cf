// The Bible's HTTP policy, shared by the service, the generated host files and the OpenAPI document: caching, CORS, methods, base URL.

/**
 * Bible responses: long and public. A build changes the text rarely (a new build is a
 * deliberate release) and revalidation with the strong ETag is cheap, so a stale copy may be
 * used for a week while it happens.
 */
export const BIBLE_CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

/**
 * On every Bible response, errors included: the Bible is meant to be called from browsers, and
 * scripts there may read the validator, the limit headers and Retry-After. Church responses
 * carry no CORS header at all (keys must not live in browsers).
 */
export const BIBLE_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Retry-After, RateLimit, RateLimit-Policy',
});

/**
 * The answer to a CORS preflight on a Bible path (OPTIONS with Origin and
 * Access-Control-Request-Method GET or HEAD), beside BIBLE_CORS_HEADERS and the requested
 * headers echoed: a browser sends one before a request with a custom header or
 * `Cache-Control: no-cache`. A day's max age (browsers cap it lower: Chromium at 2 hours).
 */
export const BIBLE_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Methods': 'GET, HEAD',
  'Access-Control-Max-Age': '86400',
});

/**
 * A valid Access-Control-Request-Headers value: header names (RFC 9110 tokens) separated by
 * commas and optional spaces. Only such a list is echoed; anything else is no preflight.
 */
export const REQUEST_HEADERS_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** The API is read-only: every path answers these methods, anything else is 405. */
export const ALLOWED_METHODS = ['GET', 'HEAD'] as const;

/** The `Allow` header of a 405. */
export const ALLOW_HEADER = ALLOWED_METHODS.join(', ');

/** Media type of every error body (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Headers of every problem response, from the service and from the static hosts alike. */
export const PROBLEM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // A problem body must never be sniffed into something a browser would render or run.
  'X-Content-Type-Options': 'nosniff',
});

/** Where the problem types are documented, under the public base URL; each type has an anchor there. */
export const PROBLEMS_PAGE_PATH = '/docs/problems';

/**
 * The service's address when none is configured: `npm start` listens on 127.0.0.1:3000. The
 * Bible build uses it too unless given `--public-url`, so that both name the same page.
 */
export const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:3000';

/**
 * Checks and normalises a public base URL (`PUBLIC_BASE_URL`, `--public-url`): absolute http or
 * https, optionally with a path prefix, no query or fragment; trailing slashes removed.
 * Throws an Error whose message says what is wrong (the caller names the setting).
 *
 * @example parsePublicBaseUrl('https://api.example.org/') // 'https://api.example.org'
 */
export function parsePublicBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`must be an absolute URL such as https://api.example.org, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`must be an http or https URL, got "${raw}"`);
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw new Error(`must have no query or fragment, got "${raw}"`);
  }
  if (url.username !== '' || url.password !== '') throw new Error('must not carry a user name or password');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
