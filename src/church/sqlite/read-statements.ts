// The church repository's SQLite reads: each SELECT prepared once, with the row shape it returns.

import { BOUND_LIMIT, BOUND_LIMIT_OFFSET } from '../../db/bound-parameters.ts';
import type { Db } from '../../db/open.ts';
import type { ChurchDataCounts, LibraryType } from '../records.ts';
import type {
  AlbumRow,
  ChurchRow,
  CountRow,
  EventRow,
  IdRow,
  LibraryRow,
  LiveRow,
  PhotoRow,
  PostRow,
  ProductRow,
  VariantRow,
} from '../row-mapping.ts';

/** Every read of the church repository, prepared once over an open, migrated database. */
export function prepareReadStatements(db: Db) {
  return {
    publicChurchBySlug: db.prepare<[string], ChurchRow>(
      `SELECT id, slug, name, bio, denomination, logo_url, cover_image_url, city, country, language, website, time_zone, is_public
       FROM churches WHERE slug = ? AND is_public = 1`,
    ),
    // String comparison is chronological: both sides are 'YYYY-MM-DDTHH:MM' in the church's zone.
    upcomingEvents: db.prepare<[number, string, number], EventRow>(
      `SELECT slug, name, description, start_local, end_local, location, cover_image_url, is_free, registration_url
       FROM events
       WHERE church_id = ? AND is_published = 1 AND is_public = 1 AND coalesce(end_local, start_local) > ?
       ORDER BY start_local, name, slug
       ${BOUND_LIMIT}`,
    ),
    countPosts: db.prepare<[number], CountRow>('SELECT count(*) AS n FROM posts WHERE church_id = ? AND is_public = 1'),
    postsPage: db.prepare<[number, number, number], PostRow>(
      `SELECT slug, title, body, image_url, published_at FROM posts
       WHERE church_id = ? AND is_public = 1
       ORDER BY published_at DESC, slug
       ${BOUND_LIMIT_OFFSET}`,
    ),
    countLibrary: db.prepare<[number], CountRow>('SELECT count(*) AS n FROM library_items WHERE church_id = ? AND is_public = 1'),
    countLibraryOfType: db.prepare<[number, LibraryType], CountRow>(
      'SELECT count(*) AS n FROM library_items WHERE church_id = ? AND is_public = 1 AND type = ?',
    ),
    libraryPage: db.prepare<[number, number, number], LibraryRow>(
      `SELECT slug, type, title, author, description, cover_image_url, price_minor, currency FROM library_items
       WHERE church_id = ? AND is_public = 1
       ORDER BY position, slug
       ${BOUND_LIMIT_OFFSET}`,
    ),
    libraryPageOfType: db.prepare<[number, LibraryType, number, number], LibraryRow>(
      `SELECT slug, type, title, author, description, cover_image_url, price_minor, currency FROM library_items
       WHERE church_id = ? AND is_public = 1 AND type = ?
       ORDER BY position, slug
       ${BOUND_LIMIT_OFFSET}`,
    ),
    visibleProducts: db.prepare<[number], ProductRow>(
      `SELECT id, slug, name, description, image_url, currency, price_minor FROM products
       WHERE church_id = ? AND visible_on_public_page = 1
       ORDER BY position, slug`,
    ),
    visibleProductVariants: db.prepare<[number], VariantRow>(
      `SELECT v.product_id, v.name, v.price_minor FROM product_variants v
       JOIN products p ON p.id = v.product_id
       WHERE p.church_id = ? AND p.visible_on_public_page = 1
       ORDER BY v.product_id, v.position`,
    ),
    publicAlbums: db.prepare<[number], AlbumRow>(
      `SELECT a.album_key, a.title, a.description, a.taken_on,
              coalesce(a.cover_url, (SELECT url FROM photos WHERE album_id = a.id ORDER BY position LIMIT 1)) AS cover_url,
              (SELECT count(*) FROM photos WHERE album_id = a.id) AS photo_count
       FROM albums a
       WHERE a.church_id = ? AND a.is_public = 1
       ORDER BY a.position, a.album_key`,
    ),
    publicAlbumId: db.prepare<[number, string], IdRow>('SELECT id FROM albums WHERE church_id = ? AND album_key = ? AND is_public = 1'),
    albumPhotos: db.prepare<[number], PhotoRow>(
      'SELECT url, thumbnail_url, caption, width, height FROM photos WHERE album_id = ? ORDER BY position, id',
    ),
    liveStation: db.prepare<[number], LiveRow>('SELECT station_name, listen_url, is_video, is_live FROM live_stations WHERE church_id = ?'),
    counts: db.prepare<[], ChurchDataCounts>(
      `SELECT
         (SELECT count(*) FROM churches)                       AS churches,
         (SELECT count(*) FROM churches WHERE is_public = 1)   AS publicChurches,
         (SELECT count(*) FROM events)                         AS events,
         (SELECT count(*) FROM posts)                          AS posts,
         (SELECT count(*) FROM library_items)                  AS libraryItems,
         (SELECT count(*) FROM products)                       AS products,
         (SELECT count(*) FROM product_variants)               AS productVariants,
         (SELECT count(*) FROM albums)                         AS albums,
         (SELECT count(*) FROM photos)                         AS photos,
         (SELECT count(*) FROM live_stations)                  AS liveStations`,
    ),
  };
}

/** The prepared reads, by name. */
export type ReadStatements = ReturnType<typeof prepareReadStatements>;
