// Opening the service's SQLite database with the settings it needs, and applying migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from '../../build/contract/sqlite-driver.ts';
import { applyMigrations } from './migrate.ts';

export type Db = Database.Database;

/** Opens (creating if needed) the database file and brings its schema up to date. */
export function openDatabase(file: string, migrationsDir = defaultMigrationsDir()): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL: readers never wait for the writer, and a crash mid-write leaves the last commit intact.
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  applyMigrations(db, migrationsDir);
  return db;
}

export function defaultMigrationsDir(): string {
  return path.resolve(import.meta.dirname, '../../data/migrations');
}
