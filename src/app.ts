// Composition root: builds the Express app from its parts, nothing else.
import express from 'express';
import type { Config } from './config.ts';
import type { Logger } from './http/logger.ts';
import { requestLog } from './http/request-log.ts';
import { methodGuard } from './http/method-guard.ts';
import { notFoundHandler, problemHandler } from './http/errors.ts';
import type { ChurchRepository } from './church/repository.ts';
import { createChurchRouter } from './church/routes.ts';
import type { AccountRepository } from './accounts/repository.ts';
import type { Fingerprinter } from './keys/fingerprint.ts';
import { createKeyAuth } from './keys/auth.ts';
import type { LimitStores } from './limits/stores.ts';
import { createKeyRateLimit } from './limits/key-limit.ts';
import type { BibleSource } from './bible/source.ts';
import { bibleCorsHeaders, createBibleRouter } from './bible/routes.ts';
import { createDocsRouter } from './docs/routes.ts';

/** Everything the app needs, made once by createServices (services.ts) or by a test. */
export interface AppServices {
  config: Readonly<Config>;
  logger: Logger;
  churches: ChurchRepository;
  keys: AccountRepository;
  fingerprinter: Fingerprinter;
  limitStores: LimitStores;
  bible: BibleSource;
}

export function createApp(services: AppServices): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // ETags are computed by our own cache middleware (strong, per representation).
  app.set('etag', false);
  app.set('trust proxy', services.config.trustProxy);
  app.set('query parser', 'simple');

  app.use(requestLog(services.logger));
  app.use('/api/v1/bible', bibleCorsHeaders);
  app.use(methodGuard);

  app.use(createDocsRouter());
  app.use('/api/v1/bible', createBibleRouter(services));
  app.use(
    '/api/public/v1/churches',
    createKeyAuth(services),
    createKeyRateLimit(services),
    createChurchRouter(services),
  );

  app.use(notFoundHandler);
  app.use(problemHandler(services.logger));
  return app;
}
