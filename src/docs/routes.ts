// The OpenAPI document at /api/openapi.json, the reference page at /docs (Swagger UI from npm, no CDN), and /docs/problems.

import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { DOCS_CACHE_CONTROL, PROBLEMS_PAGE_PATH } from '../../build/contract/http-policy.ts';
import { sendJson } from '../http/cache.ts';
import { type OpenApiConfig, openApiDocument } from './openapi.ts';
import { problemsPage } from './problems-page.ts';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const docsDir = path.resolve(import.meta.dirname, '../../public/docs');

/** Only what the page needs from swagger-ui-dist is exposed. */
const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

// The page loads nothing from elsewhere and sends no requests but to this origin.
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

export function createDocsRouter(config: OpenApiConfig): Router {
  // One canonical path per resource (decisions.md): literal segments as written, no trailing slash.
  const router = express.Router({ caseSensitive: true, strict: true });
  const documentBody = openApiDocument(config);
  const problemsHtml = problemsPage(config.publicBaseUrl);

  router.get('/', (_req, res) => {
    res.json({
      name: 'Church Data and Bible API',
      openapi: '/api/openapi.json',
      docs: '/docs',
      portal: '/portal/',
      problems: PROBLEMS_PAGE_PATH,
      bible: '/api/v1/bible/versions',
    });
  });
  router.get('/api/openapi.json', (req, res) => {
    sendJson(req, res, documentBody, { cacheControl: DOCS_CACHE_CONTROL });
  });
  router.get(PROBLEMS_PAGE_PATH, (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', DOCS_CACHE_CONTROL);
    res.type('html').send(problemsHtml);
  });
  router.get('/docs', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.sendFile(path.join(docsDir, 'index.html'), (error) => error && next(error));
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!SWAGGER_ASSETS.has(file)) return next();
    res.sendFile(path.join(swaggerUiDir, file), { maxAge: '1d' }, (error) => error && next(error));
  });
  router.use('/docs', express.static(docsDir, { index: false, maxAge: '1h' }));
  return router;
}
