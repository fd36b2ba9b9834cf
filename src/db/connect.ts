// The configured database, opened and migrated: the SQLite file (DATABASE_PATH) or PostgreSQL (DATABASE_URL), chosen here only.
import { type Config, ConfigError } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { MigrationError } from './migrate.ts';
import { type Db, openDatabase } from './open.ts';
import { openPostgresDatabase, type PostgresDatabase, type PostgresSettings } from './postgres/database.ts';
import { loadPostgresDriver } from './postgres/driver.ts';
import { applyPostgresMigrations } from './postgres/migrate.ts';

/** An open database whose schema is up to date, as its backend's driver: the repositories are made over it (src/storage.ts). */
export type ConnectedDatabase = { backend: 'sqlite'; db: Db } | { backend: 'postgres'; db: PostgresDatabase };

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when DATABASE_URL
 * is set (migrations under an advisory lock, so instances starting together migrate once), else
 * the SQLite file. A database that cannot be opened or reached within DATABASE_CONNECT_TIMEOUT_MS
 * is a ConfigError naming the variable, without the password.
 *
 * @example const connected = await connectDatabase(config, logger); if (connected.backend === 'sqlite') connected.db.prepare(…)
 */
export async function connectDatabase(
  config: Readonly<Config>,
  logger?: Logger,
  applicationName = 'church-api',
): Promise<ConnectedDatabase> {
  if (config.postgres) return { backend: 'postgres', db: await connectPostgres({ ...config.postgres, applicationName }, logger) };
  return { backend: 'sqlite', db: openSqlite(config.databasePath) };
}

async function connectPostgres(settings: PostgresSettings, logger: Logger | undefined): Promise<PostgresDatabase> {
  const db = openPostgresDatabase(await loadPostgresDriver(), settings, logger);
  try {
    await db.ping();
    const applied = await applyPostgresMigrations(db);
    if (applied.length > 0) logger?.info({ versions: applied }, 'PostgreSQL migrations applied');
    return db;
  } catch (error) {
    await db.close();
    const password = decodeURIComponent(new URL(settings.url).password);
    const message = error instanceof Error ? error.message : String(error);
    const reason = password === '' ? message : message.replaceAll(password, '***');
    throw new ConfigError('DATABASE_URL', `cannot use PostgreSQL at ${describeTarget(settings.url)} (${reason})`, { cause: error });
  }
}

function openSqlite(file: string): Db {
  try {
    const db = openDatabase(file);
    // Never wait for another process's lock inside a call: better-sqlite3 would stop the event loop
    // for the whole wait. The repositories retry on timers instead (lock-wait.ts, src/storage.ts).
    db.pragma('busy_timeout = 0');
    return db;
  } catch (error) {
    if (error instanceof MigrationError) {
      // Not the setting's fault, but the same one-line refusal: the operator reads what failed and that nothing changed.
      throw new ConfigError('DATABASE_PATH', `cannot upgrade the database ${file}: ${error.message}`, { cause: error });
    }
    throw new ConfigError('DATABASE_PATH', `cannot open the database ${file} (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}

/** host:port/database of a connection URL: what an operator needs to recognise it, never the user or password. */
export function describeTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
}
