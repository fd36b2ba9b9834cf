// Whether another connection (the service, a CLI command) has a SQLite database open: SQLite's own file locks say so.
import Database from '../../build/contract/sqlite-driver.ts';

/**
 * True when another connection, in this process or another, has the database at `file` open.
 *
 * The service opens its database in WAL mode, and every connection to a WAL database keeps a
 * shared lock on the file for as long as it is open, idle or not. This asks SQLite for the
 * exclusive lock no other connection may hold (locking mode EXCLUSIVE, then a read, without
 * waiting): SQLITE_BUSY means someone has it open. It is SQLite's own locking (POSIX advisory
 * locks), so it needs no pid file that a killed process would leave behind; it cannot see a
 * process on another machine through a network file system, where SQLite's locks do not hold
 * either. A file that is not a SQLite database (or not one this user may write) is in use by no
 * service of ours: false.
 *
 * Opening it this way writes nothing but what closing any connection writes (the WAL checkpointed
 * into the file when this was the last connection).
 *
 * @example if (databaseInUse('var/church.sqlite')) throw new Error('stop the service first');
 */
export function databaseInUse(file: string): boolean {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch {
    return false;
  }
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
  } finally {
    db.close();
  }
}
