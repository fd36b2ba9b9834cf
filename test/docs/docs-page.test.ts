// The /docs page in headless Chromium (playwright-core, Debian's chromium): Scalar renders every operation from the vendored file, a Bible request is sent from the page and answers, a church request is never sent, nothing is asked of another origin, axe-core finds no serious violation.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describeWith(['chromium'], 'the docs page in headless Chromium', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  /** Every request the page made, as method and URL. */
  const requests: { method: string; url: string; authorization?: string }[] = [];

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('request', (request) =>
      requests.push({ method: request.method(), url: request.url(), authorization: request.headers().authorization }),
    );
    await page.goto(`${server.url}/docs`);
    await showEveryOperation();
  }, 120_000);

  /** Waits until the last operation of the document (the probes) is on the page: Scalar renders after the sidebar. */
  async function showEveryOperation(): Promise<void> {
    await page.waitForSelector('[id$="/GET/readyz"]', { timeout: 60_000 });
  }

  /** Opens an operation's "Test Request" panel and presses Send. */
  async function sendFromPage(path: string): Promise<void> {
    const operation = page.locator(`[id$="/GET${path}"]`).first();
    await operation.scrollIntoViewIfNeeded();
    await operation.locator('button:has-text("Test Request")').first().click();
    await page.locator('button:has-text("Send")').first().click();
  }

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    bible?.remove();
  });

  it('is served with a CSP that allows this origin only', async () => {
    const response = await fetch(`${server.url}/docs`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('says on its first screen what the API is and how to get a key', async () => {
    const header = page.locator('header.docs-note');
    await expect(header.locator('p').count()).resolves.toBe(3);
    const text = (await header.textContent()) ?? '';
    expect(text).toContain('Bible in five languages with no key');
    expect(text).toContain('developer portal');
    expect(await header.boundingBox()).toMatchObject({ y: 0 });
    expect((await header.boundingBox())!.height).toBeLessThan(200);
  });

  it('renders every operation of the OpenAPI document', async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const ids = await page.locator('[id*="/GET/"]').evaluateAll((elements) => elements.map((element) => element.id));
    const rendered = new Set(ids.flatMap((id) => /\/GET(\/[^.]*)$/.exec(id)?.[1] ?? []).filter((path) => !path.includes('/example/')));
    expect([...rendered].sort()).toEqual(Object.keys(document.paths).sort());
    expect(rendered.size).toBe(21);
  });

  it('shows church calls as curl and fetch with a placeholder key, from a server', async () => {
    const text = await page.locator('[id$="/GET/api/public/v1/churches/{slug}/events"]').first().textContent();
    expect(text).toContain('$CHURCH_API_KEY');
  });

  it('sends a Bible request from the page to this server and shows its answer', async () => {
    const sent = page.waitForResponse((response) => response.url() === `${server.url}/api/v1/bible/versions`);
    await sendFromPage('/api/v1/bible/versions');
    const response = await sent;
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain('Synthetic LSG, made for tests.');
    await page.getByText('200 OK').first().waitFor({ timeout: 15_000 });
    await page.reload();
    await showEveryOperation();
  });

  it('never sends a church request from the page (its Send is refused in the page)', async () => {
    await sendFromPage('/api/public/v1/churches/{slug}/live');
    // The refusal happens in the page before any request; a request would have been made by now.
    await page.waitForTimeout(1_000);
    await page.reload();
    await showEveryOperation();
    expect(requests.filter((request) => new URL(request.url).pathname.startsWith('/api/public/'))).toEqual([]);
    expect(requests.filter((request) => request.authorization !== undefined)).toEqual([]);
  });

  it('asks nothing of another origin', () => {
    expect(requests.length).toBeGreaterThan(4);
    expect(requests.filter((request) => new URL(request.url).origin !== server.url && !request.url.startsWith('data:'))).toEqual([]);
  });

  it('has no serious or critical accessibility violation (axe-core)', async () => {
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }
      ).axe;
      const results = await axe.run();
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        targets: violation.nodes.slice(0, 3).map((node) => node.target),
      }));
    });
    const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    // The page's own part (the first screen) has none.
    expect(serious.filter((violation) => violation.targets.flat().some((target) => String(target).includes('docs-note')))).toEqual([]);
    // Scalar 1.46.4's own markup has these (icon buttons without a name, a link role on items with
    // aria-expanded, buttons inside disclosure buttons, scrollable lists without focus): reported,
    // not fixable from outside the vendored file. Any other serious rule fails here.
    const KNOWN_IN_RENDERER = ['aria-allowed-attr', 'button-name', 'nested-interactive', 'scrollable-region-focusable'];
    expect(serious.filter((violation) => !KNOWN_IN_RENDERER.includes(violation.id))).toEqual([]);
  }, 60_000);
});
