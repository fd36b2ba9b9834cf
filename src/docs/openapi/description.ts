// The document's introduction (info.description), with the figures of this server's configuration and the service's constants.

import { LANGS } from '../../../build/contract/books.ts';
import {
  ALLOW_HEADER,
  BIBLE_CACHE_CONTROL,
  BIBLE_CORS_HEADERS,
  BIBLE_PREFLIGHT_HEADERS,
  PROBLEM_CONTENT_TYPE,
  PROBLEMS_PAGE_PATH,
} from '../../../build/contract/http-policy.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../build/contract/paging.ts';
import versionManifest from '../../../data/bible-versions.json' with { type: 'json' };
import { MAX_EVENTS } from '../../church/responses.ts';
import { CHURCH_CACHE_CONTROL } from '../../http/cache-policy.ts';
import { KEY_PREFIX } from '../../keys/format.ts';
import type { OpenApiConfig } from './types.ts';

/** Markdown, as Swagger UI and generated clients' READMEs render it. */
export function documentDescription(config: OpenApiConfig): string {
  const base = config.publicBaseUrl;
  const versions = versionManifest.versions.map((version) => `\`${version.lang}\` ${version.code} (${version.name})`).join(', ');
  const bibleLimit =
    config.bibleRateLimitPerMinute > 0
      ? `Ranges and search carry a per-address limit of ${config.bibleRateLimitPerMinute} requests a minute; versions, books and chapters none.`
      : 'No Bible endpoint is rate-limited on this server.';
  return `A public, read-only HTTP API: church data behind personal API keys, and a Bible in ${LANGS.length} languages without a key. Keys are created in the [developer portal](${base}/portal/).

**Methods.** GET and HEAD answer on every path; any other method answers 405 with \`Allow: ${ALLOW_HEADER}\`, before any key check. The one exception is a browser's CORS preflight on a Bible path (OPTIONS with \`Origin\` and \`Access-Control-Request-Method: GET\` or \`HEAD\`): 204 with \`Access-Control-Allow-Methods: ${BIBLE_PREFLIGHT_HEADERS['Access-Control-Allow-Methods']}\`, the requested headers echoed in \`Access-Control-Allow-Headers\` and \`Access-Control-Max-Age: ${BIBLE_PREFLIGHT_HEADERS['Access-Control-Max-Age']}\`.

**Errors** are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`: \`type\`, \`title\`, \`status\`, \`detail\`, and \`parameter\` when a parameter is at fault). Each \`type\` is an anchor of [${PROBLEMS_PAGE_PATH}](${base}${PROBLEMS_PAGE_PATH}), which says what to do about it. Bad input answers 400 naming the parameter, never 5xx. Numbers in paths and queries are plain digits without sign or leading zeros, so each resource has one URL for caches.

**Paging** (posts, library, search): \`{ items, page, size, totalItems, totalPages }\`; \`page\` is zero-based (a page past the end is an empty 200), \`size\` 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}.

**Church endpoints** need \`Authorization: Bearer ${KEY_PREFIX}…\`, from a server, never from a browser: ${config.keyRateLimitPerMinute} requests per minute per key, every request counted whatever its status, with \`RateLimit\` and \`RateLimit-Policy\` headers and \`Retry-After\` on 429. A key's format and checksum are checked before any lookup; an address that sends more than ${config.invalidKeyLimitPerMinute} missing or invalid keys in a minute gets 429 for its missing or invalid keys for the rest of it (a valid key from it is still served). Responses are \`Cache-Control: ${CHURCH_CACHE_CONTROL}\` with a strong ETag, and carry no CORS headers. A church whose profile is not public answers exactly like an unknown one. At most ${MAX_EVENTS} upcoming events.

**Bible endpoints** need no key: ${versions}. \`lang\` defaults to \`${LANGS[0]}\`. Responses carry \`Access-Control-Allow-Origin: ${BIBLE_CORS_HEADERS['Access-Control-Allow-Origin']}\`, a strong ETag per representation and \`Cache-Control: ${BIBLE_CACHE_CONTROL}\`; versions, books and chapters are sent precompressed (br, then gzip) as Accept-Encoding allows. ${bibleLimit} Until the Bible is built on a server they answer 503 with \`Retry-After\`. Versions, books and chapters are also published as static JSON for a CDN (\`npm run build:bible\`), with nginx and \`_redirects\` rules that serve these same URLs.

**Offline.** \`versions\` lists each version's download (the whole version in one file: \`GET /api/v1/bible/download?lang=\`) with its size and the SHA-256 of the uncompressed file, so an app knows with one request whether its copy is current. A MiniSearch index of each version, for search in the browser, is at \`/bible-search/{lang}.json\`, with the same caching and CORS (format, options and term processing: \`docs/search-indexes.md\` in the repository).

**Probes** for monitors and load balancers, without a key and outside every limit, never cached: \`GET /healthz\` (the process is up) and \`GET /readyz\` (the database answers, a Bible build is loaded, Redis answers when the server uses one; 503 \`not-ready\` naming the failing checks otherwise).`;
}
