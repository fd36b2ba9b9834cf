// Church endpoints 1-8: validate the request, make one repository call, shape the response.
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { CHURCH_CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { problems } from '../../build/contract/problems.ts';
import type { AppServices } from '../app-services.ts';
import { type PreparedJson, prepareJson, sendJson, sendPreparedJson } from '../http/cache.ts';
import { pageEnvelope, parsePageRequest, singleQueryValue } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import { price } from './money.ts';
import { type ChurchRecord, LIBRARY_TYPES, type LibraryType } from './records.ts';
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

const MINUTE_MS = 60_000;

/**
 * The longest upcoming-events body kept with its church record: a few events' worth. Records are
 * bounded in number (sqlite/public-church-cache.ts), so this bounds the bytes kept beside them.
 */
const KEPT_EVENTS_MAX_CHARS = 8 * 1024;

/**
 * Mounted under /api/public/v1/churches. `before` runs first on every request under it (the method
 * guard, key auth and the rate limit): inside the router they match without a path test each.
 */
export function createChurchRouter(
  services: Pick<AppServices, 'churches' | 'config' | 'clock'>,
  before: readonly RequestHandler[] = [],
): Router {
  const { churches, config, clock } = services;
  const site = config.publicSiteUrl;
  // One canonical path per resource (decisions.md): literal segments as written, no trailing slash.
  const router = Router({ caseSensitive: true, strict: true });
  if (before.length > 0) router.use(...before);

  const churchOf = (res: Response): ChurchRecord => res.locals.church as ChurchRecord;
  const link = (...segments: string[]) => [site, ...segments.map(encodeURIComponent)].join('/');
  const send = (req: Request, res: Response, body: unknown) => sendJson(req, res, body, { cacheControl: CHURCH_CACHE_CONTROL });
  // A profile is its record's fields and the site's address: its body and ETag are made once per record the
  // repository returns. A repository that keeps records (SQLite) returns the same one until the data changes;
  // one that does not (PostgreSQL) returns a new one each time, and nothing is reused.
  const profiles = new WeakMap<ChurchRecord, PreparedJson>();
  const upcoming = new WeakMap<ChurchRecord, { minute: number; body: PreparedJson }>();

  // Every route below starts with the church: looked up once, here, and 404 when unknown or not public.
  router.param('slug', async (_req, res, next, slug: string) => {
    const church = await churches.publicChurchBySlug(slug);
    // One answer for an unknown slug and a non-public church, so the two cannot be told apart.
    if (!church) return next(new ApiError(problems.churchNotFound()));
    res.locals.church = church;
    next();
  });

  router.get('/:slug', (req, res) => {
    const church = churchOf(res);
    let profile = profiles.get(church);
    if (!profile) {
      profile = prepareJson(profileOf(church, link(church.slug)));
      profiles.set(church, profile);
    }
    sendPreparedJson(req, res, profile, { cacheControl: CHURCH_CACHE_CONTROL });
  });

  router.get('/:slug/events', async (req, res) => {
    const church = churchOf(res);
    const now = clock.now();
    // "Upcoming" is decided to the minute (event times have no seconds): within one minute, and as long as the
    // repository returns the same record (the data unchanged), the list is the same bytes.
    const minute = Math.floor(now.getTime() / MINUTE_MS);
    const kept = upcoming.get(church);
    if (kept?.minute === minute) return sendPreparedJson(req, res, kept.body, { cacheControl: CHURCH_CACHE_CONTROL });
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
    sendPreparedJson(req, res, prepared, { cacheControl: CHURCH_CACHE_CONTROL });
  });

  router.get('/:slug/posts', async (req, res) => {
    const church = churchOf(res);
    const request = parsePageRequest(req.query);
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
    send(req, res, pageEnvelope(items, request, totalItems));
  });

  router.get('/:slug/live', async (req, res) => {
    const church = churchOf(res);
    const station = await churches.liveStation(church.id);
    const body: LiveStatus = station
      ? {
          isLive: station.isLive,
          isVideo: station.isVideo,
          stationName: station.stationName,
          listenPage: station.listenUrl ?? link(church.slug, 'live'),
        }
      : { isLive: false, isVideo: false, stationName: null, listenPage: null };
    send(req, res, body);
  });

  router.get('/:slug/library', async (req, res) => {
    const church = churchOf(res);
    const type = libraryType(req);
    const request = parsePageRequest(req.query);
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
    send(req, res, pageEnvelope(items, request, totalItems));
  });

  router.get('/:slug/store', async (req, res) => {
    const church = churchOf(res);
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
    send(req, res, body);
  });

  router.get('/:slug/gallery', async (req, res) => {
    const church = churchOf(res);
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
    send(req, res, body);
  });

  router.get('/:slug/gallery/:albumId/photos', async (req, res) => {
    const church = churchOf(res);
    const albumId = String(req.params.albumId);
    const photos = await churches.publicAlbumPhotos(church.id, albumId);
    if (!photos) throw new ApiError(problems.albumNotFound());
    const body: Photo[] = photos.map((photo) => ({
      url: photo.url,
      thumbnailUrl: photo.thumbnailUrl,
      caption: photo.caption,
      width: photo.width,
      height: photo.height,
    }));
    send(req, res, body);
  });

  return router;
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
function libraryType(req: Request): LibraryType | undefined {
  const raw = singleQueryValue(req.query, 'type');
  if (raw === undefined) return undefined;
  const found = LIBRARY_TYPES.find((type) => type === raw.toUpperCase());
  if (!found) throw new ApiError(problems.unknownLibraryType(LIBRARY_TYPES));
  return found;
}
