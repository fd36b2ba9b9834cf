// Makes the app's services from the config: databases, repositories, stores. The only place that opens things.

import { createAccountService } from './accounts/service.ts';
import type { AppServices } from './app-services.ts';
import { type BibleSourceOptions, openBibleSource } from './bible/source.ts';
import { loadDemoDataIfEmpty } from './church/demo-data.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { bibleCheck, databaseCheck, redisCheck } from './health/checks.ts';
import type { Logger } from './http/logger.ts';
import { createFingerprinter, loadOrCreateSecret } from './keys/fingerprint.ts';
import { createLimitStores } from './limits/stores.ts';
import { createOidcProvider } from './portal/identity-provider.ts';
import { createMailer } from './portal/mailer/create-mailer.ts';
import { createMailComposer } from './portal/mailer/mail-composer.ts';
import { createMailSender } from './portal/mailer/mail-sender.ts';
import { createSealer } from './portal/sealing.ts';
import { checkConfiguredFiles, checkListenHost } from './startup-checks.ts';
import { openStorage, type Storage } from './storage.ts';

export interface ServiceOptions {
  /** The app's clock; default the system clock. Tests pass a fixed one. */
  clock?: Clock;
  /** How the Bible source re-checks its build (interval and its clock); the defaults in service. Tests control them. */
  bible?: BibleSourceOptions;
}

export interface RunningServices extends AppServices {
  /** Closes databases and the Redis connection. */
  close(): Promise<void>;
}

/**
 * Opens everything in an order that writes nothing until it is known to work: check the files the
 * config names, connect to Redis, then open (create) the database (SQLite, or PostgreSQL when
 * DATABASE_URL is set: reached and migrated) and the fingerprint secret.
 * A bad setting is a ConfigError naming its variable, and whatever was opened is closed again.
 */
export async function createServices(
  config: Readonly<Config>,
  logger: Logger,
  { clock = systemClock, bible: bibleOptions }: ServiceOptions = {},
): Promise<RunningServices> {
  checkConfiguredFiles(config);
  await checkListenHost(config.host);
  const limitStores = await createLimitStores(config, logger);
  let storage: Storage | undefined;
  try {
    storage = await openStorage(config, logger);
    const { churches, accounts: accountRepository, sessions, tokens, credentials, mail: mailRepository } = storage;
    if (config.demoData) {
      const loaded = await loadDemoDataIfEmpty(churches, clock.now());
      if (loaded) logger.info({ ...loaded }, 'demo data loaded into an empty database');
    }
    const fingerprinter = createFingerprinter(loadOrCreateSecret(config, logger));
    const bible = openBibleSource(config, logger, bibleOptions);
    const opened = storage;
    const mailer = createMailer(config, logger);
    const accountService = createAccountService({
      repository: accountRepository,
      fingerprinter,
      now: () => clock.now(),
      reservedMatching: config.reservedEmailMatching,
    });
    const mailSender = createMailSender({
      repository: mailRepository,
      mailer,
      composer: createMailComposer(accountService, config.portalUrl),
      sealer: createSealer(fingerprinter, 'outgoing mail v1'),
      concurrency: mailer.kind === 'smtp' ? config.smtpMaxConnections : 1,
      maxAttempts: config.mailMaxAttempts,
      retryBaseMs: config.mailRetryBaseMs,
      pollIntervalMs: config.mailPollIntervalMs,
      // Connection, greeting, then the exchange of one message: three waits of at most SMTP_TIMEOUT_MS each.
      attemptTimeoutMs: 3 * config.smtpTimeoutMs + 1_000,
      logger,
    });
    mailSender.start();
    return {
      config,
      logger,
      churches,
      accountRepository,
      accountService,
      portal: {
        sessions,
        tokens,
        credentials,
        mailer,
        mail: mailSender,
        identityProvider: config.oidc ? createOidcProvider(config.oidc) : undefined,
      },
      fingerprinter,
      limitStores,
      bible,
      readiness: [
        databaseCheck(() => opened.ping()),
        ...(config.readyzBible ? [bibleCheck(bible, config)] : []),
        ...redisCheck(limitStores),
      ],
      clock,
      async close() {
        await mailSender.close();
        await limitStores.close();
        await bible.close();
        await opened.close();
      },
    };
  } catch (error) {
    await storage?.close();
    await limitStores.close();
    throw error;
  }
}
