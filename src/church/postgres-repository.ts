// The PostgreSQL implementation of ChurchRepository: the same reads as sqlite/read-statements.ts, the import writer and the kept churches (postgres/).
import { CHURCH_DATA_CHANNEL } from '../db/postgres/church-data-channel.ts';
import type { ChannelListener, PostgresDatabase } from '../db/postgres/database.ts';
import { localWallTime } from './local-time.ts';
import { writeChurches } from './postgres/import-writer.ts';
import { createListeningChurchCache, type ListeningChurchCache } from './postgres/public-church-cache.ts';
import type { ChurchDataCounts } from './records.ts';
import type { ChurchRepository } from './repository.ts';
import {
  type AlbumRow,
  type ChurchRow,
  type CountRow,
  type EventRow,
  type IdRow,
  type LibraryRow,
  type LiveRow,
  type PhotoRow,
  type PostRow,
  type ProductRow,
  toAlbum,
  toChurch,
  toEvent,
  toLibraryItem,
  toLiveStation,
  toPhoto,
  toPost,
  toProduct,
  type VariantRow,
} from './row-mapping.ts';

const LIBRARY_COLUMNS = 'slug, type, title, author, description, cover_image_url, price_minor, currency';

export interface PostgresChurchRepositoryOptions {
  /**
   * Where public church records are kept from: by default a LISTEN on church_data_changed, opened on
   * the first church read (so a CLI command that reads none opens no connection for it).
   */
  listen?: () => ChannelListener;
}

/**
 * Creates the repository over a migrated database (src/db/postgres/migrate.ts). Every church route
 * starts with publicChurchBySlug: its records are kept in the process while the listener hears no
 * change (postgres/public-church-cache.ts), and the routes keep a profile's body and ETag, and the
 * minute's events, with the record, as on SQLite.
 */
export function createPostgresChurchRepository(db: PostgresDatabase, options: PostgresChurchRepositoryOptions = {}): ChurchRepository {
  const listen = options.listen ?? (() => db.listen(CHURCH_DATA_CHANNEL));
  let churches: ListeningChurchCache | undefined;
  const loadChurch = async (slug: string) => {
    const [row] = await db.rows<ChurchRow>(
      `SELECT id, slug, name, bio, denomination, logo_url, cover_image_url, city, country, language, website, time_zone, is_public
       FROM churches WHERE slug = $1 AND is_public`,
      [slug],
      'public-church-by-slug',
    );
    return row ? toChurch(row) : undefined;
  };

  return {
    async publicChurchBySlug(slug) {
      churches ??= createListeningChurchCache(listen());
      return churches.get(slug, loadChurch);
    },

    async upcomingEvents(church, now, limit) {
      // Text comparison is chronological: both sides are 'YYYY-MM-DDTHH:MM' in the church's zone, compared byte by byte (COLLATE "C").
      const rows = await db.rows<EventRow>(
        `SELECT slug, name, description, start_local, end_local, location, cover_image_url, is_free, registration_url
         FROM events
         WHERE church_id = $1 AND is_published AND is_public AND coalesce(end_local, start_local) > $2
         ORDER BY start_local, name, slug
         LIMIT $3`,
        [church.id, localWallTime(now, church.timeZone), limit],
        'upcoming-events',
      );
      return rows.map(toEvent);
    },

    async postsPage(churchId, { page, size }) {
      const [count] = await db.rows<CountRow>('SELECT count(*) AS n FROM posts WHERE church_id = $1 AND is_public', [churchId]);
      const rows = await db.rows<PostRow>(
        `SELECT slug, title, body, image_url, published_at FROM posts
         WHERE church_id = $1 AND is_public
         ORDER BY published_at DESC, slug
         LIMIT $2 OFFSET $3`,
        [churchId, size, page * size],
      );
      return { records: rows.map(toPost), totalItems: count.n };
    },

    async libraryPage(churchId, { page, size }, type) {
      // Two statement pairs rather than `($2 IS NULL OR type = $2)`, so each uses its own index.
      const [count] = type
        ? await db.rows<CountRow>('SELECT count(*) AS n FROM library_items WHERE church_id = $1 AND is_public AND type = $2', [
            churchId,
            type,
          ])
        : await db.rows<CountRow>('SELECT count(*) AS n FROM library_items WHERE church_id = $1 AND is_public', [churchId]);
      const rows = type
        ? await db.rows<LibraryRow>(
            `SELECT ${LIBRARY_COLUMNS} FROM library_items WHERE church_id = $1 AND is_public AND type = $2
             ORDER BY position, slug LIMIT $3 OFFSET $4`,
            [churchId, type, size, page * size],
          )
        : await db.rows<LibraryRow>(
            `SELECT ${LIBRARY_COLUMNS} FROM library_items WHERE church_id = $1 AND is_public
             ORDER BY position, slug LIMIT $2 OFFSET $3`,
            [churchId, size, page * size],
          );
      return { records: rows.map(toLibraryItem), totalItems: count.n };
    },

    async visibleProducts(churchId) {
      const products = await db.rows<ProductRow>(
        `SELECT id, slug, name, description, image_url, currency, price_minor FROM products
         WHERE church_id = $1 AND visible_on_public_page
         ORDER BY position, slug`,
        [churchId],
      );
      const variants = await db.rows<VariantRow>(
        `SELECT v.product_id, v.name, v.price_minor FROM product_variants v
         JOIN products p ON p.id = v.product_id
         WHERE p.church_id = $1 AND p.visible_on_public_page
         ORDER BY v.product_id, v.position`,
        [churchId],
      );
      const byProduct = new Map<number, VariantRow[]>();
      for (const variant of variants) {
        const list = byProduct.get(variant.product_id) ?? [];
        list.push(variant);
        byProduct.set(variant.product_id, list);
      }
      return products.map((row) => toProduct(row, byProduct.get(row.id) ?? []));
    },

    async publicAlbums(churchId) {
      const rows = await db.rows<AlbumRow>(
        `SELECT a.album_key, a.title, a.description, a.taken_on,
                coalesce(a.cover_url, (SELECT url FROM photos WHERE album_id = a.id ORDER BY position LIMIT 1)) AS cover_url,
                (SELECT count(*) FROM photos WHERE album_id = a.id) AS photo_count
         FROM albums a
         WHERE a.church_id = $1 AND a.is_public
         ORDER BY a.position, a.album_key`,
        [churchId],
      );
      return rows.map(toAlbum);
    },

    async publicAlbumPhotos(churchId, albumId) {
      const [album] = await db.rows<IdRow>('SELECT id FROM albums WHERE church_id = $1 AND album_key = $2 AND is_public', [
        churchId,
        albumId,
      ]);
      if (!album) return undefined;
      const rows = await db.rows<PhotoRow>(
        'SELECT url, thumbnail_url, caption, width, height FROM photos WHERE album_id = $1 ORDER BY position, id',
        [album.id],
      );
      return rows.map(toPhoto);
    },

    async liveStation(churchId) {
      const [row] = await db.rows<LiveRow>('SELECT station_name, listen_url, is_video, is_live FROM live_stations WHERE church_id = $1', [
        churchId,
      ]);
      return row ? toLiveStation(row) : undefined;
    },

    async counts() {
      // Quoted aliases: PostgreSQL folds unquoted names to lower case.
      const [counts] = await db.rows<ChurchDataCounts>(
        `SELECT
           (SELECT count(*) FROM churches)                   AS "churches",
           (SELECT count(*) FROM churches WHERE is_public)   AS "publicChurches",
           (SELECT count(*) FROM events)                     AS "events",
           (SELECT count(*) FROM posts)                      AS "posts",
           (SELECT count(*) FROM library_items)              AS "libraryItems",
           (SELECT count(*) FROM products)                   AS "products",
           (SELECT count(*) FROM product_variants)           AS "productVariants",
           (SELECT count(*) FROM albums)                     AS "albums",
           (SELECT count(*) FROM photos)                     AS "photos",
           (SELECT count(*) FROM live_stations)              AS "liveStations"`,
      );
      return counts;
    },

    async importChurches(records) {
      return db.transaction((tx) => writeChurches(tx, records));
    },
  };
}
