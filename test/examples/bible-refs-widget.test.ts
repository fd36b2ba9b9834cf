// The references widget (public/widget/bible-refs.js): small, served by the service, and in headless Chromium on another site's page, references in five languages become links whose verses show in an accessible popover.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const WIDGET_FILE = path.resolve(import.meta.dirname, '../../public/widget/bible-refs.js');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('the widget file', () => {
  test('is at most 10 KB gzipped, with no import, require or other host', () => {
    const source = readFileSync(WIDGET_FILE);
    expect(gzipSync(source, { level: 9 }).length).toBeLessThanOrEqual(10 * 1024);
    expect(source.toString()).not.toMatch(/\bimport\b|\brequire\(|https?:\/\/(?!api\.example\.org)/);
  });
});

describeWith(['chromium'], 'the widget on another site, in headless Chromium', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let site: Listening;
  let browser: Browser;

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false' });
    const page = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Lectures</title></head><body><main>
<h1>Lectures du jour</h1>
<p>Lisez Jn 3,16 et le Ps 1.</p>
<section lang="en"><h2>English</h2><p>Read John 3:16 and Genesis 1:1-2.</p></section>
<section lang="es"><h2>Español</h2><p>Lea Juan 3:16.</p></section>
<section lang="pt"><h2>Português</h2><p>Leia Jo 3,16.</p></section>
<section lang="nl"><h2>Nederlands</h2><p>Lees Joh. 3:16.</p></section>
<p><code>Jn 3,16</code> dans du code reste du code.</p>
</main><script src="${server.url}/widget/bible-refs.js" data-lang="fr"></script></body></html>`;
    // Another origin than the API's: a port of its own.
    site = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
    bible?.remove();
  });

  /** Every URL the page asked for, in order. */
  let requested: string[] = [];

  async function openPage(): Promise<Page> {
    const page = await browser.newPage();
    requested = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(site.url);
    await page.locator('a.bible-refs-link').nth(6).waitFor({ timeout: 30_000 });
    return page;
  }

  test('references in all five languages become links; code is left alone', async () => {
    const page = await openPage();
    try {
      const links = await page.locator('a.bible-refs-link').allTextContents();
      expect(links).toEqual(['Jn 3,16', 'Ps 1', 'John 3:16', 'Genesis 1:1-2', 'Juan 3:16', 'Jo 3,16', 'Joh. 3:16']);
      expect(await page.locator('code a').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  test('hovering John 3:16 shows its verse in a popover; leaving hides it', async () => {
    const page = await openPage();
    try {
      const john = page.locator('a.bible-refs-link', { hasText: 'John 3:16' });
      await john.hover();
      const popover = page.getByRole('tooltip');
      await expect.poll(() => popover.textContent(), { timeout: 15_000 }).toContain('en For God so loved the world (John 3:16).');
      expect(await popover.textContent()).toContain('John 3:16');
      expect(await john.getAttribute('aria-describedby')).toBe(await popover.getAttribute('id'));
      await page.mouse.move(0, 0);
      await expect.poll(() => popover.isHidden()).toBe(true);
    } finally {
      await page.close();
    }
  });

  test('keyboard focus shows the verses (French, from the static chapter file), Escape hides them; axe finds no serious violation', async () => {
    const page = await openPage();
    try {
      await page.keyboard.press('Tab');
      const popover = page.getByRole('tooltip');
      await expect.poll(() => popover.textContent(), { timeout: 15_000 }).toContain('fr For God so loved the world (John 3:16).');
      type Focused = { document: { activeElement: { textContent: string | null } | null } };
      expect(await page.evaluate(() => (globalThis as unknown as Focused).document.activeElement?.textContent)).toBe('Jn 3,16');
      // Keyless, from the script's origin: the static chapter file for a passage of one chapter.
      expect(requested).toContain(`${server.url}/api/v1/bible/JHN/3?lang=fr`);
      expect(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith(site.url))).toEqual([]);
      await page.addScriptTag({ content: AXE_SOURCE });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
        return (await axe.run()).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      });
      expect(violations).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => popover.isHidden()).toBe(true);
    } finally {
      await page.close();
    }
  });
});
