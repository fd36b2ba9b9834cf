// AppServices: everything the app is built from, as types only: what the composition root (app.ts) hands each part.

import type { AccountRepository } from './accounts/repository.ts';
import type { AccountService } from './accounts/service.ts';
import type { BibleSource } from './bible/source.ts';
import type { ChurchRepository } from './church/repository.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { ReadinessCheck } from './health/readiness.ts';
import type { Logger } from './http/logger.ts';
import type { Fingerprinter } from './keys/fingerprint.ts';
import type { LimitStores } from './limits/stores.ts';
import type { PortalServices } from './portal/portal-services.ts';

/** Everything the app needs, made once by createServices (services.ts) or by a test. */
export interface AppServices {
  config: Readonly<Config>;
  logger: Logger;
  churches: ChurchRepository;
  /** Developers and their keys as stored; the rules over them are accountService's. */
  accountRepository: AccountRepository;
  /** The account rules (keys, addresses, names): what the portal uses, as the CLI does. */
  accountService: AccountService;
  /** The developer portal's storage, mailer and identity provider. */
  portal: PortalServices;
  fingerprinter: Fingerprinter;
  limitStores: LimitStores;
  bible: BibleSource;
  /** What /readyz checks: the database, the Bible build, Redis when configured (a backend adds its own). */
  readiness: readonly ReadinessCheck[];
  /** What "now" is for upcoming events and key last-used times (the rate limiters keep their stores' own time). */
  clock: Clock;
}
