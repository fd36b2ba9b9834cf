// Makes the app's services from the config: databases, repositories, stores. The only place that opens things.
import type { AppServices } from './app-services.ts';
import type { Config } from './config.ts';
import type { Logger } from './http/logger.ts';
import { openDatabase } from './db/open.ts';
import { createSqliteChurchRepository } from './church/sqlite-repository.ts';
import { loadDemoDataIfEmpty } from './church/demo-data.ts';
import { createSqliteAccountRepository } from './accounts/sqlite-repository.ts';
import { createFingerprinter, loadOrCreateSecret } from './keys/fingerprint.ts';
import { createLimitStores } from './limits/stores.ts';
import { openBibleSource } from './bible/source.ts';
import { createAccountService } from './accounts/service.ts';
import { createSqliteSessionRepository } from './portal/storage/sqlite-session-repository.ts';
import { createSqliteTokenRepository } from './portal/storage/sqlite-token-repository.ts';
import { createSqliteCredentialRepository } from './portal/storage/sqlite-credential-repository.ts';
import { createMailer } from './portal/mailer/create-mailer.ts';
import { createOidcProvider } from './portal/identity-provider.ts';

export interface RunningServices extends AppServices {
  /** Closes databases and the Redis connection. */
  close(): Promise<void>;
}

export async function createServices(config: Readonly<Config>, logger: Logger): Promise<RunningServices> {
  const db = openDatabase(config.databasePath);
  const churches = createSqliteChurchRepository(db);
  if (config.demoData) {
    const loaded = await loadDemoDataIfEmpty(churches);
    if (loaded) logger.info('demo data loaded into an empty database', { ...loaded });
  }
  const limitStores = await createLimitStores(config, logger);
  const bible = openBibleSource(config, logger);
  const keys = createSqliteAccountRepository(db);
  const fingerprinter = createFingerprinter(loadOrCreateSecret(config, logger));
  const mailer = createMailer(config, logger);
  return {
    config,
    logger,
    churches,
    keys,
    accounts: createAccountService({ repository: keys, fingerprinter }),
    portal: {
      sessions: createSqliteSessionRepository(db),
      tokens: createSqliteTokenRepository(db),
      credentials: createSqliteCredentialRepository(db),
      mailer,
      identityProvider: config.oidc ? createOidcProvider(config.oidc) : undefined,
    },
    fingerprinter,
    limitStores,
    bible,
    async close() {
      mailer.close();
      await limitStores.close();
      bible.close();
      db.close();
    },
  };
}
