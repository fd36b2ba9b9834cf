// The service's storage: every repository over one backend, SQLite (DATABASE_PATH) or PostgreSQL (DATABASE_URL), chosen here only.
import { createPostgresAccountRepository } from '../accounts/postgres-repository.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import { createSqliteAccountRepository } from '../accounts/sqlite-repository.ts';
import { createPostgresChurchRepository } from '../church/postgres-repository.ts';
import type { ChurchRepository } from '../church/repository.ts';
import { createSqliteChurchRepository } from '../church/sqlite-repository.ts';
import { type Config, ConfigError } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import type { CredentialRepository } from '../portal/storage/credential-repository.ts';
import { createPostgresCredentialRepository } from '../portal/storage/postgres-credential-repository.ts';
import { createPostgresSessionRepository } from '../portal/storage/postgres-session-repository.ts';
import { createPostgresTokenRepository } from '../portal/storage/postgres-token-repository.ts';
import type { SessionRepository } from '../portal/storage/session-repository.ts';
import { createSqliteCredentialRepository } from '../portal/storage/sqlite-credential-repository.ts';
import { createSqliteSessionRepository } from '../portal/storage/sqlite-session-repository.ts';
import { createSqliteTokenRepository } from '../portal/storage/sqlite-token-repository.ts';
import type { TokenRepository } from '../portal/storage/token-repository.ts';
import { MigrationError } from './migrate.ts';
import { type Db, openDatabase } from './open.ts';
import { pingDatabase } from './ping.ts';
import { openPostgresDatabase, type PostgresDatabase, type PostgresSettings } from './postgres/database.ts';
import { applyPostgresMigrations } from './postgres/migrate.ts';

/** Every repository of the service, over one database. */
export interface Storage {
  backend: 'sqlite' | 'postgres';
  churches: ChurchRepository;
  accounts: AccountRepository;
  sessions: SessionRepository;
  tokens: TokenRepository;
  credentials: CredentialRepository;
  /**
   * Resolves when the database answers now; rejects (StorageUnavailableError for PostgreSQL) when it
   * does not. For a readiness check: an instance whose database is gone should leave the load balancer.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when DATABASE_URL
 * is set (migrations under an advisory lock, so instances starting together migrate once), else
 * the SQLite file. A database that cannot be opened or reached within DATABASE_CONNECT_TIMEOUT_MS
 * is a ConfigError naming the variable, without the password.
 *
 * @example const storage = await openStorage(config, logger); await storage.churches.counts();
 */
export async function openStorage(config: Readonly<Config>, logger?: Logger, applicationName = 'church-api'): Promise<Storage> {
  if (config.postgres) return openPostgresStorage({ ...config.postgres, applicationName }, logger);
  return sqliteStorage(openSqlite(config.databasePath), logger);
}

/** The repositories over an open, migrated SQLite database; close() closes it. */
export function sqliteStorage(db: Db, logger?: Logger): Storage {
  const ping = pingDatabase(db);
  return {
    backend: 'sqlite',
    churches: createSqliteChurchRepository(db),
    accounts: createSqliteAccountRepository(db, { logger }),
    sessions: createSqliteSessionRepository(db),
    tokens: createSqliteTokenRepository(db),
    credentials: createSqliteCredentialRepository(db),
    async ping() {
      ping();
    },
    async close() {
      db.close();
    },
  };
}

/** The repositories over a PostgreSQL database that is reachable and migrated; close() ends the pool. */
export function postgresStorage(db: PostgresDatabase): Storage {
  return {
    backend: 'postgres',
    churches: createPostgresChurchRepository(db),
    accounts: createPostgresAccountRepository(db),
    sessions: createPostgresSessionRepository(db),
    tokens: createPostgresTokenRepository(db),
    credentials: createPostgresCredentialRepository(db),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}

async function openPostgresStorage(settings: PostgresSettings, logger: Logger | undefined): Promise<Storage> {
  const db = openPostgresDatabase(settings, logger);
  try {
    await db.ping();
    const applied = await applyPostgresMigrations(db);
    if (applied.length > 0) logger?.info({ versions: applied }, 'PostgreSQL migrations applied');
    return postgresStorage(db);
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
    return openDatabase(file);
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
