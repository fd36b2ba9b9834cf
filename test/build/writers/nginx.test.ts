// The generated nginx rules, served by a real nginx over a tree written from the synthetic model, compared with the service.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPLACED_ENTRIES } from '../../../build/pipeline.ts';
import { precompress } from '../../../build/writers/compress.ts';
import { DEFAULT_ORIGIN, hostRewrites, NGINX_MAPS_PATH } from '../../../build/writers/host-rewrites.ts';
import { writeOutputs } from '../../../build/writers/output-dir.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import { apiFetch, useDocumentOf } from '../../helpers/api-client.ts';
import { type BibleFixture, buildBibleFixture } from '../../helpers/bible-fixture.ts';
import { problemType, TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

const NGINX = requirement('nginx').path;

describeWith(['nginx'], 'generated nginx config', () => {
  let dir = '';
  let nginx: ChildProcess | undefined;
  let base = '';
  let stderr = '';
  let bible: BibleFixture | undefined;
  let service: TestServer | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-nginx-'));
    const publicDir = join(dir, 'public');
    const tree = staticTree(syntheticVersions(), 'test-hash', (info) => `version-${info.code}`);
    const files = [...tree, ...(await precompress(tree)), ...hostRewrites({ origin: DEFAULT_ORIGIN, publicBaseUrl: TEST_PUBLIC_BASE_URL })];
    await writeOutputs(publicDir, files, REPLACED_ENTRIES);
    const port = await freePort();
    const upstreamPort = await freePort();
    await mkdir(join(dir, 'logs'));
    await writeFile(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'master_process off;',
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'logs/error.log')} warn;`,
        'events { worker_connections 64; }',
        'http {',
        `    access_log ${join(dir, 'logs/access.log')};`,
        `    client_body_temp_path ${join(dir, 'body')};`,
        `    proxy_temp_path ${join(dir, 'proxy')};`,
        `    fastcgi_temp_path ${join(dir, 'fastcgi')};`,
        `    uwsgi_temp_path ${join(dir, 'uwsgi')};`,
        `    scgi_temp_path ${join(dir, 'scgi')};`,
        `    upstream bible_api { server 127.0.0.1:${upstreamPort}; }`,
        `    include ${join(publicDir, NGINX_MAPS_PATH)};`,
        '    server {',
        `        listen 127.0.0.1:${port};`,
        `        root ${publicDir};`,
        `        include ${join(publicDir, 'nginx-bible.conf')};`,
        '    }',
        '}',
        '',
      ].join('\n'),
    );
    nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs/error.log')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    nginx.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    base = `http://127.0.0.1:${port}`;
    await waitUntilListening(
      base,
      () => stderr,
      () => nginx?.exitCode !== null,
    );
    // The service over the same synthetic Bible, to compare what both send.
    bible = await buildBibleFixture();
    service = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    // nginx serves the same API from the static tree: its answers are checked against the service's document.
    useDocumentOf(base, service.url);
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
    await service?.close();
    bible?.remove();
  });

  it('serves the books of the requested language', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/books?lang=en`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
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

  it('answers an unknown abbreviation with a 404 problem', async () => {
    const response = await apiFetch(`${base}/api/v1/bible/xyz/1?lang=en`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
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
    expect(response.headers.get('content-type')).toBe('application/problem+json');
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

  it('proxies passages and single verses to the service', async () => {
    // As for ranges below: 502 from the empty upstream port proves nginx proxied.
    expect((await fetch(`${base}/api/v1/bible/passage?ref=Gn%201`)).status).toBe(502);
    expect((await fetch(`${base}/api/v1/bible/gn/1/3`)).status).toBe(502);
  });

  it('proxies ranges to the service', async () => {
    // The upstream port has nothing listening: nginx answers 502, which proves it proxied.
    // nginx's own 502 page, not an answer of the API: not checked against the document.
    const response = await fetch(`${base}/api/v1/bible/gn/1/1/3`);
    expect(response.status).toBe(502);
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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilListening(base: string, log: () => string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !exited()) {
    try {
      await fetch(`${base}/api/v1/bible/versions`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nginx did not start: ${log()}`);
}
