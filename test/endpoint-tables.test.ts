// Every endpoint of the API's tables is documented in the OpenAPI document, answered by the service, and (the Bible's) served by the host rules.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bibleRoutes } from '../build/contract/bible-routes.ts';
import { hostRewrites } from '../build/writers/host-rewrites.ts';
import { bibleEndpoints } from '../src/bible/endpoints.ts';
import { API_TABLES, openApiDocument } from '../src/docs/openapi.ts';
import type { Endpoint } from '../src/http/endpoint.ts';
import { createTestKey } from './helpers/api-key.ts';
import { type BibleFixture, buildBibleFixture } from './helpers/bible-fixture.ts';
import { exchange } from './helpers/http-exchange.ts';
import { staticHost } from './helpers/static-host.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';
import { vercelHost } from './helpers/vercel-host.ts';

/** A value for each parameter an endpoint of the tables has, that the test data holds: add one for a new parameter. */
const SAMPLES: Record<string, string> = {
  abbr: 'GEN',
  chapter: '1',
  from: '1',
  to: '2',
  verse: '1',
  slug: 'grace-paris',
  albumId: 'paques-2026',
  lang: 'en',
  q: 'terre',
  ref: 'Gn 1:1-2',
  book: 'GEN',
  testament: 'OT',
  page: '0',
  size: '2',
  type: 'book',
  date: '2026-01-02',
  langs: 'en,fr',
  text: 'See Gn 1:1-2 and John 3:16.',
};

/** The endpoint's path with a sample for each parameter, and every query parameter it reads. */
function sampleUrl(endpoint: Endpoint<unknown, unknown>): string {
  const filled = endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(sample(name, endpoint.path)));
  const query = endpoint.query.map((parameter) => `${parameter.name}=${encodeURIComponent(sample(parameter.name, endpoint.path))}`);
  return query.length === 0 ? filled : `${filled}?${query.join('&')}`;
}

function sample(name: string, where: string): string {
  const value = SAMPLES[name];
  if (value === undefined) throw new Error(`${where}: no sample value for the parameter ${name}; add one to SAMPLES`);
  return value;
}

const endpoints = API_TABLES.flatMap((table) => table.endpoints.map((endpoint) => ({ table, endpoint })));

describe('the endpoint tables', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let key: string;
  let publicDir: string;

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env, LOG_LEVEL: 'silent' });
    key = await createTestKey(server.services);
    // The fixture's tree with the host rules beside it, as a build writes them.
    publicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'endpoint-tables-'));
    fs.cpSync(bible.publicDir, publicDir, { recursive: true });
    for (const file of hostRewrites({ origin: 'https://origin.example', publicBaseUrl: server.services.config.publicBaseUrl })) {
      fs.mkdirSync(path.dirname(path.join(publicDir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(publicDir, file.path), file.content);
    }
  });

  afterAll(async () => {
    await server?.close();
    bible?.remove();
    if (publicDir) fs.rmSync(publicDir, { recursive: true, force: true });
  });

  it('hold each path once, and every operation id once', () => {
    const paths = endpoints.map(({ endpoint }) => endpoint.path);
    const ids = endpoints.map(({ endpoint }) => endpoint.operation.operationId);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(endpoints.length).toBe(21);
  });

  it.each(endpoints.map(({ endpoint }) => [endpoint.path, endpoint] as const))(
    '%s is documented: its operation, path and query parameters',
    (_path, endpoint) => {
      const document = openApiDocument(server.services.config) as {
        paths: Record<string, { get: { operationId: string; parameters: { name: string; in: string }[] } }>;
      };
      const operation = document.paths[endpoint.path]?.get;
      expect(operation?.operationId).toBe(endpoint.operation.operationId);
      expect(operation.parameters.map(({ name, in: where }) => `${where} ${name}`)).toEqual([
        ...(endpoint.params ?? []).map(({ name }) => `path ${name}`),
        ...endpoint.query.map(({ name }) => `query ${name}`),
      ]);
    },
  );

  it.each(endpoints.map(({ endpoint }) => [sampleUrl(endpoint), endpoint] as const))('%s is answered by its endpoint', async (url) => {
    const answer = await exchange(`${server.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.headers['x-request-id']).toBeDefined();
    expect([200, 503], `${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`).toContain(answer.status);
    if (answer.status === 503) expect(url).toBe('/readyz');
  });

  it.each(bibleEndpoints.endpoints.map((endpoint) => [sampleUrl(endpoint), endpoint] as const))(
    '%s is served by the host rules: its file of the tree, or the service',
    (url, endpoint) => {
      const route = Object.values(bibleRoutes).find((candidate) => candidate.path === endpoint.path);
      expect(route, endpoint.path).toBeDefined();
      const answer = staticHost(publicDir).answer(url);
      if (route && 'tree' in route) {
        expect(answer.status, url).toBe(200);
        expect(answer.file, url).toMatch(/^api\/v1\/bible\/(versions|[a-z]{2}\/)/);
      } else {
        // The host passes the query on with the request; the rule names the path.
        expect(answer).toMatchObject({ status: 200, proxiedTo: `https://origin.example${url.split('?')[0]}` });
      }
    },
  );

  it.each(bibleEndpoints.endpoints.map((endpoint) => [sampleUrl(endpoint), endpoint] as const))(
    '%s is served by the vercel.json rewrites: its file of the tree, or the service',
    (url, endpoint) => {
      const route = Object.values(bibleRoutes).find((candidate) => candidate.path === endpoint.path);
      const answer = vercelHost(publicDir).answer(url);
      if (route && 'tree' in route) {
        expect(answer.status, url).toBe(200);
        expect(answer.file, url).toMatch(/^api\/v1\/bible\/(versions|[a-z]{2}\/)/);
      } else {
        expect(answer).toMatchObject({ status: 200, proxiedTo: `https://origin.example${url.split('?')[0]}` });
      }
    },
  );

  it('list every Bible route the host rules serve', () => {
    expect(Object.values(bibleRoutes).map((route) => route.path)).toEqual(bibleEndpoints.endpoints.map((endpoint) => endpoint.path));
  });
});
