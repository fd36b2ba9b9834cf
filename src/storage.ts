// The service's storage: every repository over the configured database (db/connect.ts), the one place that picks them per backend.
import { createPostgresAccountRepository } from './accounts/postgres-repository.ts';
import type { AccountRepository } from './accounts/repository.ts';
import { createSqliteAccountRepository } from './accounts/sqlite-repository.ts';
import { createPostgresChurchRepository } from './church/postgres-repository.ts';
import type { ChurchRepository } from './church/repository.ts';
import { createSqliteChurchRepository } from './church/sqlite-repository.ts';
import type { Config } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { DEFAULT_LOCK_WAIT_MS, waitingForLocks } from './db/lock-wait.ts';
import type { Db } from './db/open.ts';
import { pingDatabase } from './db/ping.ts';
import type { PostgresDatabase } from './db/postgres/database.ts';
import type { Logger } from './http/logger.ts';
import type { CredentialRepository } from './portal/storage/credential-repository.ts';
import type { MailRepository } from './portal/storage/mail-repository.ts';
import { createPostgresCredentialRepository } from './portal/storage/postgres-credential-repository.ts';
import { createPostgresMailRepository } from './portal/storage/postgres-mail-repository.ts';
import { createPostgresSessionRepository } from './portal/storage/postgres-session-repository.ts';
import { createPostgresTokenRepository } from './portal/storage/postgres-token-repository.ts';
import type { SessionRepository } from './portal/storage/session-repository.ts';
import { createSqliteCredentialRepository } from './portal/storage/sqlite-credential-repository.ts';
import { createSqliteMailRepository } from './portal/storage/sqlite-mail-repository.ts';
import { createSqliteSessionRepository } from './portal/storage/sqlite-session-repository.ts';
import { createSqliteTokenRepository } from './portal/storage/sqlite-token-repository.ts';
import type { TokenRepository } from './portal/storage/token-repository.ts';

/** Every repository of the service, over one database. */
export interface Storage {
  backend: 'sqlite' | 'postgres';
  churches: ChurchRepository;
  accounts: AccountRepository;
  sessions: SessionRepository;
  tokens: TokenRepository;
  credentials: CredentialRepository;
  /** The portal's outgoing e-mail queue. */
  mail: MailRepository;
  /**
   * Resolves when the database answers now; rejects (StorageUnavailableError for PostgreSQL) when it
   * does not. For a readiness check: an instance whose database is gone should leave the load balancer.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The repositories over the configured database, opened and migrated by connectDatabase (a bad
 * setting is a ConfigError naming the variable). The CLI passes its own application name.
 *
 * @example const storage = await openStorage(config, logger); await storage.churches.counts();
 */
export async function openStorage(config: Readonly<Config>, logger?: Logger, applicationName = 'church-api'): Promise<Storage> {
  const connected = await connectDatabase(config, logger, applicationName);
  return connected.backend === 'postgres'
    ? postgresStorage(connected.db)
    : sqliteStorage(connected.db, { logger, lockWaitMs: config.databaseLockWaitMs });
}

export interface SqliteStorageOptions {
  /** Where a "last used" write that met a lock is reported. */
  logger?: Logger;
  /** How long a call waits, off the event loop, for another connection's lock (DATABASE_LOCK_WAIT_MS); default 1 s. */
  lockWaitMs?: number;
}

/**
 * The repositories over an open, migrated SQLite database; close() closes it. A call that meets
 * another connection's lock is retried on timers for up to `lockWaitMs`, then fails with
 * StorageUnavailableError (db/lock-wait.ts): with the service's busy_timeout of 0, no call waits on
 * the event loop.
 */
export function sqliteStorage(db: Db, { logger, lockWaitMs = DEFAULT_LOCK_WAIT_MS }: SqliteStorageOptions = {}): Storage {
  const ping = pingDatabase(db);
  const waiting = <R extends object>(repository: R) => waitingForLocks(repository, lockWaitMs);
  return {
    backend: 'sqlite',
    churches: waiting(createSqliteChurchRepository(db)),
    accounts: waiting(createSqliteAccountRepository(db, { logger })),
    sessions: waiting(createSqliteSessionRepository(db)),
    tokens: waiting(createSqliteTokenRepository(db)),
    credentials: waiting(createSqliteCredentialRepository(db)),
    mail: waiting(createSqliteMailRepository(db)),
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
    mail: createPostgresMailRepository(db),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}
