// PostgreSQL migrations: data/migrations/postgres/NNN_name.sql, applied once under an advisory lock, each in its own transaction.
import { resourcePath } from '../../resources/resources.ts';
import { readMigrations } from '../migrate.ts';
import type { PostgresDatabase } from './database.ts';

/**
 * The key of the session-level advisory lock the migrator holds: every instance of this service
 * takes the same one, so instances starting together migrate one after the other (the later ones
 * find nothing left to do). A constant, so an operator can spot it in pg_locks.
 */
export const MIGRATION_LOCK_KEY = 7_263_101_517;

export interface PostgresMigrationOptions {
  /** Folder of the migration files; default data/migrations/postgres. */
  dir?: string;
  /** Longest wait for another instance's migrations (lock included) and longest one migration may run. */
  timeoutMs?: number;
}

/**
 * Applies the migrations not yet in schema_migrations; returns the versions it applied (none when
 * another instance got there first). Holds pg_advisory_lock on a connection of its own for the
 * whole run; the connection is closed at the end, which also releases the lock if an unlock failed.
 */
export async function applyPostgresMigrations(db: PostgresDatabase, options: PostgresMigrationOptions = {}): Promise<number[]> {
  const migrations = readMigrations(options.dir ?? defaultPostgresMigrationsDir());
  const timeoutMs = options.timeoutMs ?? 60_000;
  return db.session(async (session) => {
    // The pool's statement timeout is short for requests; waiting for the lock and migrating may take longer.
    await session.run(`SET statement_timeout = ${Math.trunc(timeoutMs)}`);
    await session.run(`SET idle_in_transaction_session_timeout = ${Math.trunc(timeoutMs)}`);
    await session.rows('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await session.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
    );
    const applied = new Set((await session.rows<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await session.run('BEGIN');
      try {
        // No parameters: the simple protocol, which runs a file of several statements.
        await session.run(migration.sql);
        await session.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
        await session.run('COMMIT');
      } catch (error) {
        await session.run('ROLLBACK').catch(() => undefined);
        throw new Error(
          `PostgreSQL migration ${String(migration.version).padStart(3, '0')}_${migration.name} failed: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      done.push(migration.version);
    }
    await session.rows('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    return done;
  });
}

export function defaultPostgresMigrationsDir(): string {
  return resourcePath('data/migrations/postgres');
}
