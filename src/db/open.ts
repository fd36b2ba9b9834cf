// Opening the service's SQLite database with the settings it needs, and applying migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from '../../build/contract/sqlite-driver.ts';
import { resourcePath } from '../resources/resources.ts';
import { applyMigrations } from './migrate.ts';

export type Db = Database.Database;

/** Opens (creating if needed) the database file and brings its schema up to date. */
export function openDatabase(file: string, migrationsDir = defaultMigrationsDir()): Db {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    ownerOnly(file);
  }
  const db = new Database(file);
  // WAL: readers never wait for the writer, and a crash mid-write leaves the last commit intact.
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // Migrations may wait for another process's write; the service then turns waiting off (connect.ts).
  db.pragma('busy_timeout = 5000');
  try {
    applyMigrations(db, migrationsDir);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * The database holds accounts and key fingerprints: readable by the service's user only, like
 * the fingerprint secret. SQLite creates the -wal and -shm files with the main file's mode, so
 * creating that one 0600 is enough for a new database; an existing one (and its companions,
 * from an older version) is narrowed to 0600 too.
 */
function ownerOnly(file: string): void {
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, 0o600));
  for (const companion of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(companion, 0o600);
    } catch (error) {
      // Absent, or not ours to change (an operator's own setup): nothing to narrow here.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

export function defaultMigrationsDir(): string {
  return resourcePath('data/migrations');
}
