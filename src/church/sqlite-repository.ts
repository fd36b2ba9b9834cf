// The SQLite implementation of ChurchRepository: all church SQL lives here, as statements prepared once.
import type { Db } from '../db/open.ts';
import type { ChurchRepository } from './repository.ts';
import { localWallTime } from './local-time.ts';
import type {
  AlbumRecord,
  ChurchDataCounts,
  ChurchImportRecord,
  ChurchRecord,
  EventRecord,
  ImportSummary,
  LibraryItemRecord,
  LibraryType,
  MoneyRecord,
  PhotoRecord,
  PostRecord,
  ProductRecord,
  ProductVariantRecord,
} from './types.ts';

// ─── Row shapes, exactly as SELECTed ─────────────────────────────────────────

interface ChurchRow {
  id: number;
  slug: string;
  name: string;
  bio: string;
  denomination: string;
  logo_url: string | null;
  cover_image_url: string | null;
  city: string;
  country: string;
  language: string;
  website: string | null;
  time_zone: string;
  is_public: 0 | 1;
}

interface EventRow {
  slug: string;
  name: string;
  description: string;
  start_local: string;
  end_local: string | null;
  location: string;
  cover_image_url: string | null;
  is_free: 0 | 1;
  registration_url: string | null;
}

interface PostRow {
  slug: string;
  title: string;
  body: string;
  image_url: string | null;
  published_at: string;
}

interface LibraryRow {
  slug: string;
  type: LibraryType;
  title: string;
  author: string;
  description: string;
  cover_image_url: string | null;
  price_minor: number | null;
  currency: string | null;
}

interface ProductRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  image_url: string | null;
  currency: string;
  price_minor: number | null;
}

interface VariantRow {
  product_id: number;
  name: string;
  price_minor: number;
}

interface AlbumRow {
  album_key: string;
  title: string;
  description: string;
  taken_on: string | null;
  cover_url: string | null;
  photo_count: number;
}

interface PhotoRow {
  url: string;
  thumbnail_url: string | null;
  caption: string;
  width: number | null;
  height: number | null;
}

interface LiveRow {
  station_name: string;
  listen_url: string | null;
  is_video: 0 | 1;
  is_live: 0 | 1;
}

interface IdRow {
  id: number;
}

/** Creates the repository over an open, migrated database; every statement is prepared here, once. */
export function createSqliteChurchRepository(db: Db): ChurchRepository {
  const statements = prepareReads(db);
  const write = createChurchWriter(db);
  const count = createChurchDataCounter(db);

  return {
    async publicChurchBySlug(slug) {
      const row = statements.publicChurchBySlug.get(slug) as ChurchRow | undefined;
      return row ? toChurch(row) : undefined;
    },

    async upcomingEvents(church, now, limit) {
      const nowLocal = localWallTime(now, church.timeZone);
      const rows = statements.upcomingEvents.all(church.id, nowLocal, limit) as EventRow[];
      return rows.map(toEvent);
    },

    async postsPage(churchId, { page, size }) {
      const totalItems = (statements.countPosts.get(churchId) as { n: number }).n;
      const rows = statements.postsPage.all(churchId, size, page * size) as PostRow[];
      return { records: rows.map(toPost), totalItems };
    },

    async libraryPage(churchId, { page, size }, type) {
      // Two statement pairs rather than `(? IS NULL OR type = ?)`, so each uses its own index.
      const totalItems = (
        type ? statements.countLibraryOfType.get(churchId, type) : statements.countLibrary.get(churchId)
      ) as { n: number };
      const rows = (
        type
          ? statements.libraryPageOfType.all(churchId, type, size, page * size)
          : statements.libraryPage.all(churchId, size, page * size)
      ) as LibraryRow[];
      return { records: rows.map(toLibraryItem), totalItems: totalItems.n };
    },

    async visibleProducts(churchId) {
      const products = statements.visibleProducts.all(churchId) as ProductRow[];
      const variants = statements.visibleProductVariants.all(churchId) as VariantRow[];
      const byProduct = new Map<number, VariantRow[]>();
      for (const variant of variants) {
        const list = byProduct.get(variant.product_id) ?? [];
        list.push(variant);
        byProduct.set(variant.product_id, list);
      }
      return products.map((row) => toProduct(row, byProduct.get(row.id) ?? []));
    },

    async publicAlbums(churchId) {
      return (statements.publicAlbums.all(churchId) as AlbumRow[]).map(toAlbum);
    },

    async publicAlbumPhotos(churchId, albumId) {
      const album = statements.publicAlbumId.get(churchId, albumId) as IdRow | undefined;
      if (!album) return undefined;
      return (statements.albumPhotos.all(album.id) as PhotoRow[]).map(toPhoto);
    },

    async liveStation(churchId) {
      const row = statements.liveStation.get(churchId) as LiveRow | undefined;
      return row
        ? { stationName: row.station_name, listenUrl: row.listen_url, isVideo: row.is_video === 1, isLive: row.is_live === 1 }
        : undefined;
    },

    async counts() {
      return count();
    },

    async importChurches(records) {
      return write(records);
    },
  };
}

/** Row counts of every church table, as a synchronous function over a statement prepared once. */
export function createChurchDataCounter(db: Db): () => ChurchDataCounts {
  const statement = db.prepare(
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
  );
  return () => statement.get() as ChurchDataCounts;
}

/**
 * A synchronous writer of validated churches: one transaction, all or nothing; a church whose slug
 * exists is deleted first (its children go with it, ON DELETE CASCADE) and written again.
 */
export function createChurchWriter(db: Db): (records: readonly ChurchImportRecord[]) => ImportSummary {
  const deleteChurch = db.prepare('DELETE FROM churches WHERE slug = ?');
  const insertChurch = db.prepare(
    `INSERT INTO churches (slug, name, bio, denomination, logo_url, cover_image_url, city, country, language, website, time_zone, is_public)
     VALUES (@slug, @name, @bio, @denomination, @logoUrl, @coverImageUrl, @city, @country, @language, @website, @timeZone, @isPublic)`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO events (church_id, slug, name, description, start_local, end_local, location, cover_image_url, is_free, registration_url, is_published, is_public)
     VALUES (@churchId, @slug, @name, @description, @startLocal, @endLocal, @location, @coverImageUrl, @isFree, @registrationUrl, @isPublished, @isPublic)`,
  );
  const insertPost = db.prepare(
    `INSERT INTO posts (church_id, slug, title, body, image_url, published_at, is_public)
     VALUES (@churchId, @slug, @title, @body, @imageUrl, @publishedAt, @isPublic)`,
  );
  const insertLibraryItem = db.prepare(
    `INSERT INTO library_items (church_id, slug, type, title, author, description, cover_image_url, price_minor, currency, position, is_public)
     VALUES (@churchId, @slug, @type, @title, @author, @description, @coverImageUrl, @priceMinor, @currency, @position, @isPublic)`,
  );
  const insertProduct = db.prepare(
    `INSERT INTO products (church_id, slug, name, description, image_url, currency, price_minor, position, visible_on_public_page)
     VALUES (@churchId, @slug, @name, @description, @imageUrl, @currency, @priceMinor, @position, @visibleOnPublicPage)`,
  );
  const insertVariant = db.prepare(
    'INSERT INTO product_variants (product_id, name, price_minor, position) VALUES (@productId, @name, @priceMinor, @position)',
  );
  const insertAlbum = db.prepare(
    `INSERT INTO albums (church_id, album_key, title, description, taken_on, cover_url, position, is_public)
     VALUES (@churchId, @albumId, @title, @description, @date, @coverUrl, @position, @isPublic)`,
  );
  const insertPhoto = db.prepare(
    `INSERT INTO photos (album_id, url, thumbnail_url, caption, width, height, position)
     VALUES (@albumId, @url, @thumbnailUrl, @caption, @width, @height, @position)`,
  );
  const insertStation = db.prepare(
    `INSERT INTO live_stations (church_id, station_name, listen_url, is_video, is_live)
     VALUES (@churchId, @stationName, @listenUrl, @isVideo, @isLive)`,
  );

  const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);

  return db.transaction((records: readonly ChurchImportRecord[]): ImportSummary => {
    const summary: ImportSummary = { churches: 0, replaced: 0, events: 0, posts: 0, libraryItems: 0, products: 0, albums: 0, photos: 0, liveStations: 0 };
    for (const record of records) {
      const { church } = record;
      summary.replaced += deleteChurch.run(church.slug).changes;
      const churchId = Number(insertChurch.run({ ...church, isPublic: bit(church.isPublic) }).lastInsertRowid);
      summary.churches++;
      for (const event of record.events) {
        insertEvent.run({
          churchId,
          ...event,
          isFree: bit(event.isFree),
          isPublished: bit(event.isPublished),
          isPublic: bit(event.isPublic),
        });
        summary.events++;
      }
      for (const post of record.posts) {
        insertPost.run({ churchId, ...post, isPublic: bit(post.isPublic) });
        summary.posts++;
      }
      record.library.forEach((item, position) => {
        insertLibraryItem.run({
          churchId,
          slug: item.slug,
          type: item.type,
          title: item.title,
          author: item.author,
          description: item.description,
          coverImageUrl: item.coverImageUrl,
          priceMinor: item.price?.amountMinor ?? null,
          currency: item.price?.currency ?? null,
          position,
          isPublic: bit(item.isPublic),
        });
        summary.libraryItems++;
      });
      record.products.forEach((product, position) => {
        const productId = Number(
          insertProduct.run({
            churchId,
            slug: product.slug,
            name: product.name,
            description: product.description,
            imageUrl: product.imageUrl,
            currency: product.currency,
            priceMinor: product.priceMinor,
            position,
            visibleOnPublicPage: bit(product.visibleOnPublicPage),
          }).lastInsertRowid,
        );
        product.variants.forEach((variant, variantPosition) => {
          insertVariant.run({ productId, name: variant.name, priceMinor: variant.price.amountMinor, position: variantPosition });
        });
        summary.products++;
      });
      record.albums.forEach((album, position) => {
        const albumRowId = Number(
          insertAlbum.run({
            churchId,
            albumId: album.albumId,
            title: album.title,
            description: album.description,
            date: album.date,
            coverUrl: album.coverUrl,
            position,
            isPublic: bit(album.isPublic),
          }).lastInsertRowid,
        );
        album.photos.forEach((photo, photoPosition) => {
          insertPhoto.run({ albumId: albumRowId, ...photo, position: photoPosition });
          summary.photos++;
        });
        summary.albums++;
      });
      if (record.live) {
        insertStation.run({ churchId, ...record.live, isVideo: bit(record.live.isVideo), isLive: bit(record.live.isLive) });
        summary.liveStations++;
      }
    }
    return summary;
  });
}

function prepareReads(db: Db) {
  return {
    publicChurchBySlug: db.prepare(
      `SELECT id, slug, name, bio, denomination, logo_url, cover_image_url, city, country, language, website, time_zone, is_public
       FROM churches WHERE slug = ? AND is_public = 1`,
    ),
    // String comparison is chronological: both sides are 'YYYY-MM-DDTHH:MM' in the church's zone.
    upcomingEvents: db.prepare(
      `SELECT slug, name, description, start_local, end_local, location, cover_image_url, is_free, registration_url
       FROM events
       WHERE church_id = ? AND is_published = 1 AND is_public = 1 AND coalesce(end_local, start_local) > ?
       ORDER BY start_local, name, slug
       LIMIT ?`,
    ),
    countPosts: db.prepare('SELECT count(*) AS n FROM posts WHERE church_id = ? AND is_public = 1'),
    postsPage: db.prepare(
      `SELECT slug, title, body, image_url, published_at FROM posts
       WHERE church_id = ? AND is_public = 1
       ORDER BY published_at DESC, slug
       LIMIT ? OFFSET ?`,
    ),
    countLibrary: db.prepare('SELECT count(*) AS n FROM library_items WHERE church_id = ? AND is_public = 1'),
    countLibraryOfType: db.prepare('SELECT count(*) AS n FROM library_items WHERE church_id = ? AND is_public = 1 AND type = ?'),
    libraryPage: db.prepare(
      `SELECT slug, type, title, author, description, cover_image_url, price_minor, currency FROM library_items
       WHERE church_id = ? AND is_public = 1
       ORDER BY position, slug
       LIMIT ? OFFSET ?`,
    ),
    libraryPageOfType: db.prepare(
      `SELECT slug, type, title, author, description, cover_image_url, price_minor, currency FROM library_items
       WHERE church_id = ? AND is_public = 1 AND type = ?
       ORDER BY position, slug
       LIMIT ? OFFSET ?`,
    ),
    visibleProducts: db.prepare(
      `SELECT id, slug, name, description, image_url, currency, price_minor FROM products
       WHERE church_id = ? AND visible_on_public_page = 1
       ORDER BY position, slug`,
    ),
    visibleProductVariants: db.prepare(
      `SELECT v.product_id, v.name, v.price_minor FROM product_variants v
       JOIN products p ON p.id = v.product_id
       WHERE p.church_id = ? AND p.visible_on_public_page = 1
       ORDER BY v.product_id, v.position`,
    ),
    publicAlbums: db.prepare(
      `SELECT a.album_key, a.title, a.description, a.taken_on,
              coalesce(a.cover_url, (SELECT url FROM photos WHERE album_id = a.id ORDER BY position LIMIT 1)) AS cover_url,
              (SELECT count(*) FROM photos WHERE album_id = a.id) AS photo_count
       FROM albums a
       WHERE a.church_id = ? AND a.is_public = 1
       ORDER BY a.position, a.album_key`,
    ),
    publicAlbumId: db.prepare('SELECT id FROM albums WHERE church_id = ? AND album_key = ? AND is_public = 1'),
    albumPhotos: db.prepare('SELECT url, thumbnail_url, caption, width, height FROM photos WHERE album_id = ? ORDER BY position, id'),
    liveStation: db.prepare('SELECT station_name, listen_url, is_video, is_live FROM live_stations WHERE church_id = ?'),
  };
}

function toChurch(row: ChurchRow): ChurchRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    bio: row.bio,
    denomination: row.denomination,
    logoUrl: row.logo_url,
    coverImageUrl: row.cover_image_url,
    city: row.city,
    country: row.country,
    language: row.language,
    website: row.website,
    timeZone: row.time_zone,
    isPublic: row.is_public === 1,
  };
}

function toEvent(row: EventRow): EventRecord {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    startLocal: row.start_local,
    endLocal: row.end_local,
    location: row.location,
    coverImageUrl: row.cover_image_url,
    isFree: row.is_free === 1,
    registrationUrl: row.registration_url,
  };
}

function toPost(row: PostRow): PostRecord {
  return { slug: row.slug, title: row.title, body: row.body, imageUrl: row.image_url, publishedAt: row.published_at };
}

function toLibraryItem(row: LibraryRow): LibraryItemRecord {
  return {
    slug: row.slug,
    type: row.type,
    title: row.title,
    author: row.author,
    description: row.description,
    coverImageUrl: row.cover_image_url,
    price: row.price_minor !== null && row.currency !== null ? { amountMinor: row.price_minor, currency: row.currency } : null,
  };
}

function toProduct(row: ProductRow, variants: VariantRow[]): ProductRecord {
  const money = (amountMinor: number): MoneyRecord => ({ amountMinor, currency: row.currency });
  const variantRecords: ProductVariantRecord[] = variants.map((variant) => ({ name: variant.name, price: money(variant.price_minor) }));
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    imageUrl: row.image_url,
    // The import refuses a product with neither a price nor variants; 0 is never reached in practice.
    price: variantRecords.length > 0 ? lowestPrice(variantRecords) : money(row.price_minor ?? 0),
    priceIsStartingAt: variantRecords.length > 0,
    variants: variantRecords,
  };
}

function lowestPrice(variants: ProductVariantRecord[]): MoneyRecord {
  return variants.reduce((low, variant) => (variant.price.amountMinor < low.amountMinor ? variant.price : low), variants[0].price);
}

function toAlbum(row: AlbumRow): AlbumRecord {
  return {
    albumId: row.album_key,
    title: row.title,
    description: row.description,
    date: row.taken_on,
    coverUrl: row.cover_url,
    photoCount: row.photo_count,
  };
}

function toPhoto(row: PhotoRow): PhotoRecord {
  return { url: row.url, thumbnailUrl: row.thumbnail_url, caption: row.caption, width: row.width, height: row.height };
}
