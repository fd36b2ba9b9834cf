// The generated _worker.js under Cloudflare's own local Pages runtime (wrangler pages dev: workerd and the Pages asset server), with the service as its origin.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANGS } from '../../../build/contract/books.ts';
import { hostRewrites } from '../../../build/writers/host-rewrites.ts';
import { type BibleFixture, buildBibleFixture } from '../../helpers/bible-fixture.ts';
import { TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/** The newest date the pinned wrangler's runtime accepts (today's is refused offline). */
const COMPATIBILITY_DATE = '2026-05-01';

describeWith(['wrangler'], 'the generated site under wrangler pages dev', () => {
  let bible: BibleFixture;
  let service: TestServer;
  let pages: ChildProcess | undefined;
  let site = '';
  let log = '';

  beforeAll(async () => {
    bible = await buildBibleFixture();
    service = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    // The host's files as the build writes them for Pages (--host pages), beside the tree the fixture wrote.
    for (const file of hostRewrites({ origin: service.url, publicBaseUrl: TEST_PUBLIC_BASE_URL, target: 'pages' })) {
      fs.mkdirSync(path.dirname(path.join(bible.publicDir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(bible.publicDir, file.path), file.content);
    }
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    // Run inside the folder, as a user would: the folder is the whole site.
    pages = spawn(
      requirement('wrangler').path!,
      ['pages', 'dev', '.', '--ip', '127.0.0.1', '--port', String(port), `--compatibility-date=${COMPATIBILITY_DATE}`],
      { cwd: bible.publicDir, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    pages.stdout!.on('data', (chunk) => (log += chunk));
    pages.stderr!.on('data', (chunk) => (log += chunk));
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (log.includes('Ready on')) {
          clearInterval(check);
          resolve();
        } else if (pages!.exitCode !== null) {
          clearInterval(check);
          reject(new Error(`wrangler pages dev stopped:\n${log}`));
        }
      }, 100);
    });
  }, 120_000);

  afterAll(async () => {
    pages?.kill('SIGTERM');
    await service?.close();
    bible?.remove();
  });

  it('compiles the worker and reads _routes.json, with no rule of any file refused', () => {
    expect(log).toContain('Compiled Worker successfully');
    expect(log).not.toMatch(/invalid _routes|Invalid _routes/i);
    // What Pages says of a _redirects or _headers it reads: "Found N invalid redirect rules", "Expected exactly 2 or 3 …".
    expect(log).not.toMatch(/invalid (redirect|header) rule|Expected exactly|_redirects|_headers/i);
  });

  it("answers every language's chapters by the spec's URL with the service's bytes, CORS and caching", async () => {
    for (const lang of LANGS) {
      const { books } = JSON.parse(fs.readFileSync(path.join(bible.publicDir, `api/v1/bible/${lang}/books.json`), 'utf8')) as {
        books: { usfm: string; abbr: string; chapters: number }[];
      };
      for (const book of books) {
        for (const url of [
          `/api/v1/bible/${book.abbr}/${book.chapters}?lang=${lang}`,
          `/api/v1/bible/${book.usfm.toLowerCase()}/1?lang=${lang.toUpperCase()}`,
        ]) {
          const [got, expected] = await Promise.all([fetch(site + url), fetch(service.url + url)]);
          expect(got.status, url).toBe(200);
          expect(await got.text(), url).toBe(await expected.text());
          for (const name of ['content-type', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers']) {
            expect(got.headers.get(name), `${url} ${name}`).toBe(expected.headers.get(name));
          }
        }
      }
    }
  });

  it("answers errors with the service's own status and problem: unknown book in each language, unknown lang, chapter past the end, another method", async () => {
    const urls = [
      ...LANGS.map((lang) => `/api/v1/bible/Xyz/3?lang=${lang}`),
      '/api/v1/bible/Xyz/3',
      '/api/v1/bible/GEN/1?lang=xx',
      '/api/v1/bible/books?lang=de',
      '/api/v1/bible/GEN/40?lang=en',
      '/api/v1/bible/GEN/01',
    ];
    for (const url of urls) {
      const [got, expected] = await Promise.all([fetch(site + url), fetch(service.url + url)]);
      expect(got.status, url).toBe(expected.status);
      expect(got.status, url).toBeGreaterThanOrEqual(400);
      expect(got.headers.get('content-type'), url).toBe(expected.headers.get('content-type'));
      expect(await got.json(), url).toEqual(await expected.json());
    }
    const post = await fetch(`${site}/api/v1/bible/GEN/1`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('answers a CORS preflight 204 with the methods and the headers asked for', async () => {
    const response = await fetch(`${site}/api/v1/bible/JHN/3?lang=en`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://reader.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toMatch(/GET/);
    expect(response.headers.get('access-control-allow-headers')).toBe('if-none-match');
  });

  it('sends a range, a verse, a passage and search through to the origin, query included', async () => {
    for (const url of [
      '/api/v1/bible/GEN/1/1/2?lang=en',
      '/api/v1/bible/JHN/3/16?lang=nl',
      '/api/v1/bible/passage?ref=Gn%201:1&lang=fr',
      '/api/v1/bible/search?q=terre',
    ]) {
      const [got, expected] = await Promise.all([fetch(site + url), fetch(service.url + url)]);
      expect(got.status, url).toBe(expected.status);
      expect(await got.text(), url).toBe(await expected.text());
    }
  });

  it('serves the search indexes as JSON with CORS', async () => {
    const response = await fetch(`${site}/bible-search/pt.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
