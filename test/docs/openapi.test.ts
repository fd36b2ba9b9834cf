// The OpenAPI document is valid 3.1, covers every endpoint of the spec, and the /docs page renders it from local assets.

import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openApiDocument } from '../../src/docs/openapi.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

/** The settings of a server started with no environment. */
const DEFAULTS = loadConfig({});

const SPEC_PATHS = [
  '/api/public/v1/churches/{slug}',
  '/api/public/v1/churches/{slug}/events',
  '/api/public/v1/churches/{slug}/posts',
  '/api/public/v1/churches/{slug}/live',
  '/api/public/v1/churches/{slug}/library',
  '/api/public/v1/churches/{slug}/store',
  '/api/public/v1/churches/{slug}/gallery',
  '/api/public/v1/churches/{slug}/gallery/{albumId}/photos',
  '/api/v1/bible/versions',
  '/api/v1/bible/books',
  '/api/v1/bible/{abbr}/{chapter}',
  '/api/v1/bible/{abbr}/{chapter}/{from}/{to}',
  '/api/v1/bible/search',
  // Beyond the spec's 13 (issue 12): one verse by URL, passages, and a whole version in one file.
  '/api/v1/bible/{abbr}/{chapter}/{verse}',
  '/api/v1/bible/passage',
  '/api/v1/bible/download',
  // Issue 25: parallel versions, references in a text, the verse of the day.
  '/api/v1/bible/parallel',
  '/api/v1/bible/references',
  '/api/v1/bible/verse-of-the-day',
];

/** The probes for monitors and load balancers (issue 14), beside the API's own endpoints. */
const PROBE_PATHS = ['/healthz', '/readyz'];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument(DEFAULTS));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists the 13 endpoints of the spec, the 3 of issue 12 and the 2 probes, each with GET only', () => {
    const paths = openApiDocument(DEFAULTS).paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths).sort()).toEqual([...SPEC_PATHS, ...PROBE_PATHS].sort());
    for (const path of [...SPEC_PATHS, ...PROBE_PATHS]) expect(Object.keys(paths[path])).toEqual(['get']);
  });

  it('resolves every schema it refers to', () => {
    const document = openApiDocument(DEFAULTS);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    const refs = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of refs) expect(schemas, `schema ${name}`).toHaveProperty(name);
  });

  it('needs the key on church endpoints and no key on Bible endpoints', () => {
    const paths = openApiDocument(DEFAULTS).paths as Record<string, { get: { security: unknown[]; responses: Record<string, unknown> } }>;
    for (const path of SPEC_PATHS) {
      const operation = paths[path].get;
      if (path.startsWith('/api/public/')) {
        expect(operation.security).toEqual([{ apiKey: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '429']));
      } else {
        expect(operation.security).toEqual([]);
      }
    }
  });
});

describe('the documentation served by the service', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the document at /api/openapi.json', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toHaveLength(SPEC_PATHS.length + PROBE_PATHS.length);
  });

  it('serves /docs as a page whose scripts and styles come from this origin only', async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    // Scripts and stylesheets; links to other pages (the developer portal) are not assets.
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/')).toBe(true);
      const assetResponse = await fetch(`${server.url}${asset}`);
      expect(assetResponse.status, asset).toBe(200);
      expect((await assetResponse.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
  });

  it('does not serve other files of the vendor folder (its README)', async () => {
    const response = await fetch(`${server.url}/docs/vendor/README.md`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
