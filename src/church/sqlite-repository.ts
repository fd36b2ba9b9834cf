// The SQLite implementation of ChurchRepository: reads and the import writer (in sqlite/) behind the one interface.
import type { Db } from '../db/open.ts';
import { localWallTime } from './local-time.ts';
import type { ChurchRepository } from './repository.ts';
import { toAlbum, toChurch, toEvent, toLibraryItem, toLiveStation, toPhoto, toPost, toProduct, type VariantRow } from './row-mapping.ts';
import { createChurchWriter } from './sqlite/import-writer.ts';
import { createPublicChurchCache } from './sqlite/public-church-cache.ts';
import { prepareReadStatements } from './sqlite/read-statements.ts';

/** Creates the repository over an open, migrated database; every statement is prepared here, once. */
export function createSqliteChurchRepository(db: Db): ChurchRepository {
  const statements = prepareReadStatements(db);
  const write = createChurchWriter(db);
  // Every church route starts with this lookup; kept records spare its query (the routes keep a profile's body with its record).
  const churches = createPublicChurchCache(db);
  const loadChurch = (slug: string) => {
    const row = statements.publicChurchBySlug.get(slug);
    return row ? toChurch(row) : undefined;
  };

  return {
    async publicChurchBySlug(slug) {
      return churches.get(slug, loadChurch);
    },

    async upcomingEvents(church, now, limit) {
      const nowLocal = localWallTime(now, church.timeZone);
      return statements.upcomingEvents.all(church.id, nowLocal, limit).map(toEvent);
    },

    async postsPage(churchId, { page, size }) {
      const totalItems = statements.countPosts.get(churchId)!.n;
      const rows = statements.postsPage.all(churchId, size, page * size);
      return { records: rows.map(toPost), totalItems };
    },

    async libraryPage(churchId, { page, size }, type) {
      // Two statement pairs rather than `(? IS NULL OR type = ?)`, so each uses its own index.
      const total = type ? statements.countLibraryOfType.get(churchId, type) : statements.countLibrary.get(churchId);
      const rows = type
        ? statements.libraryPageOfType.all(churchId, type, size, page * size)
        : statements.libraryPage.all(churchId, size, page * size);
      return { records: rows.map(toLibraryItem), totalItems: total!.n };
    },

    async visibleProducts(churchId) {
      const products = statements.visibleProducts.all(churchId);
      const byProduct = new Map<number, VariantRow[]>();
      for (const variant of statements.visibleProductVariants.all(churchId)) {
        const list = byProduct.get(variant.product_id) ?? [];
        list.push(variant);
        byProduct.set(variant.product_id, list);
      }
      return products.map((row) => toProduct(row, byProduct.get(row.id) ?? []));
    },

    async publicAlbums(churchId) {
      return statements.publicAlbums.all(churchId).map(toAlbum);
    },

    async publicAlbumPhotos(churchId, albumId) {
      const album = statements.publicAlbumId.get(churchId, albumId);
      if (!album) return undefined;
      return statements.albumPhotos.all(album.id).map(toPhoto);
    },

    async liveStation(churchId) {
      const row = statements.liveStation.get(churchId);
      return row ? toLiveStation(row) : undefined;
    },

    async counts() {
      return statements.counts.get()!;
    },

    async importChurches(records) {
      try {
        return write(records);
      } finally {
        // This connection's own commits leave PRAGMA data_version as it was.
        churches.clear();
      }
    },
  };
}
