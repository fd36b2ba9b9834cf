// Makes the app's services from the config: databases, repositories, stores. The only place that opens things.
import type { AppServices } from './app.ts';
import type { Config } from './config.ts';
import type { Logger } from './http/logger.ts';
import { openDatabase } from './db/open.ts';
import { createSqliteChurchRepository } from './church/sqlite-repository.ts';
import { loadDemoDataIfEmpty } from './church/demo-data.ts';
import { createSqliteKeyRepository } from './keys/sqlite-repository.ts';
import { createFingerprinter, loadOrCreateSecret } from './keys/fingerprint.ts';
import { createLimitStores } from './limits/stores.ts';
import { openBibleSource } from './bible/source.ts';

export interface RunningServices extends AppServices {
  /** Closes databases and the Redis connection. */
  close(): Promise<void>;
}

export async function createServices(config: Readonly<Config>, logger: Logger): Promise<RunningServices> {
  const db = openDatabase(config.databasePath);
  if (config.demoData) {
    const loaded = loadDemoDataIfEmpty(db);
    if (loaded) logger.info({ ...loaded }, 'demo data loaded into an empty database');
  }
  const limitStores = await createLimitStores(config, logger);
  const bible = openBibleSource(config, logger);
  return {
    config,
    logger,
    churches: createSqliteChurchRepository(db),
    keys: createSqliteKeyRepository(db),
    fingerprinter: createFingerprinter(loadOrCreateSecret(config, logger)),
    limitStores,
    bible,
    async close() {
      await limitStores.close();
      bible.close();
      db.close();
    },
  };
}
