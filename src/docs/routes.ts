// The reference page at /docs (Scalar's API reference, vendored in public/docs/vendor/, no CDN), /docs/problems, the index at /, and the example page of search
// in the browser at /examples/ (MiniSearch from npm, no CDN); the dispatcher serves the OpenAPI document itself (/api/openapi.json).

import express, { type Router } from 'express';
import { PROBLEMS_PAGE_PATH } from '../../build/contract/http-policy.ts';
import { DOCS_CACHE_CONTROL } from '../http/cache-policy.ts';
import { staticResources } from '../http/static-resources.ts';
import { readResourceText, resourcePath } from '../resources/resources.ts';
import { OPENAPI_PATH, type OpenApiConfig } from './openapi.ts';
import { problemsPage } from './problems-page.ts';

const DAY_SECONDS = 24 * 60 * 60;
/** Scalar's API reference, dist/browser/standalone.js of @scalar/api-reference. */
const DOCS_RENDERER = 'scalar-api-reference.js';
const HOUR_SECONDS = 60 * 60;

// The page loads nothing from elsewhere and sends no requests but to this origin.
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/**
 * The example page is one file to copy, so its script and style are inline; it reads the index
 * and verses from the API its visitor names (`?api=`), so it may connect anywhere.
 */
const EXAMPLES_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src *; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function createDocsRouter(config: OpenApiConfig): Router {
  // One canonical path per resource (decisions.md): literal segments as written, no trailing slash.
  const router = express.Router({ caseSensitive: true, strict: true });
  const problemsHtml = problemsPage(config.publicBaseUrl);
  const pageHtml = readResourceText(resourcePath('public/docs/index.html'));

  router.get('/', (_req, res) => {
    res.json({
      name: 'Church Data and Bible API',
      openapi: OPENAPI_PATH,
      docs: '/docs',
      portal: '/portal/',
      problems: PROBLEMS_PAGE_PATH,
      bible: '/api/v1/bible/versions',
    });
  });
  router.get(PROBLEMS_PAGE_PATH, (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', DOCS_CACHE_CONTROL);
    res.type('html').send(problemsHtml);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'public, max-age=0');
    res.type('html').send(pageHtml);
  });
  // The renderer, one file (its version and how to update it: public/docs/vendor/README.md).
  router.use(
    '/docs/vendor',
    staticResources(resourcePath('public/docs/vendor'), { maxAgeSeconds: DAY_SECONDS, only: [DOCS_RENDERER], unknown: 'next' }),
  );
  router.use('/docs', staticResources(resourcePath('public/docs'), { maxAgeSeconds: HOUR_SECONDS, unknown: 'next' }));
  router.use('/examples', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', EXAMPLES_CSP);
    next();
  });
  // MiniSearch's UMD build (a global `MiniSearch`, no module loader), the copy the build writes the indexes with; the
  // page loads it from beside itself (minisearch/index.js), as it would on a developer's own site.
  router.use(
    '/examples/minisearch',
    staticResources(resourcePath('node_modules/minisearch/dist/umd'), { maxAgeSeconds: HOUR_SECONDS, only: ['index.js'], unknown: 'next' }),
  );
  router.use('/examples', staticResources(resourcePath('public/examples'), { maxAgeSeconds: HOUR_SECONDS, unknown: 'next' }));
  // The references widget, loaded by <script src> from other sites: it fetches the Bible from the origin it came from.
  router.use('/widget', staticResources(resourcePath('public/widget'), { maxAgeSeconds: HOUR_SECONDS, unknown: 'next' }));
  return router;
}
