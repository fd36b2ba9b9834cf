// Composition root: builds the Express app from its parts, nothing else.
import type { IncomingMessage } from 'node:http';
import express from 'express';
import type { AppServices } from './app-services.ts';
import { bibleCorsHeaders, bibleCorsPreflight } from './bible/cors.ts';
import { createBibleFastPath } from './bible/fast-path.ts';
import { createBibleRouter } from './bible/routes.ts';
import { createSearchIndexRouter } from './bible/search-index-routes.ts';
import { createChurchAnswers } from './church/answers.ts';
import { createChurchFastPath } from './church/fast-path.ts';
import { createChurchRouter } from './church/routes.ts';
import { createDocsRouter } from './docs/routes.ts';
import { createHealthRouter, HEALTH_PATH, READINESS_PATH } from './health/routes.ts';
import { clientAddress, type TrustProxy } from './http/client-address.ts';
import { notFoundHandler, problemHandler } from './http/errors.ts';
import { putInFront } from './http/http-server.ts';
import { methodGuard } from './http/method-guard.ts';
import { requestLog } from './http/request-log.ts';
import { createKeyAuthenticator, keyAuthMiddleware } from './keys/auth.ts';
import { createBibleLimit } from './limits/bible-limit.ts';
import { createInvalidKeyThrottle } from './limits/invalid-key-throttle.ts';
import { createKeyLimit, keyLimitMiddleware } from './limits/key-limit.ts';
import { createPortalRouter } from './portal/router.ts';
import { PORTAL_PATH } from './portal/views/layout.ts';

/** Where the church endpoints are mounted. */
const CHURCH_API_PATH = '/api/public/v1/churches';

export function createApp(services: AppServices): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // ETags are computed by our own cache middleware (strong, per representation).
  app.set('etag', false);
  app.set('trust proxy', services.config.trustProxy);
  app.set('query parser', 'simple');
  // One canonical path per resource (decisions.md): `/API/V1/…` and a trailing slash are 404, not the same resource.
  // The routers are made with the same two options.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // One per-address Bible limiter for the routes below and the fast path: one count per request, whichever answers it.
  const bibleLimit = createBibleLimit(services);
  // The same for the church API: one key auth (its invalid-key throttle), one key limit, one set of answers.
  const churchAnswers = createChurchAnswers(services);
  const keyAuth = createKeyAuthenticator({ ...services, invalidKeyThrottle: createInvalidKeyThrottle(services) });
  const keyLimit = createKeyLimit(services);

  // Probes come every few seconds: their successful answers are logged at debug, not info.
  app.use(requestLog(services.logger, { quietPaths: [HEALTH_PATH, READINESS_PATH] }));
  // The church API first, with its own method guard: no other router answers under its prefix, and its requests
  // (every one keyed and counted) then pass no other router's layers on their way.
  app.use(CHURCH_API_PATH, createChurchRouter(churchAnswers, [methodGuard, keyAuthMiddleware(keyAuth), keyLimitMiddleware(keyLimit)]));
  // Before the method guard: the portal's forms post; it answers its own errors as HTML pages.
  app.use(PORTAL_PATH, createPortalRouter(services));
  app.use('/api/v1/bible', bibleCorsHeaders, bibleCorsPreflight);
  app.use('/bible-search', bibleCorsHeaders, bibleCorsPreflight);
  app.use(methodGuard);

  // No key, no rate limit: monitors and load balancers probe from one address.
  app.use(createHealthRouter(services));
  app.use(createDocsRouter(services.config));
  app.use('/api/v1/bible', createBibleRouter(services, bibleLimit));
  app.use('/bible-search', createSearchIndexRouter(services));

  app.use(notFoundHandler);
  app.use(problemHandler(services.logger, services.config.publicBaseUrl));

  // Church, chapter and range reads skip Express's per-request work: the fast paths answer them as the routes above would.
  const trust: TrustProxy = app.get('trust proxy fn');
  const front = {
    logger: services.logger,
    publicBaseUrl: services.config.publicBaseUrl,
    clientAddress: (req: IncomingMessage) => clientAddress(req, trust),
  };
  putInFront(
    app,
    createChurchFastPath({ ...front, answers: churchAnswers, keyAuth, keyLimit }),
    createBibleFastPath({ ...front, bible: services.bible, bibleLimit }),
  );
  return app;
}
