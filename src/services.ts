// Makes the app's services from the config: databases, repositories, stores. The only place that opens things.

import { createAccountService } from './accounts/service.ts';
import { createSqliteAccountRepository } from './accounts/sqlite-repository.ts';
import type { AppServices, Clock } from './app-services.ts';
import { openBibleSource } from './bible/source.ts';
import { loadDemoDataIfEmpty } from './church/demo-data.ts';
import { createSqliteChurchRepository } from './church/sqlite-repository.ts';
import { type Config, ConfigError } from './config.ts';
import { MigrationError } from './db/migrate.ts';
import { type Db, openDatabase } from './db/open.ts';
import { pingDatabase } from './db/ping.ts';
import { bibleCheck, databaseCheck, redisCheck } from './health/checks.ts';
import type { Logger } from './http/logger.ts';
import { createFingerprinter, loadOrCreateSecret } from './keys/fingerprint.ts';
import { createLimitStores } from './limits/stores.ts';
import { createOidcProvider } from './portal/identity-provider.ts';
import { createMailer } from './portal/mailer/create-mailer.ts';
import { createSqliteCredentialRepository } from './portal/storage/sqlite-credential-repository.ts';
import { createSqliteSessionRepository } from './portal/storage/sqlite-session-repository.ts';
import { createSqliteTokenRepository } from './portal/storage/sqlite-token-repository.ts';
import { checkConfiguredFiles } from './startup-checks.ts';

export interface ServiceOptions {
  /** The app's clock; default the system clock. Tests pass a fixed one. */
  clock?: Clock;
}

/** The system clock: what the service runs with. */
export const systemClock: Clock = { now: () => new Date() };

export interface RunningServices extends AppServices {
  /** Closes databases and the Redis connection. */
  close(): Promise<void>;
}

/**
 * Opens everything in an order that writes nothing until it is known to work: check the files the
 * config names, connect to Redis, then open (create) the database and the fingerprint secret.
 * A bad setting is a ConfigError naming its variable, and whatever was opened is closed again.
 */
export async function createServices(
  config: Readonly<Config>,
  logger: Logger,
  { clock = systemClock }: ServiceOptions = {},
): Promise<RunningServices> {
  checkConfiguredFiles(config);
  const limitStores = await createLimitStores(config, logger);
  let db: Db | undefined;
  try {
    db = openConfiguredDatabase(config.databasePath);
    const churches = createSqliteChurchRepository(db);
    if (config.demoData) {
      const loaded = await loadDemoDataIfEmpty(churches, clock.now());
      if (loaded) logger.info({ ...loaded }, 'demo data loaded into an empty database');
    }
    const fingerprinter = createFingerprinter(loadOrCreateSecret(config, logger));
    const bible = openBibleSource(config, logger);
    const opened = db;
    const keys = createSqliteAccountRepository(opened, { logger });
    const mailer = createMailer(config, logger);
    return {
      config,
      logger,
      churches,
      keys,
      accounts: createAccountService({ repository: keys, fingerprinter, now: () => clock.now() }),
      portal: {
        sessions: createSqliteSessionRepository(opened),
        tokens: createSqliteTokenRepository(opened),
        credentials: createSqliteCredentialRepository(opened),
        mailer,
        identityProvider: config.oidc ? createOidcProvider(config.oidc) : undefined,
      },
      fingerprinter,
      limitStores,
      bible,
      readiness: [databaseCheck(pingDatabase(opened)), bibleCheck(bible), ...redisCheck(limitStores)],
      clock,
      async close() {
        mailer.close();
        await limitStores.close();
        await bible.close();
        opened.close();
      },
    };
  } catch (error) {
    db?.close();
    await limitStores.close();
    throw error;
  }
}

function openConfiguredDatabase(file: string): Db {
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
