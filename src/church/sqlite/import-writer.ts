// The church repository's SQLite import writer: validated records in, one all-or-nothing transaction.
import type { Db } from '../../db/open.ts';
import { type ChurchImportRecord, emptyImportSummary, type ImportSummary } from '../records.ts';

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
    const summary = emptyImportSummary();
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
