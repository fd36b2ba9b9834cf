// The generated _worker.js under Cloudflare's own local Pages runtime (wrangler pages dev: workerd and the Pages asset server), with the service as its origin.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANGS } from '../../../build/contract/books.ts';
import { hostRewrites } from '../../../build/writers/host-rewrites.ts';
import { type BibleFixture, buildBibleFixture } from '../../helpers/bible-fixture.ts';
import { PAGES_RULE_COMPLAINTS, type PagesDev, startPagesDev } from '../../helpers/pages-dev.ts';
import { TEST_PUBLIC_BASE_URL } from '../../helpers/problem.ts';
import { describeWith } from '../../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

describeWith(['wrangler'], 'the generated site under wrangler pages dev', () => {
  let bible: BibleFixture;
  let service: TestServer;
  let pages: PagesDev | undefined;
  let site = '';

  beforeAll(async () => {
    bible = await buildBibleFixture();
    service = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    // The host's files as the build writes them for Pages (--host pages), beside the tree the fixture wrote.
    for (const file of hostRewrites({ origin: service.url, publicBaseUrl: TEST_PUBLIC_BASE_URL, target: 'pages' })) {
      fs.mkdirSync(path.dirname(path.join(bible.publicDir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(bible.publicDir, file.path), file.content);
    }
    pages = await startPagesDev(bible.publicDir);
    site = pages.url;
  }, 120_000);

  afterAll(async () => {
    pages?.stop();
    await service?.close();
    bible?.remove();
  });

  it('compiles the worker and reads _routes.json, with no rule of any file refused', () => {
    expect(pages!.log()).toContain('Compiled Worker successfully');
    expect(pages!.log()).not.toMatch(PAGES_RULE_COMPLAINTS);
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
