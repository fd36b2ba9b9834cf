// Which better-sqlite3 build this Node.js can use: the one place that loads the SQLite driver.
//
// better-sqlite3 12 wraps its objects with V8's ObjectWrap; on Node 24.16+ a prepared statement
// collected by the garbage collector can abort the process ("Assertion failed: (env) != nullptr"
// in RemoveEnvironmentCleanupHook, WiseLibs/better-sqlite3 #1515, closed without a fix in 12.x).
// better-sqlite3 13 is built on Node-API and ships prebuilt binaries, but needs Node 22 or later.
// So Node 20 loads 12 (compiled at install) and Node 22+ loads 13 (installed under the alias
// better-sqlite3-napi). Both have the same API; the types are better-sqlite3's.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** The package this process loads: 'better-sqlite3-napi' on Node 22+, 'better-sqlite3' on Node 20. */
export const SQLITE_DRIVER = nodeMajor >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

const Database = require(SQLITE_DRIVER) as typeof BetterSqlite3;

// Type-only namespace, so that `Database.Database` and `Database.Statement` read as with the package.
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace Database {
  type Database = BetterSqlite3.Database;
  // biome-ignore lint/complexity/noBannedTypes: the same constraint as better-sqlite3's own Statement type
  type Statement<BindParameters extends unknown[] | {} = unknown[], Result = unknown> = BetterSqlite3.Statement<BindParameters, Result>;
  type Options = BetterSqlite3.Options;
}

export default Database;
