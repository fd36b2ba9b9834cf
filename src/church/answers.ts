// The church endpoints' answers, made once for the Express routes (routes.ts) and the fast path (fast-path.ts): each a JSON body serialised and tagged.

import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { type PreparedJson, prepareJson } from '../http/cache.ts';
import { pageEnvelope, parsePageRequest, singleQueryValue } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';
import { price } from './money.ts';
import { type ChurchRecord, LIBRARY_TYPES, type LibraryType } from './records.ts';
import type { ChurchRepository } from './repository.ts';
import {
  type Album,
  type ChurchEvent,
  type ChurchProfile,
  type LibraryItem,
  type LiveStatus,
  MAX_EVENTS,
  type Photo,
  type Post,
  type Product,
} from './responses.ts';

/** A request's query as Express's "simple" parser (node:querystring) gives it. */
export type Query = Record<string, unknown>;

/** The answers of endpoints 1-8 for a church found by `church`; problems are thrown as ApiError. */
export interface ChurchAnswers {
  /** The public church with this slug; ApiError 404 when unknown or not public (one answer for both). */
  church(slug: string): Promise<ChurchRecord>;
  profile(church: ChurchRecord): PreparedJson;
  events(church: ChurchRecord): Promise<PreparedJson>;
  posts(church: ChurchRecord, query: Query): Promise<PreparedJson>;
  live(church: ChurchRecord): Promise<PreparedJson>;
  library(church: ChurchRecord, query: Query): Promise<PreparedJson>;
  store(church: ChurchRecord): Promise<PreparedJson>;
  gallery(church: ChurchRecord): Promise<PreparedJson>;
  photos(church: ChurchRecord, albumId: string): Promise<PreparedJson>;
}

const MINUTE_MS = 60_000;

/**
 * The longest upcoming-events body kept with its church record: a few events' worth. Records are
 * bounded in number (sqlite/public-church-cache.ts), so this bounds the bytes kept beside them.
 */
const KEPT_EVENTS_MAX_CHARS = 8 * 1024;

/** What the answers are made from: the church reads, the public site's address (for links), what "now" is. */
export interface ChurchAnswersDependencies {
  churches: ChurchRepository;
  config: Pick<Config, 'publicSiteUrl'>;
  clock: Clock;
}

/**
 * One per app: the profile and upcoming-events bodies it keeps with their records are shared by
 * whichever of the routes and the fast path answers.
 */
export function createChurchAnswers(services: ChurchAnswersDependencies): ChurchAnswers {
  const { churches, config, clock } = services;
  const site = config.publicSiteUrl;
  const link = (...segments: string[]) => [site, ...segments.map(encodeURIComponent)].join('/');
  // A profile is its record's fields and the site's address: its body and ETag are made once per record the
  // repository returns. A repository that keeps records (SQLite) returns the same one until the data changes;
  // one that does not (PostgreSQL) returns a new one each time, and nothing is reused.
  const profiles = new WeakMap<ChurchRecord, PreparedJson>();
  const upcoming = new WeakMap<ChurchRecord, { minute: number; body: PreparedJson }>();

  return {
    async church(slug) {
      const church = await churches.publicChurchBySlug(slug);
      // One answer for an unknown slug and a non-public church, so the two cannot be told apart.
      if (!church) throw new ApiError(serviceProblems.churchNotFound());
      return church;
    },

    profile(church) {
      let profile = profiles.get(church);
      if (!profile) {
        profile = prepareJson(profileOf(church, link(church.slug)));
        profiles.set(church, profile);
      }
      return profile;
    },

    async events(church) {
      const now = clock.now();
      // "Upcoming" is decided to the minute (event times have no seconds): within one minute, and as long as the
      // repository returns the same record (the data unchanged), the list is the same bytes.
      const minute = Math.floor(now.getTime() / MINUTE_MS);
      const kept = upcoming.get(church);
      if (kept?.minute === minute) return kept.body;
      const events = await churches.upcomingEvents(church, now, MAX_EVENTS);
      const body: ChurchEvent[] = events.map((event) => ({
        name: event.name,
        slug: event.slug,
        description: event.description,
        startDate: event.startLocal,
        endDate: event.endLocal,
        location: event.location,
        coverImageUrl: event.coverImageUrl,
        isFree: event.isFree,
        registrationPage: event.registrationUrl ?? link(church.slug, 'events', event.slug),
      }));
      const prepared = prepareJson(body);
      if (prepared.json.length <= KEPT_EVENTS_MAX_CHARS) upcoming.set(church, { minute, body: prepared });
      return prepared;
    },

    async posts(church, query) {
      const request = parsePageRequest(query);
      const { records, totalItems } = await churches.postsPage(church.id, request);
      // Fields are listed one by one, never spread: a record field added later must not leak into responses.
      const items: Post[] = records.map((post) => ({
        slug: post.slug,
        title: post.title,
        body: post.body,
        imageUrl: post.imageUrl,
        publishedAt: post.publishedAt,
        postPage: link(church.slug, 'posts', post.slug),
      }));
      return prepareJson(pageEnvelope(items, request, totalItems));
    },

    async live(church) {
      const station = await churches.liveStation(church.id);
      const body: LiveStatus = station
        ? {
            isLive: station.isLive,
            isVideo: station.isVideo,
            stationName: station.stationName,
            listenPage: station.listenUrl ?? link(church.slug, 'live'),
          }
        : { isLive: false, isVideo: false, stationName: null, listenPage: null };
      return prepareJson(body);
    },

    async library(church, query) {
      const type = libraryType(query);
      const request = parsePageRequest(query);
      const { records, totalItems } = await churches.libraryPage(church.id, request, type);
      const items: LibraryItem[] = records.map((item) => ({
        slug: item.slug,
        type: item.type,
        title: item.title,
        author: item.author,
        description: item.description,
        coverImageUrl: item.coverImageUrl,
        isFree: item.price === null,
        price: item.price ? price(item.price) : null,
        itemPage: link(church.slug, 'library', item.slug),
      }));
      return prepareJson(pageEnvelope(items, request, totalItems));
    },

    async store(church) {
      const products = await churches.visibleProducts(church.id);
      const body: Product[] = products.map((product) => ({
        slug: product.slug,
        name: product.name,
        description: product.description,
        imageUrl: product.imageUrl,
        price: price(product.price),
        priceIsStartingAt: product.priceIsStartingAt,
        variants: product.variants.map((variant) => ({ name: variant.name, price: price(variant.price) })),
        productPage: link(church.slug, 'store', product.slug),
      }));
      return prepareJson(body);
    },

    async gallery(church) {
      const albums = await churches.publicAlbums(church.id);
      const body: Album[] = albums.map((album) => ({
        albumId: album.albumId,
        title: album.title,
        description: album.description,
        date: album.date,
        photoCount: album.photoCount,
        coverUrl: album.coverUrl,
        albumPage: link(church.slug, 'gallery', album.albumId),
      }));
      return prepareJson(body);
    },

    async photos(church, albumId) {
      const photos = await churches.publicAlbumPhotos(church.id, albumId);
      if (!photos) throw new ApiError(serviceProblems.albumNotFound());
      const body: Photo[] = photos.map((photo) => ({
        url: photo.url,
        thumbnailUrl: photo.thumbnailUrl,
        caption: photo.caption,
        width: photo.width,
        height: photo.height,
      }));
      return prepareJson(body);
    },
  };
}

/** The profile of a church: its public fields, listed one by one (a record field added later must not leak). */
function profileOf(church: ChurchRecord, publicPage: string): ChurchProfile {
  return {
    slug: church.slug,
    name: church.name,
    bio: church.bio,
    denomination: church.denomination,
    logoUrl: church.logoUrl,
    coverImageUrl: church.coverImageUrl,
    city: church.city,
    country: church.country,
    language: church.language,
    website: church.website,
    publicPage,
  };
}

/** The library's `type` filter, case-insensitive; undefined when absent. */
function libraryType(query: Query): LibraryType | undefined {
  const raw = singleQueryValue(query, 'type');
  if (raw === undefined) return undefined;
  const found = LIBRARY_TYPES.find((type) => type === raw.toUpperCase());
  if (!found) throw new ApiError(serviceProblems.unknownLibraryType(LIBRARY_TYPES));
  return found;
}
