// The generated nginx rules, served by a real nginx over a tree written from the synthetic model, compared with the service.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPLACED_ENTRIES } from '../../../build/pipeline.ts';
import { precompress } from '../../../build/writers/compress.ts';
import { DEFAULT_ORIGIN, hostRewrites } from '../../../build/writers/host-rewrites.ts';
import { writeOutputs } from '../../../build/writers/output-dir.ts';
import { searchIndexes } from '../../../build/writers/search-index.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import { apiFetch, useDocumentOf } from '../../helpers/api-client.ts';
import { type BibleFixture, buildBibleFixture } from '../../helpers/bible-fixture.ts';
import { type NginxTestServer, startNginx } from '../../helpers/nginx.ts';
import { problemType, TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const NGINX = requirement('nginx').path;

describeWith(['nginx'], 'generated nginx config', () => {
  let dir = '';
  let nginx: NginxTestServer | undefined;
  let base = '';
  let bible: BibleFixture | undefined;
  let service: TestServer | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-nginx-'));
    const publicDir = join(dir, 'public');
    const versionHash = (info: { code: string }) => `version-${info.code}`;
    const tree = [...staticTree(syntheticVersions(), 'test-hash', versionHash), ...searchIndexes(syntheticVersions(), versionHash)];
    const files = [...tree, ...(await precompress(tree)), ...hostRewrites({ origin: DEFAULT_ORIGIN, publicBaseUrl: TEST_PUBLIC_BASE_URL })];
    await writeOutputs(publicDir, files, REPLACED_ENTRIES);
    // The service over the same synthetic Bible, to compare what both send; nginx proxies to it.
    bible = await buildBibleFixture();
    service = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    nginx = await startNginx(NGINX!, publicDir, Number(new URL(service.url).port));
    base = nginx.url;
    // nginx serves the same API from the static tree: its answers are checked against the service's document.
    useDocumentOf(base, service.url);
  });

  afterAll(async () => {
    await nginx?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
    await service?.close();
    bible?.remove();
  });

  it('serves the books of the requested language', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/books?lang=en`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { lang: string; books: unknown[] };
    expect(body.lang).toBe('en');
    expect(body.books[0]).toMatchObject({ usfm: 'GEN', abbr: 'Gen', chapters: 2 });
  });

  it('serves French books when no lang is given', async () => {
    const body = await (await apiFetch(`${base}/api/v1/bible/books`)).json();
    expect(body).toMatchObject({ lang: 'fr', version: 'LSG' });
  });

  it('matches abbreviations case-insensitively', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/gn/1`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ lang: 'fr', chapter: 1, book: { usfm: 'GEN', abbr: 'Gn' } });
  });

  it('accepts the USFM code as an alias in any language', async () => {
    const body = await (await apiFetch(`${base}/api/v1/bible/GEN/1?lang=en`)).json();
    expect(body).toMatchObject({ lang: 'en', version: 'KJV', book: { abbr: 'Gen' }, from: 1, to: 5 });
  });

  it('sends the precompressed gzip copy to a client that accepts it', async () => {
    // fetch() would decompress transparently; a raw request shows the encoding and size.
    const { request } = await import('node:http');
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      request(`${base}/api/v1/bible/books?lang=fr`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        response.resume();
        resolve({ ...response.headers, status: response.statusCode });
      })
        .on('error', reject)
        .end();
    });
    expect(headers).toMatchObject({ status: 200, 'content-encoding': 'gzip', etag: expect.stringMatching(/^"/) });
  });

  it("serves each version's download, the same bytes as the service, and its gzip copy, which decompresses to them", async () => {
    const { request } = await import('node:http');
    const raw = (url: string, headers: Record<string, string> = {}) =>
      new Promise<{ status?: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(url, { headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl']) {
      const [fromNginx, fromService] = await Promise.all([
        raw(`${base}/api/v1/bible/download?lang=${lang}`),
        raw(`${service!.url}/api/v1/bible/download?lang=${lang}`),
      ]);
      expect(fromNginx.status, lang).toBe(200);
      expect(fromNginx.body.equals(fromService.body), lang).toBe(true);
      expect(JSON.parse(fromNginx.body.toString('utf8')).version.lang).toBe(lang);
    }
    const identity = await raw(`${base}/api/v1/bible/download`);
    const gzip = await raw(`${base}/api/v1/bible/download`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers).toMatchObject({ 'content-encoding': 'gzip', 'content-type': 'application/json; charset=utf-8' });
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(JSON.parse(identity.body.toString('utf8')).version.lang).toBe('fr');
  });

  it('serves the search indexes as static files with the Bible caching and CORS, gzip to a client that accepts it', async () => {
    const index = await fetch(`${base}/bible-search/nl.json`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(index.headers.get('access-control-allow-origin')).toBe('*');
    expect(index.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(((await index.json()) as { lang: string }).lang).toBe('nl');
    const { request } = await import('node:http');
    const encoding = await new Promise<unknown>((resolve, reject) => {
      request(`${base}/bible-search/nl.json`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        response.resume();
        resolve(response.headers['content-encoding']);
      })
        .on('error', reject)
        .end();
    });
    expect(encoding).toBe('gzip');
    expect((await fetch(`${base}/bible-search/nl.json.gz`)).status).toBe(404);
    expect((await fetch(`${base}/bible-search/xx.json`)).status).toBe(404);
  });

  it('answers an unknown abbreviation with a 404 problem', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/xyz/1?lang=en`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await response.json()).toMatchObject({
      type: problemType('bible-book-not-found'),
      title: 'Unknown Bible book',
      status: 404,
      parameter: 'abbr',
    });
  });

  it('answers a chapter the book lacks with a 404 problem naming the chapter', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/gn/40`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      type: problemType('bible-chapter-not-found'),
      title: 'Unknown Bible chapter',
      status: 404,
      parameter: 'chapter',
    });
  });

  it('answers an unknown lang with a 400 problem', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/books?lang=xx`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await response.json()).toMatchObject({
      type: problemType('unknown-language'),
      title: 'Unknown Bible language',
      status: 400,
      parameter: 'lang',
    });
  });

  it('answers HEAD like GET without a body, and other methods with a 405 problem', async () => {
    const head = await apiFetch(`${base}/api/v1/bible/gn/1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await apiFetch(`${base}/api/v1/bible/gn/1`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toMatchObject({ type: problemType('method-not-allowed'), title: 'Method not allowed', status: 405 });
  });

  it('sends the Bible Cache-Control with stale-while-revalidate, the CORS headers, and nosniff on problems', async () => {
    const chapter = await apiFetch(`${base}/api/v1/bible/gn/1`);
    expect(chapter.headers.get('cache-control')).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(chapter.headers.get('access-control-expose-headers')).toBe('ETag, Retry-After, RateLimit, RateLimit-Policy');
    const problem = await apiFetch(`${base}/api/v1/bible/xyz/1`);
    expect(problem.headers.get('x-content-type-options')).toBe('nosniff');
    expect(problem.headers.get('allow')).toBeNull();
  });

  // Same request to nginx and to the service: the same status, HTTP policy and problem type.
  it.each([
    ['GET', '/api/v1/bible/versions'],
    ['GET', '/api/v1/bible/books?lang=en'],
    ['GET', '/api/v1/bible/books'],
    ['GET', '/api/v1/bible/gn/1'],
    ['HEAD', '/api/v1/bible/GEN/2?lang=en'],
    ['GET', '/api/v1/bible/xyz/1?lang=en'],
    ['GET', '/api/v1/bible/gn/40'],
    ['GET', '/api/v1/bible/books?lang=xx'],
    ['GET', '/api/v1/bible/download?lang=en'],
    ['HEAD', '/api/v1/bible/download'],
    ['GET', '/api/v1/bible/download?lang=xx'],
    ['POST', '/api/v1/bible/download?lang=en'],
    ['GET', '/bible-search/en.json'],
    ['HEAD', '/bible-search/fr.json'],
    ['PUT', '/bible-search/fr.json'],
    ['GET', '/api/v1/bible/gn/1?lang=xx'],
    ['POST', '/api/v1/bible/gn/1'],
    ['DELETE', '/api/v1/bible/versions'],
    ['PUT', '/api/v1/bible/books?lang=en'],
  ])('answers %s %s with the same headers as the service', async (method, path) => {
    const [fromNginx, fromService] = await Promise.all([apiFetch(base + path, { method }), apiFetch(service!.url + path, { method })]);
    expect(policyOf(fromNginx, await fromNginx.text())).toEqual(policyOf(fromService, await fromService.text()));
  });

  // A preflight on the static paths: nginx answers it as the service does (the service answers the proxied ones itself).
  it.each([
    ['/api/v1/bible/gn/1', { 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-reader, cache-control' }],
    ['/api/v1/bible/versions', { 'access-control-request-method': 'HEAD' }],
    ['/api/v1/bible/download?lang=nl', { 'access-control-request-method': 'GET', 'access-control-request-headers': 'cache-control' }],
    ['/bible-search/en.json', { 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-reader' }],
    ['/api/v1/bible/books?lang=en', { 'access-control-request-method': 'GET', 'access-control-request-headers': 'X-Reader' }],
    ['/api/v1/bible/gn/1', { 'access-control-request-method': 'DELETE' }],
    ['/api/v1/bible/gn/1', { 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-a, (b)' }],
  ])('answers a preflight on %s (%o) as the service does', async (path, headers) => {
    const withOrigin = { origin: 'https://reader.example', ...headers };
    const [fromNginx, fromService] = await Promise.all([options(base + path, withOrigin), options(service!.url + path, withOrigin)]);
    expect(fromNginx).toEqual(fromService);
  });

  it('answers an OPTIONS without Origin with a 405 problem', async () => {
    expect(await options(`${base}/api/v1/bible/gn/1`, { 'access-control-request-method': 'GET' })).toMatchObject({
      status: 405,
      allow: 'GET, HEAD',
    });
  });

  it('proxies passages, single verses and ranges to the service', async () => {
    for (const path of ['/api/v1/bible/passage?ref=Gn%201', '/api/v1/bible/gn/1/3', '/api/v1/bible/gn/1/1/3']) {
      const [fromNginx, fromService] = await Promise.all([apiFetch(base + path), apiFetch(service!.url + path)]);
      expect(fromNginx.status, path).toBe(200);
      expect(await fromNginx.text()).toBe(await fromService.text());
    }
  });
});

/** What both hosts must agree on: status, media type, caching, CORS, Allow, nosniff, and a problem's type. */
function policyOf(response: Response, text: string): Record<string, unknown> {
  const header = (name: string) => response.headers.get(name);
  const isProblem = header('content-type')?.startsWith('application/problem+json') ?? false;
  const problem = isProblem ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  return {
    status: response.status,
    mediaType: header('content-type')?.split(';')[0],
    cacheControl: header('cache-control'),
    allowOrigin: header('access-control-allow-origin'),
    exposeHeaders: header('access-control-expose-headers'),
    allow: header('allow'),
    noSniff: header('x-content-type-options'),
    vary: header('vary'),
    problem: problem && { type: problem.type, title: problem.title, status: problem.status, parameter: problem.parameter },
  };
}

/** An OPTIONS request over node:http (fetch would refuse to set Origin), reduced to what a preflight answer is made of. */
async function options(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    request(url, { method: 'OPTIONS', headers }, (response) => {
      response.resume();
      const header = (name: string) => response.headers[name] ?? null;
      resolve({
        status: response.statusCode,
        allowOrigin: header('access-control-allow-origin'),
        allowMethods: header('access-control-allow-methods'),
        allowHeaders: header('access-control-allow-headers'),
        maxAge: header('access-control-max-age'),
        allow: header('allow'),
      });
    })
      .on('error', reject)
      .end();
  });
}
