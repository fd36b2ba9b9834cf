// Opening the built Bible's query database: read-only, with a page cache sized for a file the OS caches already.
import Database from '../../build/contract/sqlite-driver.ts';

/**
 * Pages (KiB) SQLite keeps per connection. better-sqlite3 raises SQLite's default to 16 MB per
 * connection, and the service holds one Bible connection on the event loop and one per search
 * worker: with the five languages in use each cache filled up, about 45 MB of private copies of a
 * read-only file the kernel's page cache holds anyway. At SQLite's own default of 2 MB a page
 * missed costs one pread from that cache: measured over 1,275 searches and 20,000 ranges, CPU per
 * query moved within the noise (about 350-480 µs a search, 32-35 µs a range, either size).
 */
export const BIBLE_CACHE_KIB = 2000;

/**
 * Opens the file read-only (it must exist); throws as better-sqlite3 does when it cannot.
 *
 * @example const db = openBibleDatabase(config.bibleDatabasePath);
 */
export function openBibleDatabase(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma(`cache_size = -${BIBLE_CACHE_KIB}`);
  return db;
}
