// CORS on Bible paths over real HTTP and in headless Chromium: preflights answered 204, every other OPTIONS 405, church paths without CORS.
import express from 'express';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

let bible: BibleFixture;
let server: TestServer;

beforeAll(async () => {
  bible = await buildBibleFixture();
  server = await startTestServer({ ...bible.env });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

const preflight = (path: string, headers: Record<string, string>) => rawRequest(`${server.url}${path}`, headers, 'OPTIONS');
const ORIGIN = 'https://reader.example';

describe('CORS preflight over HTTP', () => {
  test('a preflight for GET on a Bible path answers 204 with methods, the requested headers and a max age', async () => {
    const res = await preflight('/api/v1/bible/Gn/1', {
      origin: ORIGIN,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'x-reader, cache-control',
    });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD');
    expect(res.headers['access-control-allow-headers']).toBe('x-reader, cache-control');
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(res.headers.vary).toContain('Access-Control-Request-Headers');
  });

  test('a preflight for HEAD, and one without requested headers, on any Bible path', async () => {
    for (const path of ['/api/v1/bible/versions', '/api/v1/bible/search?q=x', '/api/v1/bible/passage?ref=Gn%201']) {
      const res = await preflight(path, { origin: ORIGIN, 'access-control-request-method': 'HEAD' });
      expect(res.status, path).toBe(204);
      expect(res.headers['access-control-allow-headers'], path).toBeUndefined();
    }
  });

  test.each([
    ['no Origin', { 'access-control-request-method': 'GET' }],
    ['no Access-Control-Request-Method', { origin: ORIGIN }],
    ['a method other than GET or HEAD', { origin: ORIGIN, 'access-control-request-method': 'DELETE' }],
    [
      'requested headers that are not header names',
      { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-a, (b)' },
    ],
  ])('an OPTIONS with %s still answers 405 with Allow', async (_case, headers) => {
    const res = await preflight('/api/v1/bible/Gn/1', headers);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });

  test('church paths answer a preflight 405, without any CORS header', async () => {
    const res = await preflight('/api/public/v1/churches/grace-paris', { origin: ORIGIN, 'access-control-request-method': 'GET' });
    expect(res.status).toBe(405);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  test('other methods on Bible paths still answer 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      expect((await rawRequest(`${server.url}/api/v1/bible/Gn/1`, { origin: ORIGIN }, method)).status, method).toBe(405);
    }
  });
});

describeWith(['chromium'], 'CORS in headless Chromium', () => {
  let page: Listening;

  beforeAll(async () => {
    // Another origin (another port): a blank page from which the reader's script fetches.
    const app = express();
    app.get('/', (_req, res) => {
      res.type('html').send('<!doctype html><title>reader</title>');
    });
    page = await listenOnLoopback(app);
  });

  afterAll(async () => {
    await page?.close();
  });

  test('a chapter fetched from another origin with a custom header passes its preflight and arrives', async () => {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(page.url);
      const chapterUrl = `${server.url}/api/v1/bible/JHN/3?lang=en`;
      const answer = await tab.evaluate(async (url) => {
        const response = await fetch(url, { headers: { 'X-Reader-Version': '1', 'Cache-Control': 'no-cache' } });
        const body = (await response.json()) as { verses: { verse: number }[] };
        return { status: response.status, etag: response.headers.get('etag'), verses: body.verses.map((verse) => verse.verse) };
      }, chapterUrl);
      expect(answer).toMatchObject({ status: 200, verses: [16, 17] });
      expect(answer.etag).toBeTruthy();
      const lines = server.logs.map((line) => JSON.parse(line) as { method?: string; path?: string; status?: number });
      expect(lines).toContainEqual(expect.objectContaining({ method: 'OPTIONS', path: '/api/v1/bible/JHN/3?lang=en', status: 204 }));
    } finally {
      await browser.close();
    }
  });
});
