// The church endpoints' answers, made once per app for the endpoint table (endpoints.ts): each a JSON body serialised and tagged.
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { type PreparedJson, type PreparedText, prepareJson, prepareText } from '../http/cache.ts';
import { type PageRequest, pageEnvelope } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';
import { eventCalendar } from './calendar.ts';
import { churchLinkedData, eventsLinkedData, liveLinkedData } from './linked-data.ts';
import { price } from './money.ts';
import type { ChurchRecord, LibraryType } from './records.ts';
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

/** The answers of endpoints 1-8 for a church found by `church`; problems are thrown as ApiError. */
export interface ChurchAnswers {
  /** The public church with this slug; ApiError 404 when unknown or not public (one answer for both). */
  church(slug: string): Promise<ChurchRecord>;
  profile(church: ChurchRecord): PreparedJson;
  events(church: ChurchRecord): Promise<PreparedJson>;
  /** The upcoming events as an iCalendar (calendar.ts). */
  eventsCalendar(church: ChurchRecord): Promise<PreparedText>;
  /** The profile as a schema.org Church, the events as Event items, the live status as a BroadcastEvent (linked-data.ts). */
  profileLinkedData(church: ChurchRecord): PreparedText;
  eventsLinkedData(church: ChurchRecord): Promise<PreparedText>;
  liveLinkedData(church: ChurchRecord): Promise<PreparedText>;
  posts(church: ChurchRecord, page: PageRequest): Promise<PreparedJson>;
  live(church: ChurchRecord): Promise<PreparedJson>;
  /** The library, of one type when `type` is given. */
  library(church: ChurchRecord, type: LibraryType | undefined, page: PageRequest): Promise<PreparedJson>;
  store(church: ChurchRecord): Promise<PreparedJson>;
  gallery(church: ChurchRecord): Promise<PreparedJson>;
  photos(church: ChurchRecord, albumId: string): Promise<PreparedJson>;
}

const MINUTE_MS = 60_000;

const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';
const LINKED_DATA_CONTENT_TYPE = 'application/ld+json; charset=utf-8';

/**
 * The upcoming events of one minute, and the bodies made of them: the JSON at once, the calendar
 * and the JSON-LD when first asked (each is a few times the JSON's size at most, and kept only
 * while the JSON is under KEPT_EVENTS_MAX_BYTES).
 */
interface UpcomingEvents {
  minute: number;
  events: ChurchEvent[];
  json: PreparedJson;
  calendar?: PreparedText;
  linkedData?: PreparedText;
}

/**
 * The longest upcoming-events body kept with its church record: a few events' worth. Records are
 * bounded in number (kept-churches.ts), so this bounds the bytes kept beside them.
 */
const KEPT_EVENTS_MAX_BYTES = 8 * 1024;

/** What the answers are made from: the church reads, the public site's address (for links), what "now" is. */
export interface ChurchAnswersDependencies {
  churches: ChurchRepository;
  config: Pick<Config, 'publicSiteUrl'>;
  clock: Clock;
}

/**
 * One per app: the profile and upcoming-events bodies it keeps with their records are shared by
 * every request.
 */
export function createChurchAnswers(services: ChurchAnswersDependencies): ChurchAnswers {
  const { churches, config, clock } = services;
  const site = config.publicSiteUrl;
  const link = (...segments: string[]) => [site, ...segments.map(encodeURIComponent)].join('/');
  // A profile is its record's fields and the site's address: its body and ETag are made once per record the
  // repository returns. Both repositories keep records and return the same one until the data changes (SQLite:
  // data_version; PostgreSQL: while its change notifications are heard, else a new record each time, nothing reused).
  const profiles = new WeakMap<ChurchRecord, PreparedJson>();
  const profileLinkedData = new WeakMap<ChurchRecord, PreparedText>();
  const upcoming = new WeakMap<ChurchRecord, UpcomingEvents>();
  const siteHost = new URL(site).host;

  /** The upcoming events of the current minute, with the bodies made of them so far (kept while the JSON is small). */
  const upcomingEvents = async (church: ChurchRecord): Promise<UpcomingEvents> => {
    const now = clock.now();
    // "Upcoming" is decided to the minute (event times have no seconds): within one minute, and as long as the
    // repository returns the same record (the data unchanged), the list is the same bytes.
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    const kept = upcoming.get(church);
    if (kept?.minute === minute) return kept;
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
    const made: UpcomingEvents = { minute, events: body, json: prepareJson(body) };
    if (made.json.json.length <= KEPT_EVENTS_MAX_BYTES) upcoming.set(church, made);
    return made;
  };
  const profileBody = (church: ChurchRecord) => profileOf(church, link(church.slug));
  const liveStatus = async (church: ChurchRecord): Promise<LiveStatus> => {
    const station = await churches.liveStation(church.id);
    return station
      ? {
          isLive: station.isLive,
          isVideo: station.isVideo,
          stationName: station.stationName,
          listenPage: station.listenUrl ?? link(church.slug, 'live'),
        }
      : { isLive: false, isVideo: false, stationName: null, listenPage: null };
  };

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
        profile = prepareJson(profileBody(church));
        profiles.set(church, profile);
      }
      return profile;
    },

    async events(church) {
      return (await upcomingEvents(church)).json;
    },

    async eventsCalendar(church) {
      const upcomingList = await upcomingEvents(church);
      upcomingList.calendar ??= prepareText(
        eventCalendar(church, upcomingList.events, siteHost, new Date(upcomingList.minute * MINUTE_MS)),
        CALENDAR_CONTENT_TYPE,
      );
      return upcomingList.calendar;
    },

    profileLinkedData(church) {
      let linked = profileLinkedData.get(church);
      if (!linked) {
        linked = prepareText(JSON.stringify(churchLinkedData(profileBody(church))), LINKED_DATA_CONTENT_TYPE);
        profileLinkedData.set(church, linked);
      }
      return linked;
    },

    async eventsLinkedData(church) {
      const upcomingList = await upcomingEvents(church);
      upcomingList.linkedData ??= prepareText(
        JSON.stringify(eventsLinkedData(church, profileBody(church), upcomingList.events)),
        LINKED_DATA_CONTENT_TYPE,
      );
      return upcomingList.linkedData;
    },

    async liveLinkedData(church) {
      const status = await liveStatus(church);
      return prepareText(JSON.stringify(liveLinkedData(church, profileBody(church), status)), LINKED_DATA_CONTENT_TYPE);
    },

    async posts(church, request) {
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
      return prepareJson(await liveStatus(church));
    },

    async library(church, type, request) {
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
