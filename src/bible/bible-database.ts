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
 * Opens the file read-only (it must exist) and, unless `keepLock` is false, keeps its shared lock for the connection's life;
 * throws as better-sqlite3 does when it cannot.
 *
 * In SQLite's default (normal) locking mode every statement is a read transaction of its own that
 * takes and drops the file's lock and looks for a hot journal: four fcntl, three stat and a pread
 * per query, 17 µs of a 19 µs lookup by id on the VM these figures were made on (1.7 µs in
 * exclusive mode). A build never writes a database in place: it writes a new file and renames it
 * over the old one (build/writers/database.ts), and the source opens that one anew, so nothing
 * ever needs the lock this connection keeps, nor the change check it skips. `keepLock` false
 * (BIBLE_DB_KEEP_LOCK=false) keeps SQLite's per-query locking, for a file that other tools write in
 * place (the connection then sees their changes, and they can take the file's lock).
 *
 * @example const db = openBibleDatabase(config.bibleDatabasePath);
 */
export function openBibleDatabase(file: string, keepLock = true): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma(`cache_size = -${BIBLE_CACHE_KIB}`);
  // On a read-only connection this keeps a shared lock from the first read on: other readers are not held up.
  if (keepLock) db.pragma('locking_mode = EXCLUSIVE');
  return db;
}
