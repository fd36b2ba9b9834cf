// The church endpoint table: each endpoint once (path, parameters, answer, documentation), behind a key and the per-key limit; the dispatcher and the OpenAPI document are made from it.
import { Type } from '@sinclair/typebox';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/storage-unavailable.ts';
import { CHURCH_CACHE_CONTROL } from '../http/cache-policy.ts';
import { type EndpointTable, endpointOf, type PathParameter, type QueryParameter } from '../http/endpoint.ts';
import { pageParameter, singleQueryValue, sizeParameter } from '../http/paging.ts';
import { ApiError, problemThrownBy } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';
import type { ChurchAnswers } from './answers.ts';
import { churchExamples } from './examples.ts';
import { type ChurchRecord, LIBRARY_TYPES, type LibraryType } from './records.ts';
import {
  AlbumListSchema,
  ChurchSchema,
  EventListSchema,
  LibraryItemPageSchema,
  LibraryItemTypeSchema,
  LiveStatusSchema,
  MAX_EVENTS,
  PhotoListSchema,
  PostPageSchema,
  ProductListSchema,
} from './responses.ts';

/** Where the church endpoints live. */
export const CHURCH_API_PATH = '/api/public/v1/churches';

/** What the church answers are made from: one set of answers per app (the bodies it keeps are shared by every request). */
export interface ChurchDependencies {
  answers: ChurchAnswers;
}

const endpoint = endpointOf<ChurchDependencies, ChurchRecord>();

/** `{slug}` of every church path. */
const slugParameter: PathParameter = {
  name: 'slug',
  schema: Type.String(),
  example: 'grace-paris',
  description:
    "The church's slug, as in the address of its public page. An unknown slug, and a church whose profile is not public, answer the same 404.",
};

const albumIdParameter: PathParameter = {
  name: 'albumId',
  schema: Type.String(),
  example: 'paques-2026',
  description: 'An `albumId` of the gallery endpoint. An album of another church, or one that is not public, answers 404.',
};

/** The library's `type` filter, case-insensitive; undefined when absent. */
const libraryTypeParameter: QueryParameter<'type', LibraryType | undefined> = {
  name: 'type',
  schema: LibraryItemTypeSchema,
  description: 'Only items of this type; matched case-insensitively.',
  read(value) {
    const raw = singleQueryValue('type', value);
    if (raw === undefined) return undefined;
    const found = LIBRARY_TYPES.find((type) => type === raw.toUpperCase());
    if (!found) throw new ApiError(serviceProblems.unknownLibraryType(LIBRARY_TYPES));
    return found;
  },
};

const paging = [problemThrownBy(() => pageParameter.read('01', {})), problemThrownBy(() => sizeParameter.read('51', {}))];
const example = (name: keyof ReturnType<typeof churchExamples>) => (settings: { publicSiteUrl: string }) =>
  churchExamples(settings.publicSiteUrl)[name];

export const churchEndpoints: EndpointTable<ChurchDependencies, ChurchRecord> = {
  tag: 'Church',
  prefix: CHURCH_API_PATH,
  // Every request under the prefix, a path that exists or not: keyed and counted, whatever its answer.
  key: true,
  limit: 'key',
  cache: { cacheControl: CHURCH_CACHE_CONTROL, etag: true },
  // Every endpoint starts with the church: 404 when unknown or not public, before any parameter is read.
  load: ({ slug }, { answers }) => answers.church(slug),
  problems: [serviceProblems.churchNotFound(), serviceProblems.databaseUnavailable(DATABASE_RETRY_AFTER_SECONDS)],
  responses: {
    404: 'No church with a public profile has this slug: an unknown church and a hidden one answer the same bytes.',
    503: 'The database cannot answer now (down, unreachable, or too slow); nothing was changed. Retry after `Retry-After`.',
  },
  endpoints: [
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}`,
      params: [slugParameter],
      query: [],
      answer: ({ loaded }, { answers }) => answers.profile(loaded),
      operation: {
        operationId: 'getChurch',
        summary: 'Church profile',
        description: 'The full profile of one public church.',
        body: ChurchSchema,
        example: example('church'),
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/events`,
      params: [slugParameter],
      query: [],
      answer: ({ loaded }, { answers }) => answers.events(loaded),
      operation: {
        operationId: 'getChurchEvents',
        summary: 'Upcoming events',
        description: `Published, public events that have not ended yet in the church's own time zone (an event without an end counts as ending at its start), sorted by start then name; at most ${MAX_EVENTS}, no paging.`,
        body: EventListSchema,
        example: example('events'),
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/posts`,
      params: [slugParameter],
      query: [pageParameter, sizeParameter],
      answer: ({ loaded, query }, { answers }) => answers.posts(loaded, query),
      operation: {
        operationId: 'getChurchPosts',
        summary: 'Announcements',
        description: 'Public announcements, newest first, paged.',
        body: PostPageSchema,
        example: example('posts'),
        problems: paging,
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/live`,
      params: [slugParameter],
      query: [],
      answer: ({ loaded }, { answers }) => answers.live(loaded),
      operation: {
        operationId: 'getChurchLive',
        summary: 'Live status',
        description:
          'Whether the church is live now, on video or radio. Not live: `isLive` false. No station at all: `stationName` and `listenPage` are null.',
        body: LiveStatusSchema,
        example: example('live'),
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/library`,
      params: [slugParameter],
      query: [libraryTypeParameter, pageParameter, sizeParameter],
      answer: ({ loaded, query }, { answers }) => answers.library(loaded, query.type, query),
      operation: {
        operationId: 'getChurchLibrary',
        summary: 'Library',
        description: "Books, documents and recordings, in the church's order, paged; optionally of one type.",
        body: LibraryItemPageSchema,
        example: example('library'),
        problems: [serviceProblems.unknownLibraryType(LIBRARY_TYPES), ...paging],
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/store`,
      params: [slugParameter],
      query: [],
      answer: ({ loaded }, { answers }) => answers.store(loaded),
      operation: {
        operationId: 'getChurchStore',
        summary: 'Store',
        description:
          'Products visible on the church\'s public page, in its order. A product with variants carries its lowest price as a "starting at" price.',
        body: ProductListSchema,
        example: example('store'),
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/gallery`,
      params: [slugParameter],
      query: [],
      answer: ({ loaded }, { answers }) => answers.gallery(loaded),
      operation: {
        operationId: 'getChurchAlbums',
        summary: 'Photo albums',
        description: "Public photo albums, in the church's order.",
        body: AlbumListSchema,
        example: example('albums'),
      },
    }),
    endpoint({
      path: `${CHURCH_API_PATH}/{slug}/gallery/{albumId}/photos`,
      params: [slugParameter, albumIdParameter],
      query: [],
      answer: ({ loaded, params }, { answers }) => answers.photos(loaded, params.albumId),
      operation: {
        operationId: 'getChurchAlbumPhotos',
        summary: 'Photos of an album',
        description: 'The photos of one public album of this church, in album order.',
        body: PhotoListSchema,
        example: example('photos'),
        problems: [serviceProblems.albumNotFound()],
      },
    }),
  ],
};
