// Composition root: the one dispatcher, serving the endpoint tables, in front of the pages app (Express: portal, /docs); each built from its parts, nothing else.
import type { RequestListener } from 'node:http';
import express from 'express';
import packageJson from '../package.json' with { type: 'json' };
import type { AppServices } from './app-services.ts';
import { bibleCors } from './bible/cors.ts';
import { bibleEndpoints } from './bible/endpoints.ts';
import { createSearchIndexRouter } from './bible/search-index-routes.ts';
import { createChurchAnswers } from './church/answers.ts';
import { churchEndpoints } from './church/endpoints.ts';
import { OPENAPI_PATH, openApiDocument } from './docs/openapi.ts';
import { createDocsRouter } from './docs/routes.ts';
import { healthEndpoints, readinessOf } from './health/endpoints.ts';
import { prepareJson } from './http/cache.ts';
import { DOCS_CACHE_CONTROL } from './http/cache-policy.ts';
import type { TrustProxy } from './http/client-address.ts';
import { createDispatcher } from './http/dispatcher.ts';
import { served } from './http/endpoint.ts';
import { endpointCaller } from './http/endpoint-call.ts';
import { notFoundHandler, problemHandler } from './http/errors.ts';
import { methodGuard } from './http/method-guard.ts';
import { createKeyAuthenticator } from './keys/auth.ts';
import { createBibleLimit } from './limits/bible-limit.ts';
import { createInvalidKeyThrottle } from './limits/invalid-key-throttle.ts';
import { createKeyLimit } from './limits/key-limit.ts';
import { createMcpLimit } from './limits/mcp-limit.ts';
import { mcpEndpoints } from './mcp/endpoints.ts';
import { createPortalRouter } from './portal/router.ts';
import { PORTAL_PATH } from './portal/views/layout.ts';

/** Where the API lives: every request under it is the dispatcher's, never the pages'. */
const API_ROOT = '/api';

/**
 * The service's request listener (createHttpServer serves it): the dispatcher answers the API from
 * the church, Bible and probe tables and MCP at /mcp over the same church and Bible tables, with one
 * key check (its invalid-key throttle), one key limit and one per-address limit of each kind per app,
 * and hands everything else to the pages app.
 */
export function createApp(services: AppServices): RequestListener {
  const pages = createPages(services);
  const church = served(churchEndpoints, { answers: createChurchAnswers(services) });
  const bible = served(bibleEndpoints, {
    bible: services.bible,
    passageMaxVerses: services.config.biblePassageMaxVerses,
    clock: services.clock,
  });
  const tables = [church, bible, served(healthEndpoints, { readiness: readinessOf(services.readiness, services.logger) })];
  const document = openApiDocument(
    services.config,
    tables.map(({ table }) => table),
  );
  const keyCheck = createKeyAuthenticator({ ...services, invalidKeyThrottle: createInvalidKeyThrottle(services) });
  const limiters = { key: createKeyLimit(services), address: createBibleLimit(services), mcp: createMcpLimit(services) };
  // MCP's tools answer through the church and Bible tables, with the church table's key check and key limit.
  const mcp = served(mcpEndpoints, {
    bible: endpointCaller(bible),
    church: endpointCaller(church),
    keyCheck,
    keyLimiter: limiters.key,
    logger: services.logger,
    publicBaseUrl: services.config.publicBaseUrl,
    version: packageJson.version,
  });
  return createDispatcher({
    tables: [...tables, mcp],
    apiRoot: API_ROOT,
    document: { path: OPENAPI_PATH, body: prepareJson(document), cache: { cacheControl: DOCS_CACHE_CONTROL, etag: true } },
    keyCheck,
    limiters,
    // The address the pages see as req.ip is the one the API counts and logs.
    trust: pages.get('trust proxy fn') as TrustProxy,
    logger: services.logger,
    publicBaseUrl: services.config.publicBaseUrl,
    pages,
  });
}

/** The pages: the developer portal, /docs and the index at /, the search index files; problem+json for their errors. */
function createPages(services: AppServices): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // ETags are made by our own senders (strong, per representation).
  app.set('etag', false);
  app.set('trust proxy', services.config.trustProxy);
  app.set('query parser', 'simple');
  // One canonical path per resource (decisions.md): `/DOCS` and a trailing slash are 404, not the same resource.
  // The routers are made with the same two options.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  // Before the method guard: the portal's forms post; it answers its own errors as HTML pages.
  app.use(PORTAL_PATH, createPortalRouter(services));
  app.use('/bible-search', bibleCors);
  app.use(methodGuard);
  app.use(createDocsRouter(services.config));
  app.use('/bible-search', createSearchIndexRouter(services));
  app.use(notFoundHandler);
  app.use(problemHandler(services.logger, services.config.publicBaseUrl));
  return app;
}
