// The portal end to end in headless Chromium (playwright-core, Debian's chromium): every main flow, screenshots, axe-core on each page.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.ts';
import { type OidcTestProvider, startOidcTestProvider, TEST_PROVIDER_NAME } from '../helpers/oidc-test-provider.ts';
import { freePort } from '../helpers/redis-server.ts';
import { describeWith } from '../helpers/requirements.ts';
import { GOOD_PASSWORD, type PortalTestServer, startPortalTestServer } from './portal-server.ts';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/portal');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const CHURCH = '/api/public/v1/churches/grace-paris';

describeWith(['chromium'], 'the portal in headless Chromium', () => {
  let server: PortalTestServer;
  let provider: OidcTestProvider;
  let browser: Browser;
  /** Pages checked by axe-core, by screenshot name: none may have a serious or critical violation. */
  const checked: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const port = await freePort();
    provider = await startOidcTestProvider(`http://127.0.0.1:${port}/portal`);
    server = await startPortalTestServer(provider.env, port);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await provider?.stop();
  });

  /** A new browser profile (no cookies) with one page. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    return context.newPage();
  }

  /** Saves a screenshot and runs axe-core on the page: no serious or critical violation. */
  async function check(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    // evaluate() runs through the DevTools protocol, which the page's CSP does not govern.
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as {
          axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> };
        }
      ).axe;
      const results = await axe.run();
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        targets: violation.nodes.map((node) => node.target),
      }));
    });
    expect(
      violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
      name,
    ).toEqual([]);
    checked.push(name);
  }

  async function signInWithPassword(page: Page, email: string, password = GOOD_PASSWORD): Promise<void> {
    await page.goto(`${server.url}/portal/sign-in`);
    await page.fill('#field-email', email);
    await page.fill('#field-password', password);
    await page.click('button:has-text("Sign in")');
    await page.waitForURL('**/portal/keys');
  }

  async function createKey(page: Page, name: string): Promise<void> {
    await page.goto(`${server.url}/portal/keys`);
    await page.fill('#field-name', name);
    await page.click('button:has-text("Create key")');
  }

  const callChurch = (key: string) => fetch(server.url + CHURCH, { headers: { authorization: `Bearer ${key}` } });

  it('signs up, verifies through the e-mail, creates a key that works, revokes it (401), and refuses a sixth active key', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/portal/`);
    await check(page, 'landing');
    await page.click('main >> text=Create an account');
    await check(page, 'sign-up');
    await page.fill('#field-name', 'Browser Developer');
    await page.fill('#field-email', 'browser@example.org');
    await page.fill('#field-password', GOOD_PASSWORD);
    await page.click('button:has-text("Create account")');
    await expect.poll(() => page.textContent('h1')).toBe('Check your inbox');
    await check(page, 'check-inbox');

    const mail = await server.smtp.nextMail('browser@example.org');
    await page.goto(mail.link!);
    await check(page, 'verify-email');
    await page.click('button:has-text("Verify my address")');
    await expect.poll(() => page.textContent('h1')).toBe('Your address is verified');

    await signInWithPassword(page, 'browser@example.org');
    await check(page, 'keys-empty');
    await createKey(page, 'browser key');
    await expect.poll(() => page.textContent('h1')).toContain('Your new key');
    const key = await page.inputValue('#new-key');
    expect(key).toMatch(/^sk_live_/);
    // The copy button appears only with JavaScript, and copies the key.
    await page.click('button:has-text("Copy")');
    await expect.poll(() => page.textContent('.copy-status')).toMatch(/Copied|Ctrl\+C/);
    await check(page, 'key-created');

    expect((await callChurch(key)).status).toBe(200);

    await page.click('text=I have copied it');
    await check(page, 'keys');
    await page.click('a:has-text("Revoke")');
    await check(page, 'revoke-confirm');
    await page.click('button:has-text("Revoke the key")');
    await expect.poll(() => page.textContent('.notice')).toContain('is revoked');
    expect((await callChurch(key)).status).toBe(401);

    for (let index = 1; index <= 5; index += 1) {
      await createKey(page, `key ${index}`);
      await expect.poll(() => page.textContent('h1')).toContain('Your new key');
    }
    await createKey(page, 'key 6');
    await expect.poll(() => page.textContent('.error-summary')).toContain('at most 5 active keys');
    await check(page, 'key-limit');

    await page.goto(`${server.url}/portal/guide`);
    await check(page, 'guide');
    await page.goto(`${server.url}/portal/account`);
    await check(page, 'account');
    await page.context().close();
  });

  it('refuses a reserved address at sign-up with a clear message', async () => {
    await server.services.accountService.importReservedEmails(['office@example.org']);
    const page = await newPage();
    await page.goto(`${server.url}/portal/sign-up`);
    await page.fill('#field-name', 'Office');
    await page.fill('#field-email', 'office@example.org');
    await page.fill('#field-password', GOOD_PASSWORD);
    await page.click('button:has-text("Create account")');
    await expect.poll(() => page.textContent('.error-summary')).toContain('linked to another of our products');
    await check(page, 'sign-up-reserved');
    await page.context().close();
  });

  it('signs in through the OpenID Connect provider, creating a verified account', async () => {
    provider.identities.set('browser-oidc', { email: 'oidc-browser@example.org', emailVerified: true, name: 'OIDC Browser' });
    const page = await newPage();
    await page.goto(`${server.url}/portal/sign-in`);
    await check(page, 'sign-in');
    await page.click(`text=Sign in with ${TEST_PROVIDER_NAME}`);
    // oidc-provider's development pages: a login form (any login), then a consent form.
    await page.waitForURL(`${provider.issuer}/**`);
    await page.fill('input[name="login"]', 'browser-oidc');
    await page.fill('input[name="password"]', 'anything');
    await page.click('button[type="submit"]');
    for (let step = 0; step < 5 && !page.url().startsWith(`${server.url}/portal/keys`); step += 1) {
      await page.waitForLoadState();
      if (page.url().startsWith(provider.issuer)) await page.click('button[type="submit"]');
    }
    await page.waitForURL('**/portal/keys');
    expect(await page.textContent('main')).not.toContain('not verified yet');
    expect((await server.services.accountService.developerByEmail('oidc-browser@example.org'))?.emailVerifiedAt).not.toBeNull();
    await page.context().close();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/portal/sign-in`);
    await page.click('text=Forgot your password?');
    await check(page, 'forgot-password');
    await page.fill('#field-email', 'browser@example.org');
    await page.click('button:has-text("Send the link")');
    await expect.poll(() => page.textContent('h1')).toBe('Check your inbox');
    const mail = await server.smtp.nextMail('browser@example.org');
    await page.goto(mail.link!);
    await check(page, 'reset-password');
    await page.fill('#field-password', 'a completely new passphrase');
    await page.click('button:has-text("Change password")');
    await expect.poll(() => page.textContent('h1')).toBe('Your password is changed');
    await signInWithPassword(page, 'browser@example.org', 'a completely new passphrase');
    await page.goto(`${server.url}/portal/account/delete`);
    await check(page, 'delete-account');
    await page.context().close();
  });

  it('checked every main page with axe-core and saved its screenshot', () => {
    expect(checked).toEqual(
      expect.arrayContaining(['landing', 'sign-up', 'sign-in', 'keys', 'key-created', 'account', 'guide', 'reset-password']),
    );
    for (const name of checked) expect(fs.existsSync(path.join(SCREENSHOTS, `${name}.png`)), name).toBe(true);
  });
});
