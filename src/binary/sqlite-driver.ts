// The SQLite driver inside the single binary: better-sqlite3 13 with its addon from the binary. scripts/binary/bundle.ts puts it in place of build/contract/sqlite-driver.ts.
import type BetterSqlite3 from 'better-sqlite3';
import Package from 'better-sqlite3-napi';
import { embeddedSqliteAddon } from './sqlite-addon.ts';

/** The package this binary carries (it runs on Node 24, so the Node-API build). */
export const SQLITE_DRIVER = 'better-sqlite3-napi';

/**
 * better-sqlite3's Database, with the embedded addon as `nativeBinding` of every connection:
 * the package's own lookup searches node_modules, which a binary does not have.
 */
class Database extends Package {
  constructor(filename?: string | Buffer, options: BetterSqlite3.Options = {}) {
    // The package takes a loaded addon object as well as a path; its types know only the path.
    super(filename, { ...options, nativeBinding: embeddedSqliteAddon() as unknown as string });
  }
}

export default Database as typeof BetterSqlite3;
