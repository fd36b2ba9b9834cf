// The church repository's PostgreSQL import writer: validated records in, written inside the caller's one transaction.
import { notifyChurchDataChanged } from '../../db/postgres/church-data-channel.ts';
import type { SqlRunner } from '../../db/postgres/database.ts';
import { type ChurchImportRecord, emptyImportSummary, type ImportSummary } from '../records.ts';

/**
 * Key of the transaction-level advisory lock every import takes first: two imports (two instances,
 * or the CLI and an instance) replacing the same church one after the other, never interleaved,
 * where the second would otherwise fail on the slug the first has just written again.
 */
const IMPORT_LOCK_KEY = 7_263_101_518;

/**
 * Writes validated churches through `tx`, which must be a transaction (the repository's): a church
 * whose slug exists is deleted first (its children go with it, ON DELETE CASCADE) and written again.
 * Every instance keeping church records hears of it when the transaction commits (NOTIFY, sent here).
 */
export async function writeChurches(tx: SqlRunner, records: readonly ChurchImportRecord[]): Promise<ImportSummary> {
  await tx.rows('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
  await notifyChurchDataChanged(tx);
  const summary = emptyImportSummary();
  for (const record of records) {
    const { church } = record;
    summary.replaced += await tx.run('DELETE FROM churches WHERE slug = $1', [church.slug]);
    const churchId = await insertedId(
      tx,
      `INSERT INTO churches (slug, name, bio, denomination, logo_url, cover_image_url, city, country, language, website, time_zone, is_public)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
      [
        church.slug,
        church.name,
        church.bio,
        church.denomination,
        church.logoUrl,
        church.coverImageUrl,
        church.city,
        church.country,
        church.language,
        church.website,
        church.timeZone,
        church.isPublic,
      ],
    );
    summary.churches++;
    for (const event of record.events) {
      await tx.run(
        `INSERT INTO events (church_id, slug, name, description, start_local, end_local, location, cover_image_url, is_free, registration_url, is_published, is_public)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          churchId,
          event.slug,
          event.name,
          event.description,
          event.startLocal,
          event.endLocal,
          event.location,
          event.coverImageUrl,
          event.isFree,
          event.registrationUrl,
          event.isPublished,
          event.isPublic,
        ],
      );
      summary.events++;
    }
    for (const post of record.posts) {
      await tx.run(
        `INSERT INTO posts (church_id, slug, title, body, image_url, published_at, is_public) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [churchId, post.slug, post.title, post.body, post.imageUrl, post.publishedAt, post.isPublic],
      );
      summary.posts++;
    }
    for (const [position, item] of record.library.entries()) {
      await tx.run(
        `INSERT INTO library_items (church_id, slug, type, title, author, description, cover_image_url, price_minor, currency, position, is_public)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          churchId,
          item.slug,
          item.type,
          item.title,
          item.author,
          item.description,
          item.coverImageUrl,
          item.price?.amountMinor ?? null,
          item.price?.currency ?? null,
          position,
          item.isPublic,
        ],
      );
      summary.libraryItems++;
    }
    for (const [position, product] of record.products.entries()) {
      const productId = await insertedId(
        tx,
        `INSERT INTO products (church_id, slug, name, description, image_url, currency, price_minor, position, visible_on_public_page)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          churchId,
          product.slug,
          product.name,
          product.description,
          product.imageUrl,
          product.currency,
          product.priceMinor,
          position,
          product.visibleOnPublicPage,
        ],
      );
      for (const [variantPosition, variant] of product.variants.entries()) {
        await tx.run('INSERT INTO product_variants (product_id, name, price_minor, position) VALUES ($1, $2, $3, $4)', [
          productId,
          variant.name,
          variant.price.amountMinor,
          variantPosition,
        ]);
      }
      summary.products++;
    }
    for (const [position, album] of record.albums.entries()) {
      const albumRowId = await insertedId(
        tx,
        `INSERT INTO albums (church_id, album_key, title, description, taken_on, cover_url, position, is_public)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [churchId, album.albumId, album.title, album.description, album.date, album.coverUrl, position, album.isPublic],
      );
      for (const [photoPosition, photo] of album.photos.entries()) {
        await tx.run(
          `INSERT INTO photos (album_id, url, thumbnail_url, caption, width, height, position) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [albumRowId, photo.url, photo.thumbnailUrl, photo.caption, photo.width, photo.height, photoPosition],
        );
        summary.photos++;
      }
      summary.albums++;
    }
    if (record.live) {
      await tx.run('INSERT INTO live_stations (church_id, station_name, listen_url, is_video, is_live) VALUES ($1, $2, $3, $4, $5)', [
        churchId,
        record.live.stationName,
        record.live.listenUrl,
        record.live.isVideo,
        record.live.isLive,
      ]);
      summary.liveStations++;
    }
  }
  return summary;
}

async function insertedId(tx: SqlRunner, text: string, values: readonly unknown[]): Promise<number> {
  const [row] = await tx.rows<{ id: number }>(text, values);
  return row.id;
}
