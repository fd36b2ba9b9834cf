// /docs/problems: every problem type has an anchor there, and every problem the service answers points at one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { staticPaths } from '../../build/contract/layout.ts';
import { PROBLEM_TYPES, problems } from '../../build/contract/problems.ts';
import { StorageUnavailableError } from '../../src/db/storage-unavailable.ts';
import { ApiError } from '../../src/http/problem.ts';
import { ALL_PROBLEM_TYPES, SERVICE_PROBLEM_TYPES } from '../../src/http/problems.ts';
import { generateKey } from '../../src/keys/format.ts';
import { type RawResponse, rawRequest } from '../bible/raw-request.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { problemType, TEST_PUBLIC_BASE_URL } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { documentValidator } from './document-validator.ts';

const slugs = ALL_PROBLEM_TYPES.map((type) => type.slug);

describe('the problem types page', () => {
  let server: TestServer;
  let html = '';

  beforeAll(async () => {
    server = await startTestServer({ DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    const response = await fetch(`${server.url}/docs/problems`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    html = await response.text();
  });
  afterAll(() => server.close());

  it("lists every type of the Bible's catalogue and of the service's own once, by status", () => {
    const catalogues = [...Object.values(PROBLEM_TYPES), ...Object.values(SERVICE_PROBLEM_TYPES)];
    expect(new Set(slugs).size).toBe(slugs.length);
    expect([...slugs].sort()).toEqual(catalogues.map((type) => type.slug).sort());
    const statuses = ALL_PROBLEM_TYPES.map((type) => type.status);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('has one anchor per problem type of the catalogue, with its status, title and type URI', () => {
    for (const type of ALL_PROBLEM_TYPES) {
      const section = sectionOf(html, type.slug);
      expect(section, type.slug).toContain(`${type.status} ${type.title}`);
      expect(section).toContain(`<code>${TEST_PUBLIC_BASE_URL}/docs/problems#${type.slug}</code>`);
    }
    expect([...html.matchAll(/<section id="([^"]+)"/g)].map((match) => match[1])).toEqual(slugs);
  });

  it('links to the reference, the OpenAPI document and its own sections, under the public base URL', async () => {
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links.filter((link) => !link.startsWith('#'))).toEqual([
      `${TEST_PUBLIC_BASE_URL}/docs`,
      `${TEST_PUBLIC_BASE_URL}/api/openapi.json`,
    ]);
    for (const link of links) {
      if (link.startsWith('#')) {
        expect(html, link).toContain(`<section id="${link.slice(1)}">`);
        continue;
      }
      const response = await fetch(link.replace(TEST_PUBLIC_BASE_URL, server.url));
      expect(response.status, link).toBe(200);
    }
  });

  it('tells a client what to do, with code spans and no unescaped markup', () => {
    expect(sectionOf(html, 'api-key-missing')).toContain('<code>Authorization: Bearer sk_live_…</code>');
    expect(sectionOf(html, 'key-rate-limited')).toContain('<code>Retry-After</code>');
  });
});

describe('every problem the service answers', () => {
  let bible: BibleFixture;
  let server: TestServer;
  let unbuilt: TestServer;
  const received = new Map<string, RawResponse>();

  /** Sends one request from the given client address (limits count per address); a problem answer is kept by its slug. */
  async function receive(pathname: string, options: { key?: string; method?: string; address: string; accept?: string }): Promise<void> {
    const headers: Record<string, string> = { 'x-forwarded-for': options.address };
    if (options.accept !== undefined) headers.accept = options.accept;
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    keep(await rawRequest(`${server.url}${pathname}`, headers, options.method));
  }

  function keep(response: RawResponse): void {
    if (response.status < 400) return;
    received.set(new URL((response.json() as { type: string }).type).hash.slice(1), response);
  }

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({
      ...bible.env,
      LOG_LEVEL: 'silent',
      TRUST_PROXY: 'loopback',
      KEY_RATE_LIMIT_PER_MINUTE: '2',
      INVALID_KEY_LIMIT_PER_MINUTE: '1',
      BIBLE_RATE_LIMIT_PER_MINUTE: '2',
      MCP_RATE_LIMIT_PER_MINUTE: '1',
    });
    const key = () => createTestKey(server.services);

    await receive('/api/v1/bible/Gn/01', { address: '192.0.2.1' });
    await receive('/api/v1/bible/books?lang=xx', { address: '192.0.2.1' });
    await receive('/api/v1/bible/%E0%A4%A/1', { address: '192.0.2.1' });
    await receive('/api/v1/bible/xyz/1', { address: '192.0.2.1' });
    await receive('/api/v1/bible/Gn/40', { address: '192.0.2.1' });
    await receive('/api/v1/bible/Gn/1/99/100', { address: '192.0.2.2' });
    await receive('/api/v1/bible/Gn/1/4/4', { address: '192.0.2.4' });
    await receive('/nothing-here', { address: '192.0.2.1' });
    await receive('/api/v1/bible/versions', { method: 'POST', address: '192.0.2.1' });
    for (let i = 0; i < 3; i++) await receive('/api/v1/bible/search?q=terre', { address: '192.0.2.3' });
    await receive('/mcp', { address: '192.0.2.5' });
    // The one MCP message the address may send in a minute (an SDK error, JSON-RPC rather than a problem), then the limit's 429.
    await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'x-forwarded-for': '192.0.2.6' } });
    await receive('/mcp', { method: 'POST', address: '192.0.2.6' });

    await receive('/api/public/v1/churches/grace-paris', { address: '192.0.2.10' });
    await receive('/api/public/v1/churches/grace-paris', { key: 'sk_live_short', address: '192.0.2.11' });
    await receive('/api/public/v1/churches/grace-paris', { key: generateKey(), address: '192.0.2.12' });
    for (let i = 0; i < 2; i++) await receive('/api/public/v1/churches/grace-paris', { key: 'sk_live_short', address: '192.0.2.13' });
    await receive('/api/public/v1/churches/no-such-church', { key: await key(), address: '192.0.2.14' });
    await receive('/api/public/v1/churches/grace-paris/gallery/no-such-album/photos', { key: await key(), address: '192.0.2.14' });
    await receive('/api/public/v1/churches/grace-paris/events', { key: await key(), address: '192.0.2.14', accept: 'image/png' });
    const limitedKey = await key();
    for (let i = 0; i < 3; i++) await receive('/api/public/v1/churches/grace-paris', { key: limitedKey, address: '192.0.2.15' });

    // A failure the service did not foresee.
    vi.spyOn(server.services.churches, 'publicChurchBySlug').mockRejectedValueOnce(new Error('disk on fire'));
    await receive('/api/public/v1/churches/grace-paris', { key: await key(), address: '192.0.2.16' });
    vi.restoreAllMocks();

    // The database not answering (the real thing, a stopped PostgreSQL: test/db/postgres-outage.test.ts).
    vi.spyOn(server.services.accountRepository, 'activeKeyByFingerprint').mockRejectedValueOnce(
      new StorageUnavailableError('PostgreSQL cannot answer now: connect ECONNREFUSED'),
    );
    await receive('/api/public/v1/churches/grace-paris', { key: await key(), address: '192.0.2.17' });
    vi.restoreAllMocks();

    // Every search worker busy and the queue full (the real thing: test/bible/search-pool.test.ts).
    vi.spyOn(server.services.bible.current().pool, 'run').mockRejectedValueOnce(new ApiError(problems.searchBusy('queue-full', 1)));
    // A query not asked above: an answer already made is kept (answer-cache.ts) and never reaches the pool.
    await receive('/api/v1/bible/search?q=ciel', { address: '192.0.2.4' });
    vi.restoreAllMocks();

    // A rebuild has swapped the tree under the open database: a chapter not yet in memory is refused.
    const stampFile = path.join(bible.publicDir, staticPaths.stamp);
    fs.writeFileSync(stampFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(stampFile, 'utf8')), buildHash: 'swapped' }));
    await receive('/api/v1/bible/Gn/2', { address: '192.0.2.1' });

    // A server without any Bible build.
    unbuilt = await startTestServer({ DEMO_DATA: 'false', LOG_LEVEL: 'silent' });
    keep(await rawRequest(`${unbuilt.url}/api/v1/bible/versions`));
    // Not ready: no Bible build there either.
    keep(await rawRequest(`${unbuilt.url}/readyz`));
  });
  afterAll(async () => {
    await server?.close();
    await unbuilt?.close();
    bible?.remove();
  });

  it('covers every problem type of the catalogue (a new type needs a request here)', () => {
    expect([...received.keys()].sort()).toEqual([...slugs].sort());
  });

  it("has a type that resolves to its anchor on this service's /docs/problems page", async () => {
    const page = await (await fetch(`${server.url}/docs/problems`)).text();
    for (const [slug, response] of received) {
      const body = response.json() as { type: string; title: string; status: number };
      expect(body.type).toBe(problemType(slug));
      const type = new URL(body.type);
      expect(type.origin + type.pathname).toBe(`${TEST_PUBLIC_BASE_URL}/docs/problems`);
      expect(sectionOf(page, type.hash.slice(1)), slug).toContain(`${body.status} ${body.title}`);
      expect(response.status, slug).toBe(body.status);
    }
  });

  it('has the body the OpenAPI document promises: its Problem schema, with a type URI of the catalogue', async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Record<string, unknown>;
    const validator = documentValidator(document);
    for (const [slug, response] of received) {
      expect(validator.errors({ $ref: '#/components/schemas/Problem' }, response.json()), slug).toEqual([]);
    }
  });

  it('is problem+json that must not be sniffed', () => {
    for (const [slug, response] of received) {
      expect(response.headers['content-type'], slug).toBe('application/problem+json; charset=utf-8');
      expect(response.headers['x-content-type-options'], slug).toBe('nosniff');
    }
  });
});

/** The section of the page under the anchor `slug`; fails when there is none. */
function sectionOf(html: string, slug: string): string {
  const start = html.indexOf(`<section id="${slug}">`);
  expect(start, `anchor ${slug}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</section>', start));
}
