// The MiniSearch example page (public/examples/bible-search.html): served by the service with the MiniSearch it installs, and in headless Chromium with no address outside loopback reachable, on the service and on another site.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const EXAMPLES_DIR = path.resolve(import.meta.dirname, '../../public/examples');
const PAGE_FILE = path.join(EXAMPLES_DIR, 'bible-search.html');
// The package's exports name no UMD file: it lies beside the CommonJS entry (dist/cjs/index.cjs).
const MINISEARCH_UMD_DIR = path.resolve(path.dirname(createRequire(import.meta.url).resolve('minisearch')), '../umd');

describe('the example page as the service serves it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DEMO_DATA: 'false' });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('loads its scripts from beside itself, never from another host', () => {
    const page = readFileSync(PAGE_FILE, 'utf8');
    const sources = [...page.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['minisearch/index.js']);
    expect(page).not.toMatch(/<(script|link)\b[^>]*\b(src|href)="(https?:)?\/\//);
  });

  test('answers the page and, beside it, the MiniSearch the project installs, byte for byte', async () => {
    const page = await fetch(`${server.url}/examples/bible-search.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toBe(readFileSync(PAGE_FILE, 'utf8'));
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'unsafe-inline'/);

    const script = await fetch(new URL('minisearch/index.js', page.url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(script.headers.get('etag')).toMatch(/^"/);
    expect(Buffer.from(await script.arrayBuffer()).equals(readFileSync(path.join(MINISEARCH_UMD_DIR, 'index.js')))).toBe(true);

    // Only that file of the package.
    expect((await fetch(`${server.url}/examples/minisearch/index.js.map`)).status).toBe(404);
    expect((await fetch(`${server.url}/examples/minisearch/SearchableMap.js`)).status).toBe(404);
  });
});

describeWith(['chromium'], 'the MiniSearch example page in headless Chromium, with nothing reachable but loopback', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let site: Listening;
  let browser: Browser;

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false' });
    // A developer's own site, on another origin than the API: the page with MiniSearch copied beside it, as the page says.
    const app = express();
    app.use('/examples/minisearch', express.static(MINISEARCH_UMD_DIR));
    app.use('/examples', express.static(EXAMPLES_DIR));
    site = await listenOnLoopback(app);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
    bible?.remove();
  });

  /** A browser context in which every request to anything but the two test servers fails, as with no internet access. */
  async function offlineContext(refused: string[]): Promise<BrowserContext> {
    const context = await browser.newContext();
    const allowed = [new URL(server.url).origin, new URL(site.url).origin];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (allowed.includes(new URL(url).origin)) return route.continue();
      refused.push(url);
      return route.abort('internetdisconnected');
    });
    return context;
  }

  /** Opens the page at `pageUrl`; resolves with the hits shown once the search ends, and every request refused. */
  async function searchOnPage(pageUrl: string): Promise<{ status: string; hits: { ref: string; text: string }[]; refused: string[] }> {
    const refused: string[] = [];
    const context = await offlineContext(refused);
    try {
      const page = await context.newPage();
      await page.goto(pageUrl);
      await page
        .locator('#status')
        .filter({ hasText: /verse|Could not/ })
        .waitFor({ timeout: 30_000 });
      // The texts of the first hits arrive after the count.
      await page.locator('#hits li:nth-child(-n+10) .text:empty').waitFor({ state: 'detached', timeout: 30_000 });
      const hits = [];
      for (const item of await page.locator('#hits li').all()) {
        hits.push({ ref: (await item.getAttribute('data-ref')) ?? '', text: (await item.locator('.text').textContent()) ?? '' });
      }
      return { status: (await page.textContent('#status')) ?? '', hits, refused };
    } finally {
      await context.close();
    }
  }

  const onSite = (query: Record<string, string>) =>
    `${site.url}/examples/bible-search.html?${new URLSearchParams({ api: server.url, ...query })}`;

  test('served by the service itself, finds the verse in French whatever the case and accents of the words typed', async () => {
    const { status, hits, refused } = await searchOnPage(`${server.url}/examples/bible-search.html?lang=fr&q=%C3%89TERNEL+bon`);
    expect(status).toBe('1 verse in LSG (best first).');
    expect(hits).toEqual([{ ref: 'GEN 1:1', text: "Au commencement, Dieu créa les cieux et la terre. L'Éternel est bon." }]);
    expect(refused).toEqual([]);
  });

  test('on another site, ANDs the words, the last one also as a prefix, in another language', async () => {
    const { hits, refused } = await searchOnPage(onSite({ lang: 'en', q: 'god lov' }));
    expect(hits.map((hit) => hit.ref)).toEqual(['JHN 3:16']);
    expect(hits[0]?.text).toBe('en For God so loved the world (John 3:16).');
    expect(refused).toEqual([]);
    const nothing = await searchOnPage(onSite({ lang: 'en', q: 'god nowhere' }));
    expect([nothing.status, nothing.hits]).toEqual(['0 verses in KJV (best first).', []]);
  });

  test('refuses an API address that is not a web address', async () => {
    const { status, hits } = await searchOnPage(onSite({ api: 'javascript:alert(1)', lang: 'en', q: 'god' }));
    expect([status, hits]).toEqual(['Could not search: the API must be an http or https address.', []]);
  });
});
