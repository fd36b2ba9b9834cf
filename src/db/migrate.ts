// Migrations runner: applies data/migrations/NNN_name.sql in order, each in its own transaction, once.
import path from 'node:path';
import type Database from 'better-sqlite3';
import { listResourceFolder, readResourceText } from '../resources/resources.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Reads `NNN_name.sql` files, sorted by number; refuses gaps and duplicates. */
export function readMigrations(dir: string): Migration[] {
  const migrations = listResourceFolder(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = /^(\d+)_([\w-]+)\.sql$/.exec(file);
      if (!match) throw new Error(`Migration file name must be NNN_name.sql: ${file}`);
      return { version: Number(match[1]), name: match[2], sql: readResourceText(path.join(dir, file)) };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new Error(`Migrations must be numbered 1, 2, 3… without gaps: found ${migration.version} at position ${index + 1}`);
  });
  return migrations;
}

/** A migration that failed: its transaction was rolled back, so the database keeps the schema it had. */
export class MigrationError extends Error {
  constructor(
    readonly migration: Pick<Migration, 'version' | 'name'>,
    /** The schema version the database still has (the last migration applied). */
    readonly schemaVersion: number,
    options: { cause: unknown },
  ) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(
      `migration ${migration.version} (${migration.name}) failed: ${reason}; nothing of it was applied, the database keeps schema version ${schemaVersion}`,
      options,
    );
    this.name = 'MigrationError';
  }
}

/** The highest migration version recorded in the database, 0 for none (or no schema_migrations table). */
export function schemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return 0;
  return (db.prepare('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck().get() as number) ?? 0;
}

/**
 * Applies the migrations not yet recorded in schema_migrations; returns the versions applied. Each
 * runs in its own transaction with its schema_migrations row: one that fails half-way leaves
 * neither its tables nor its row (SQLite's DDL is transactional), and a MigrationError says so.
 * The ones before it stay applied.
 */
export function applyMigrations(db: Database.Database, dir: string): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const done: number[] = [];
  for (const migration of readMigrations(dir)) {
    if (applied.has(migration.version)) continue;
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        record.run(migration.version, migration.name, new Date().toISOString());
      })();
    } catch (error) {
      throw new MigrationError(migration, schemaVersion(db), { cause: error });
    }
    done.push(migration.version);
  }
  return done;
}
