// MCP at /mcp, through the SDK's own client: the tools listed and called, bad arguments, no key and a revoked key as tool errors, the same answers as the HTTP endpoints, and the HTTP rules of the endpoint.

import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let bible: BibleFixture;
let server: TestServer;
let key: string;

beforeAll(async () => {
  bible = await buildBibleFixture();
  server = await startTestServer({ ...bible.env, MCP_RATE_LIMIT_PER_MINUTE: '1000' });
  key = await createTestKey(server.services, { email: 'mcp-user@example.org' });
});
afterAll(async () => {
  await server?.close();
  bible?.remove();
});

/** An MCP client connected to the test server's /mcp, sending `key` (when given) as its Authorization header. */
async function connect(withKey?: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const headers: Record<string, string> = withKey === undefined ? {} : { Authorization: `Bearer ${withKey}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;

async function httpJson(path: string, withKey?: string): Promise<unknown> {
  const response = await fetch(server.url + path, { headers: withKey ? { Authorization: `Bearer ${withKey}` } : {} });
  expect(response.status).toBe(200);
  return response.json();
}

describe('MCP at /mcp', () => {
  it('lists the Bible and church tools, each described for a model with an input schema, and the Bible resources', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([
      'get_bible_passage',
      'search_bible',
      'get_parallel_passage',
      'get_verse_of_the_day',
      'list_bible_versions',
      'list_bible_books',
      'get_church_profile',
      'get_church_events',
      'get_church_posts',
      'get_church_live_status',
      'get_church_library',
      'get_church_store',
      'get_church_gallery',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const passage = tools.find((tool) => tool.name === 'get_bible_passage')!;
    expect(passage.inputSchema.required).toEqual(['ref', 'lang']);
    expect((passage.inputSchema.properties!.lang as { enum: string[] }).enum).toEqual(['fr', 'en', 'es', 'pt', 'nl']);
    expect(passage.description).toContain('Jean 3.16');
    expect(tools.find((tool) => tool.name === 'get_church_profile')!.description).toContain('Authorization: Bearer sk_live_');

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'bible://versions',
      'bible://books/fr',
      'bible://books/en',
      'bible://books/es',
      'bible://books/pt',
      'bible://books/nl',
    ]);
    const versions = await client.readResource({ uri: 'bible://versions' });
    expect(JSON.parse((versions.contents[0] as { text: string }).text)).toEqual(await httpJson('/api/v1/bible/versions'));
    const books = await client.readResource({ uri: 'bible://books/en' });
    expect(JSON.parse((books.contents[0] as { text: string }).text)).toEqual(await httpJson('/api/v1/bible/books?lang=en'));
    await client.close();
  });

  it('answers John 3:16 in English through the passage tool, as text and structured content equal to /passage', async () => {
    const client = await connect();
    const result = await call(client, 'get_bible_passage', { ref: 'John 3:16', lang: 'en' });
    expect(result.isError).toBeFalsy();
    const expected = await httpJson('/api/v1/bible/passage?ref=John%203:16&lang=en');
    expect(result.structuredContent).toEqual(expected);
    expect(JSON.parse(textOf(result))).toEqual(expected);
    expect(result.structuredContent).toMatchObject({ reference: 'John 3:16', version: 'KJV' });
    expect(textOf(result)).toContain('en For God so loved the world (John 3:16).');
    // The French convention: a comma between chapter and verse, answered as French publishers write it.
    const french = await call(client, 'get_bible_passage', { ref: 'Jn 3,16-17', lang: 'fr' });
    expect(french.structuredContent).toMatchObject({ reference: 'Jean 3.16-17' });
    await client.close();
  });

  it('calls every Bible tool with the answers of its endpoint', async () => {
    const client = await connect();
    const search = await call(client, 'search_bible', { q: 'loved', lang: 'en', testament: 'NT', size: 5 });
    expect(search.structuredContent).toEqual(await httpJson('/api/v1/bible/search?q=loved&lang=en&testament=NT&size=5'));
    expect((search.structuredContent as { totalItems: number }).totalItems).toBeGreaterThan(0);
    const inBook = await call(client, 'search_bible', { q: 'text', lang: 'en', book: 'GEN', page: 1, size: 2 });
    expect(inBook.structuredContent).toEqual(await httpJson('/api/v1/bible/search?q=text&lang=en&book=GEN&page=1&size=2'));
    const parallel = await call(client, 'get_parallel_passage', { ref: 'John 3:16', langs: ['en', 'fr'] });
    expect(parallel.isError).toBeFalsy();
    expect(parallel.structuredContent).toEqual(await httpJson('/api/v1/bible/parallel?ref=John%203:16&langs=en,fr'));
    expect(parallel.structuredContent).toMatchObject({ langs: ['en', 'fr'] });
    const day = await call(client, 'get_verse_of_the_day', { lang: 'nl', date: '2026-01-04' });
    expect(day.isError).toBeFalsy();
    expect(day.structuredContent).toEqual(await httpJson('/api/v1/bible/verse-of-the-day?lang=nl&date=2026-01-04'));
    const badDay = await call(client, 'get_verse_of_the_day', { lang: 'nl', date: '2023-02-29' });
    expect(badDay.isError).toBe(true);
    expect(textOf(badDay)).toContain('date');
    const versions = await call(client, 'list_bible_versions');
    expect(versions.structuredContent).toEqual(await httpJson('/api/v1/bible/versions'));
    const books = await call(client, 'list_bible_books', { lang: 'nl' });
    expect(books.structuredContent).toEqual(await httpJson('/api/v1/bible/books?lang=nl'));
    await client.close();
  });

  it('answers bad arguments with tool errors that say what to change', async () => {
    const client = await connect();
    // Refused by the endpoint's own reader: the problem's words, naming the argument.
    const ambiguous = await call(client, 'get_bible_passage', { ref: 'John 3,16', lang: 'en' });
    expect(ambiguous.isError).toBe(true);
    expect(textOf(ambiguous)).toMatch(/^Invalid parameter \(argument `ref`\): ref /);
    expect(ambiguous.structuredContent).toMatchObject({ error: { status: 400, parameter: 'ref' } });
    const unknownBook = await call(client, 'search_bible', { q: 'loved', lang: 'en', book: 'Hezekiah' });
    expect(unknownBook.isError).toBe(true);
    expect(textOf(unknownBook)).toContain('argument `book`');
    // Refused by the input schema, before any endpoint: the SDK's validation error names the argument.
    const badLang = await call(client, 'get_bible_passage', { ref: 'John 3:16', lang: 'de' });
    expect(badLang.isError).toBe(true);
    expect(textOf(badLang)).toContain('lang');
    const missing = await call(client, 'get_bible_passage', { lang: 'en' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('ref');
    const badSize = await call(client, 'get_church_posts', { slug: 'grace-paris', size: 51 });
    expect(badSize.isError).toBe(true);
    expect(textOf(badSize)).toContain('size');
    await client.close();
  });

  it('calls every church tool with the caller key, with the answers of its endpoint', async () => {
    const client = await connect(key);
    const base = '/api/public/v1/churches/grace-paris';
    const cases: [string, Record<string, unknown>, string][] = [
      ['get_church_profile', {}, ''],
      ['get_church_events', {}, '/events'],
      ['get_church_posts', { page: 0, size: 2 }, '/posts?page=0&size=2'],
      ['get_church_live_status', {}, '/live'],
      ['get_church_library', { type: 'BOOK' }, '/library?type=BOOK'],
      ['get_church_store', {}, '/store'],
      ['get_church_gallery', {}, '/gallery'],
    ];
    for (const [name, args, path] of cases) {
      const result = await call(client, name, { slug: 'grace-paris', ...args });
      expect(result.isError, name).toBeFalsy();
      const expected = await httpJson(base + path, key);
      expect(JSON.parse(textOf(result)), name).toEqual(expected);
      expect(result.structuredContent, name).toEqual(Array.isArray(expected) ? { items: expected } : expected);
    }
    const albums = (await httpJson(`${base}/gallery`, key)) as { albumId: string }[];
    const photos = await call(client, 'get_church_gallery', { slug: 'grace-paris', albumId: albums[0]!.albumId });
    expect(JSON.parse(textOf(photos))).toEqual(await httpJson(`${base}/gallery/${albums[0]!.albumId}/photos`, key));
    // A hidden church is an unknown one, as over HTTP.
    const hidden = await call(client, 'get_church_profile', { slug: 'stille-kapel-utrecht' });
    expect(hidden.isError).toBe(true);
    expect(hidden.structuredContent).toMatchObject({ error: { status: 404, title: 'Unknown church' } });
    await client.close();
  });

  it('lists the church tools without a key, and answers them with a tool error saying how to send one', async () => {
    const client = await connect();
    const result = await call(client, 'get_church_profile', { slug: 'grace-paris' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { status: 401, title: 'Missing API key' } });
    expect(textOf(result)).toContain('configure your MCP client to send the header `Authorization: Bearer sk_live_');
    expect(textOf(result)).not.toContain('grace-paris');
    await client.close();
  });

  it('refuses a revoked key at its next call', async () => {
    const email = 'mcp-revoker@example.org';
    const revoked = await createTestKey(server.services, { email });
    const client = await connect(revoked);
    expect((await call(client, 'get_church_live_status', { slug: 'grace-paris' })).isError).toBeFalsy();
    const accounts = createAccountService({ repository: server.services.accountRepository, fingerprinter: server.services.fingerprinter });
    const developer = (await accounts.developerByEmail(email))!;
    await accounts.revokeKey(developer.id, (await accounts.listKeys(developer.id))[0]!.id);
    const result = await call(client, 'get_church_live_status', { slug: 'grace-paris' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { status: 401, title: 'Unknown or revoked API key' } });
    await client.close();
  });

  it('counts each church tool call against the key limit of the key, shared with its HTTP requests', async () => {
    const limited = await startTestServer({ ...bible.env, KEY_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const limitedKey = await createTestKey(limited.services);
      const client = new Client({ name: 'mcp-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${limited.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${limitedKey}` } },
        }),
      );
      const live = () => client.callTool({ name: 'get_church_live_status', arguments: { slug: 'grace-paris' } }) as Promise<CallToolResult>;
      expect((await live()).isError).toBeFalsy();
      const http = await fetch(`${limited.url}/api/public/v1/churches/grace-paris/live`, {
        headers: { Authorization: `Bearer ${limitedKey}` },
      });
      expect(http.status).toBe(200);
      const third = await live();
      expect(third.isError).toBe(true);
      expect(third.structuredContent).toMatchObject({ error: { status: 429, title: 'API key rate limit exceeded' } });
      // The Bible tools need no key and are not counted against it.
      expect((await call(client, 'list_bible_versions')).isError).toBeFalsy();
      await client.close();
    } finally {
      await limited.close();
    }
  });
});

describe("the README's MCP client configuration", () => {
  it('connects to /mcp and reaches a church with the header it shows', async () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const snippet = /```json\n(\{\n {2}"mcpServers"[\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toBeDefined();
    const [entry] = Object.values(
      (JSON.parse(snippet!) as { mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }> }).mcpServers,
    );
    expect(entry!.type).toBe('http');
    const url = new URL(entry!.url);
    expect(url.origin).toBe('http://127.0.0.1:3000');
    const headers = { ...entry!.headers, Authorization: entry!.headers.Authorization!.replace('sk_live_…', key) };
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url.pathname, server.url), { requestInit: { headers } }));
    expect((await call(client, 'get_church_profile', { slug: 'grace-paris' })).structuredContent).toMatchObject({ slug: 'grace-paris' });
    await client.close();
  });
});

describe('the /mcp endpoint over HTTP', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (body: string, headers: Record<string, string> = {}, url = `${server.url}/mcp`) =>
    fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  it('answers one JSON body with no session, and no cache', async () => {
    const response = await post(JSON.stringify(initialize));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('ratelimit-policy')).toContain('mcp');
    expect(await response.json()).toMatchObject({ result: { serverInfo: { name: 'church-bible-api' } } });
  });

  it('answers GET, DELETE and HEAD 405 with Allow: POST, as problem+json', async () => {
    for (const method of ['GET', 'DELETE', 'HEAD']) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('answers malformed, oversized or mistyped bodies with a 4xx, never a 5xx', async () => {
    expect((await post('{not json')).status).toBe(400);
    expect((await post(JSON.stringify({ hello: 'world' }))).status).toBe(400);
    expect((await post(JSON.stringify(initialize), { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await post(JSON.stringify(initialize), { Accept: 'application/json' })).status).toBe(406);
    expect((await post(JSON.stringify({ ...initialize, padding: 'x'.repeat(70_000) }))).status).toBe(413);
    // Another path under /mcp is not MCP: the pages' read-only rules.
    expect((await post(JSON.stringify(initialize), {}, `${server.url}/mcp/other`)).status).toBe(405);
    expect((await fetch(`${server.url}/mcp/other`)).status).toBe(404);
  });

  it('answers a batch with the array of its responses, a notification with 202, an unknown protocol version with 400', async () => {
    const passage = { name: 'get_bible_passage', arguments: { ref: 'John 3:16', lang: 'en' } };
    const batch = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'p', method: 'tools/call', params: passage },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'bible://versions' } },
      ]),
    );
    expect(batch.status).toBe(200);
    const [called, read] = (await batch.json()) as { id: unknown; result: { structuredContent?: unknown; contents?: unknown[] } }[];
    expect(called).toMatchObject({ id: 'p', result: { structuredContent: { reference: 'John 3:16' } } });
    expect(read).toMatchObject({ id: 2, result: { contents: [{ uri: 'bible://versions' }] } });
    const notification = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');
    const versioned = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), { 'mcp-protocol-version': '1999-01-01' });
    expect(versioned.status).toBe(400);
    expect(await versioned.json()).toMatchObject({ error: { code: -32000 }, id: null });
  });

  it('answers calls in flight together, with and without a key and the same JSON-RPC id, each for its own caller', async () => {
    const live = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_church_live_status', arguments: { slug: 'grace-paris' } },
    });
    const keyed = (index: number) => index % 2 === 0;
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const response = await post(live, keyed(index) ? { Authorization: `Bearer ${key}` } : {});
        return (await response.json()) as { id: number; result: CallToolResult };
      }),
    );
    answers.forEach((answer, index) => {
      expect(answer.id).toBe(1);
      if (keyed(index)) expect(answer.result.isError, `call ${index}`).toBeFalsy();
      else expect(answer.result.structuredContent, `call ${index}`).toMatchObject({ error: { status: 401 } });
    });
  });

  it('counts every message per address under its own limit', async () => {
    const limited = await startTestServer({ MCP_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const send = () => post(JSON.stringify(initialize), {}, `${limited.url}/mcp`);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ title: 'MCP rate limit exceeded' });
      // The Bible's own per-address limit is another count.
      expect((await fetch(`${limited.url}/api/v1/bible/versions`)).status).not.toBe(429);
    } finally {
      await limited.close();
    }
  });
});
