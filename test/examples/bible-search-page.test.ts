// The MiniSearch example page (public/examples/bible-search.html) in headless Chromium: served by another site, it loads an index from the service and finds the verse.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const EXAMPLES_DIR = path.resolve(import.meta.dirname, '../../public/examples');
/** The CDN address the page loads MiniSearch from; the test answers it with the npm package's file (no network here). */
const MINISEARCH_CDN = 'https://cdn.jsdelivr.net/npm/minisearch@7.2.0/dist/umd/index.js';
// The package's exports name no UMD file: it lies beside the CommonJS entry (dist/cjs/index.cjs).
const MINISEARCH_FILE = path.resolve(path.dirname(createRequire(import.meta.url).resolve('minisearch')), '../umd/index.js');

describeWith(['chromium'], 'the MiniSearch example page in headless Chromium', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let site: Listening;
  let browser: Browser;

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false' });
    // A developer's own site, on another origin than the API: the index crosses origins, as it would.
    const app = express();
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

  /** Opens the page with its query, MiniSearch answered from node_modules; resolves with the hits shown once the search ends. */
  async function searchOnPage(query: Record<string, string>): Promise<{ status: string; hits: { ref: string; text: string }[] }> {
    const page = await browser.newPage();
    try {
      await page.route(MINISEARCH_CDN, (route) =>
        route.fulfill({
          body: readFileSync(MINISEARCH_FILE),
          contentType: 'text/javascript',
          // The page loads it with crossorigin="anonymous" and an integrity hash: both must hold.
          headers: { 'access-control-allow-origin': '*' },
        }),
      );
      await page.goto(`${site.url}/examples/bible-search.html?${new URLSearchParams({ api: server.url, ...query })}`);
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
      return { status: (await page.textContent('#status')) ?? '', hits };
    } finally {
      await page.close();
    }
  }

  test('finds the verse in French whatever the case and accents of the words typed', async () => {
    const { status, hits } = await searchOnPage({ lang: 'fr', q: 'ÉTERNEL bon' });
    expect(status).toBe('1 verse in LSG (best first).');
    expect(hits).toEqual([{ ref: 'GEN 1:1', text: "Au commencement, Dieu créa les cieux et la terre. L'Éternel est bon." }]);
  });

  test('ANDs the words, the last one also as a prefix, in another language', async () => {
    const { hits } = await searchOnPage({ lang: 'en', q: 'god lov' });
    expect(hits.map((hit) => hit.ref)).toEqual(['JHN 3:16']);
    expect(hits[0]?.text).toBe('en For God so loved the world (John 3:16).');
    const nothing = await searchOnPage({ lang: 'en', q: 'god nowhere' });
    expect([nothing.status, nothing.hits]).toEqual(['0 verses in KJV (best first).', []]);
  });
});
