// What a developer sees on the portal's pages: the favicon, page titles, the guide's examples, and where e-mail went without a mail server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DATA_FILE } from '../../src/church/demo-data.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { PortalClient } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, signIn, startPortalTestServer, TEST_SCRYPT_N } from './portal-server.ts';

/** The text of an element's content as a browser shows it (the few entities the portal's escaping writes). */
function decodeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function titleOf(page: string): string {
  return decodeHtml(/<title>([^<]*)<\/title>/.exec(page)?.[1] ?? '');
}

/** Signs up a new developer through the form and returns the "check your inbox" page. */
async function signUpPage(url: string, email: string): Promise<string> {
  const client = new PortalClient(url);
  await client.get('/portal/sign-up');
  const answer = await client.post('/portal/sign-up', { name: 'Pages Developer', email, password: GOOD_PASSWORD });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function resetSentPage(url: string, email: string): Promise<string> {
  const client = new PortalClient(url);
  await client.get('/portal/forgot-password');
  const answer = await client.post('/portal/forgot-password', { email });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('the portal with a mail server', () => {
  let server: PortalTestServer;
  beforeAll(async () => {
    server = await startPortalTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('links a favicon from every page, and serves it as an SVG image', async () => {
    const hrefs = new Set<string>();
    for (const page of ['/portal/', '/portal/sign-in', '/portal/guide', '/portal/no-such-page']) {
      const body = await (await fetch(server.url + page)).text();
      const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(body)?.[1];
      expect(href, page).toBeDefined();
      hrefs.add(href!);
    }
    expect([...hrefs]).toEqual(['/portal/assets/favicon.svg']);
    const icon = await fetch(server.url + [...hrefs][0]);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get('etag')).toMatch(/^"/);
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">[\s\S]*<\/svg>\n$/);
  });

  it("names the portal once: alone on the landing page, after the page's own title elsewhere", async () => {
    expect(titleOf(await (await fetch(`${server.url}/portal/`)).text())).toBe('Developer portal');
    expect(titleOf(await (await fetch(`${server.url}/portal/sign-in`)).text())).toBe('Sign in · Developer portal');
    expect(titleOf(await (await fetch(`${server.url}/portal/guide`)).text())).toBe('Using your API key · Developer portal');
  });

  it('shows in the guide a call to a public demo church that answers with a key, in every example', async () => {
    const guide = await (await fetch(`${server.url}/portal/guide`)).text();
    const demo = JSON.parse(fs.readFileSync(DEMO_DATA_FILE, 'utf8')) as { churches: { slug: string; isPublic: boolean }[] };
    const publicSlugs = demo.churches.filter((church) => church.isPublic).map((church) => church.slug);

    const blocks = [...guide.matchAll(/<pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) => decodeHtml(match[1]));
    // curl, server-side JavaScript, and the calendar feed a church website serves.
    expect(blocks).toHaveLength(3);
    const urls = blocks.map((block) => /https?:\/\/[^\s"']+\/api\/public\/v1\/churches\/[^\s"']+/.exec(block)?.[0]);
    expect(urls[0]).toBeDefined();
    expect(urls[1]).toBe(urls[0]);
    expect(urls[2]).toBe(urls[0]);
    const url = new URL(urls[0]!);
    const slug = /^\/api\/public\/v1\/churches\/([^/]+)\/events$/.exec(url.pathname)?.[1];
    expect(publicSlugs).toContain(slug);
    expect(guide).toContain(`<code>${slug}</code>, a church of the service's demo data`);

    // The same call against this server (the guide names the service's public address).
    const key = await createTestKey(server.services);
    const answer = await fetch(server.url + url.pathname, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
    expect(Array.isArray(await answer.json())).toBe(true);
  });

  it('says nothing of an outbox when it sends the messages', async () => {
    for (const page of [await signUpPage(server.url, 'smtp-pages@example.org'), await resetSentPage(server.url, 'nobody@example.org')]) {
      expect(page).toContain('<h1>Check your inbox</h1>');
      expect(page).not.toMatch(/outbox|SMTP_URL|\.eml|sends no e-mail/i);
    }
    expect((await server.smtp.nextMail('smtp-pages@example.org')).link).toContain('/portal/verify-email?token=');
  });
});

describe('the portal without a mail server', () => {
  let server: TestServer;
  let outbox: string;
  beforeAll(async () => {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pages-outbox-'));
    server = await startTestServer({ MAIL_OUTBOX_DIR: outbox, PASSWORD_SCRYPT_N: TEST_SCRYPT_N });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  const note = () => `each message is written as an <code>.eml</code> file to <code>${outbox}</code> on the server`;

  it('says on the "check your inbox" page that the message is a file in the outbox folder, where it is', async () => {
    const page = await signUpPage(server.url, 'outbox-pages@example.org');
    expect(page).toContain('<h1>Check your inbox</h1>');
    expect(page).toContain(note());
    let files: string[] = [];
    for (let wait = 0; wait < 50 && files.length === 0; wait += 1) {
      files = fs.readdirSync(outbox).filter((file) => file.endsWith('.eml'));
      if (files.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(files).toHaveLength(1);
  });

  it('says the same after a reset request, whether an account has the address or not', async () => {
    const unknown = await resetSentPage(server.url, 'nobody-here@example.org');
    const known = await resetSentPage(server.url, 'outbox-pages@example.org');
    expect(unknown).toContain(note());
    expect(known.replace('outbox-pages@example.org', 'nobody-here@example.org')).toBe(unknown);
  });

  it('says where a link sent again went, on the keys page', async () => {
    const client = new PortalClient(server.url);
    await signIn(client, 'outbox-pages@example.org');
    await client.get('/portal/keys');
    const keys = await client.follow(await client.post('/portal/verify-email/resend'));
    expect(decodeHtml(keys.body)).toContain(
      `a new verification link for outbox-pages@example.org is written as an .eml file to ${outbox} on the server`,
    );
  });
});

describeWith(['chromium'], "the guide's examples in headless Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every line of each code block, on a phone and on a desktop, with nothing past the edge', async () => {
    for (const width of [320, 1000]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      try {
        await page.goto(`${server.url}/portal/guide`);
        const blocks = page.locator('pre');
        expect(await blocks.count()).toBe(3);
        for (const block of await blocks.all()) {
          const size = await block.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
          expect(size.scroll, `a code block at ${width} px`).toBeLessThanOrEqual(size.client);
        }
        const documentWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
        expect(documentWidth).toBeLessThanOrEqual(width);
      } finally {
        await page.close();
      }
    }
  });
});
