// The church operations (endpoints 1-8): behind a key, rate-limited per key, private caching; every status each can answer.
import type { TSchema } from '@sinclair/typebox';
import { type Problem, problems } from '../../../build/contract/problems.ts';
import { LIBRARY_TYPES } from '../../church/records.ts';
import {
  AlbumListSchema,
  ChurchSchema,
  EventListSchema,
  LibraryItemPageSchema,
  LiveStatusSchema,
  MAX_EVENTS,
  PhotoListSchema,
  PostPageSchema,
  ProductListSchema,
} from '../../church/responses.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/storage-unavailable.ts';
import { CHURCH_CACHE_CONTROL } from '../../http/cache-policy.ts';
import { parsePageRequest } from '../../http/paging.ts';
import { serviceProblems } from '../../http/problems.ts';
import { KEY_PREFIX } from '../../keys/format.ts';
import { keyLimitPolicyName, RATE_LIMIT_WINDOW_MS } from '../../limits/key-limit.ts';
import { churchExamples } from './church-examples.ts';
import { cacheHeaders, rateLimitHeaders, retryAfterHeader, wwwAuthenticateHeader } from './headers.ts';
import { albumIdParameter, libraryTypeParameter, pageParameter, sizeParameter, slugParameter } from './parameters.ts';
import { problemResponse, thrownProblem } from './problem-responses.ts';
import type { DocumentParts, Json } from './types.ts';

interface ChurchOperation {
  operationId: string;
  summary: string;
  description: string;
  /** Parameters after `{slug}`. */
  parameters?: Json[];
  body: TSchema;
  example: unknown;
  /** The 400s beyond a path that cannot be decoded. */
  invalid?: Problem[];
  /** The 404s beyond an unknown church. */
  notFound?: Problem[];
}

/** Paths and operations of endpoints 1-8. */
export function churchPaths(parts: DocumentParts): Json {
  const examples = churchExamples(parts.config.publicSiteUrl);
  const paging = [thrownProblem(() => parsePageRequest({ page: '01' })), thrownProblem(() => parsePageRequest({ size: '51' }))];
  const base = '/api/public/v1/churches/{slug}';
  const path = (operation: ChurchOperation) => ({ get: churchOperation(parts, operation) });
  return {
    [base]: path({
      operationId: 'getChurch',
      summary: 'Church profile',
      description: 'The full profile of one public church.',
      body: ChurchSchema,
      example: examples.church,
    }),
    [`${base}/events`]: path({
      operationId: 'getChurchEvents',
      summary: 'Upcoming events',
      description: `Published, public events that have not ended yet in the church's own time zone (an event without an end counts as ending at its start), sorted by start then name; at most ${MAX_EVENTS}, no paging.`,
      body: EventListSchema,
      example: examples.events,
    }),
    [`${base}/posts`]: path({
      operationId: 'getChurchPosts',
      summary: 'Announcements',
      description: 'Public announcements, newest first, paged.',
      parameters: [pageParameter(), sizeParameter()],
      body: PostPageSchema,
      example: examples.posts,
      invalid: paging,
    }),
    [`${base}/live`]: path({
      operationId: 'getChurchLive',
      summary: 'Live status',
      description:
        'Whether the church is live now, on video or radio. Not live: `isLive` false. No station at all: `stationName` and `listenPage` are null.',
      body: LiveStatusSchema,
      example: examples.live,
    }),
    [`${base}/library`]: path({
      operationId: 'getChurchLibrary',
      summary: 'Library',
      description: "Books, documents and recordings, in the church's order, paged; optionally of one type.",
      parameters: [libraryTypeParameter(parts), pageParameter(), sizeParameter()],
      body: LibraryItemPageSchema,
      example: examples.library,
      invalid: [serviceProblems.unknownLibraryType(LIBRARY_TYPES), ...paging],
    }),
    [`${base}/store`]: path({
      operationId: 'getChurchStore',
      summary: 'Store',
      description:
        'Products visible on the church\'s public page, in its order. A product with variants carries its lowest price as a "starting at" price.',
      body: ProductListSchema,
      example: examples.store,
    }),
    [`${base}/gallery`]: path({
      operationId: 'getChurchAlbums',
      summary: 'Photo albums',
      description: "Public photo albums, in the church's order.",
      body: AlbumListSchema,
      example: examples.albums,
    }),
    [`${base}/gallery/{albumId}/photos`]: path({
      operationId: 'getChurchAlbumPhotos',
      summary: 'Photos of an album',
      description: 'The photos of one public album of this church, in album order.',
      parameters: [albumIdParameter()],
      body: PhotoListSchema,
      example: examples.photos,
      notFound: [serviceProblems.albumNotFound()],
    }),
  };
}

function churchOperation(parts: DocumentParts, operation: ChurchOperation): Json {
  const { keyRateLimitPerMinute: limit, invalidKeyLimitPerMinute: invalidLimit } = parts.config;
  const limitHeaders = rateLimitHeaders(limit, keyLimitPolicyName(limit));
  const cache = { ...cacheHeaders(CHURCH_CACHE_CONTROL), ...limitHeaders };
  const windowSeconds = RATE_LIMIT_WINDOW_MS / 1000;
  return {
    tags: ['Church'],
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    security: [{ apiKey: [] }],
    parameters: [slugParameter(), ...(operation.parameters ?? [])],
    responses: {
      '200': {
        description: operation.summary,
        headers: cache,
        content: { 'application/json': { schema: parts.components.ref(operation.body), example: operation.example } },
      },
      '304': { description: 'Not modified: If-None-Match matched the ETag.', headers: cache },
      '400': problemResponse(
        parts,
        'A parameter is malformed or out of bounds (`parameter` names it), or the path cannot be decoded.',
        [...(operation.invalid ?? []), problems.malformedRequest(400, "Failed to decode param '%E0%A4%A'")],
        limitHeaders,
      ),
      '401': problemResponse(
        parts,
        'No key, a key of the wrong shape, or a key that is unknown or revoked.',
        [serviceProblems.apiKeyMissing(KEY_PREFIX), serviceProblems.apiKeyMalformed(KEY_PREFIX), serviceProblems.apiKeyUnknown()],
        wwwAuthenticateHeader(),
      ),
      '404': problemResponse(
        parts,
        'No church with a public profile has this slug: an unknown church and a hidden one answer the same bytes.',
        [serviceProblems.churchNotFound(), ...(operation.notFound ?? [])],
        limitHeaders,
      ),
      '429': problemResponse(
        parts,
        `More than ${limit} requests within a minute with this key, or more than ${invalidLimit} requests with a missing or invalid key from this address.`,
        [serviceProblems.keyRateLimited(limit, windowSeconds), serviceProblems.tooManyInvalidKeys(invalidLimit, windowSeconds)],
        { ...retryAfterHeader('Seconds until the window resets.'), ...limitHeaders },
      ),
      '500': problemResponse(parts, 'The service failed; the failure is logged.', [problems.internalError()]),
      '503': problemResponse(
        parts,
        'The database cannot answer now (down, unreachable, or too slow); nothing was changed. Retry after `Retry-After`.',
        [serviceProblems.databaseUnavailable(DATABASE_RETRY_AFTER_SECONDS)],
        retryAfterHeader('Seconds to wait before retrying.'),
      ),
    },
  };
}
