// The church endpoint table: each endpoint once (path, parameters, answer, documentation), behind a key and the per-key limit; the dispatcher and the OpenAPI document are made from it.
import { Type } from '@sinclair/typebox';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/storage-unavailable.ts';
import { CHURCH_CACHE_CONTROL } from '../http/cache-policy.ts';
import { type EndpointTable, endpointOf, type PathParameter, type QueryParameter } from '../http/endpoint.ts';
import { pageParameter, singleQueryValue, sizeParameter } from '../http/paging.ts';
import { ApiError, problemThrownBy } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';
import type { ChurchAnswers } from './answers.ts';
import { CALENDAR_MEDIA_TYPE, eventCalendar } from './calendar.ts';
import { churchExamples } from './examples.ts';
import { churchLinkedData, eventsLinkedData, LINKED_DATA_MEDIA_TYPE, liveLinkedData } from './linked-data.ts';
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

/** The example church as a record: its profile, and the zone the demo gives it. */
function exampleChurch(publicSiteUrl: string): ChurchRecord {
  const { publicPage: _, ...profile } = churchExamples(publicSiteUrl).church;
  return { id: 0, ...profile, timeZone: 'Europe/Paris', isPublic: true };
}

/** The examples of the other representations, made by the same functions as the answers from the JSON examples. */
const otherExamples = {
  calendar: ({ publicSiteUrl }: { publicSiteUrl: string }) =>
    eventCalendar(
      exampleChurch(publicSiteUrl),
      churchExamples(publicSiteUrl).events,
      new URL(publicSiteUrl).host,
      new Date('2026-11-20T09:00:00Z'),
    ),
  church: ({ publicSiteUrl }: { publicSiteUrl: string }) => churchLinkedData(churchExamples(publicSiteUrl).church),
  events: ({ publicSiteUrl }: { publicSiteUrl: string }) => {
    const { church, events } = churchExamples(publicSiteUrl);
    return eventsLinkedData(exampleChurch(publicSiteUrl), church, events);
  },
  live: ({ publicSiteUrl }: { publicSiteUrl: string }) => {
    const { church, live } = churchExamples(publicSiteUrl);
    return liveLinkedData(exampleChurch(publicSiteUrl), church, live);
  },
};

export const churchEndpoints: EndpointTable<ChurchDependencies, ChurchRecord> = {
  tag: 'Church',
  prefix: CHURCH_API_PATH,
  // Every request under the prefix, a path that exists or not: keyed and counted, whatever its answer.
  key: true,
  limit: 'key',
  // JSON, and for some endpoints iCalendar or schema.org JSON-LD; after the key and the limit, before the church is read.
  negotiates: true,
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
      alternatives: [
        {
          mediaType: LINKED_DATA_MEDIA_TYPE,
          answer: ({ loaded }, { answers }) => answers.profileLinkedData(loaded),
          description:
            'The profile as a schema.org `Church` (JSON-LD): name, description, url (the public page), logo, image, address (locality and country), sameAs (the website).',
          example: otherExamples.church,
        },
      ],
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
      alternatives: [
        {
          mediaType: CALENDAR_MEDIA_TYPE,
          answer: ({ loaded }, { answers }) => answers.eventsCalendar(loaded),
          description:
            "The same events as an RFC 5545 iCalendar: one VEVENT each, with a stable UID, DTSTART/DTEND in the church's IANA zone (TZID, with its VTIMEZONE), SUMMARY, DESCRIPTION, LOCATION, URL (the registration page); X-WR-CALNAME and X-WR-TIMEZONE name the calendar and its zone. Made for a subscription feed served by your own server (the key stays there).",
          example: otherExamples.calendar,
        },
        {
          mediaType: LINKED_DATA_MEDIA_TYPE,
          answer: ({ loaded }, { answers }) => answers.eventsLinkedData(loaded),
          description:
            "The same events as schema.org `Event` items of one JSON-LD graph, in the shape of Google's event rich results: dates with the UTC offset of the church's zone on that date, location with an address, offers (the registration page), organizer (the church).",
          example: otherExamples.events,
        },
      ],
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
      alternatives: [
        {
          mediaType: LINKED_DATA_MEDIA_TYPE,
          answer: ({ loaded }, { answers }) => answers.liveLinkedData(loaded),
          description:
            'The live status as schema.org JSON-LD: while live, a `BroadcastEvent` (`isLiveBroadcast`) on the station (a `BroadcastService`); not live, the station alone; no station, an empty graph.',
          example: otherExamples.live,
        },
      ],
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
