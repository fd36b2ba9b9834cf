// The reference page at /docs (Swagger UI from npm, no CDN), /docs/problems, and the index at /; the dispatcher serves the OpenAPI document itself (/api/openapi.json).

import express, { type Router } from 'express';
import { PROBLEMS_PAGE_PATH } from '../../build/contract/http-policy.ts';
import { DOCS_CACHE_CONTROL } from '../http/cache-policy.ts';
import { staticResources } from '../http/static-resources.ts';
import { readResourceText, resourcePath } from '../resources/resources.ts';
import { OPENAPI_PATH, type OpenApiConfig } from './openapi.ts';
import { problemsPage } from './problems-page.ts';

/** Only what the page needs from swagger-ui-dist is exposed. */
const SWAGGER_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'];
const DAY_SECONDS = 24 * 60 * 60;
const HOUR_SECONDS = 60 * 60;

// The page loads nothing from elsewhere and sends no requests but to this origin.
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

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
  router.use(
    '/docs/assets',
    staticResources(resourcePath('node_modules/swagger-ui-dist'), { maxAgeSeconds: DAY_SECONDS, only: SWAGGER_ASSETS, unknown: 'next' }),
  );
  router.use('/docs', staticResources(resourcePath('public/docs'), { maxAgeSeconds: HOUR_SECONDS, unknown: 'next' }));
  return router;
}
