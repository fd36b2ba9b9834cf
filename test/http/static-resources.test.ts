// Page assets served from memory (the docs page's and the portal's): type, caching, 304, and only the files of their folder.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('page assets', () => {
  it('are the files of their folder, with their type, a strong ETag and an hour of caching', async () => {
    const response = await fetch(`${server.url}/portal/assets/portal.css`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('etag')).toMatch(/^"[\w-]{43}"$/);
    expect(await response.text()).toBe(fs.readFileSync(path.join(ROOT, 'public/portal/portal.css'), 'utf8'));
  });

  it('answer 304 without a body to a matching If-None-Match, weak or strong', async () => {
    const first = await fetch(`${server.url}/docs/docs.js`);
    const etag = first.headers.get('etag')!;
    for (const tag of [etag, `W/${etag}`]) {
      const again = await fetch(`${server.url}/docs/docs.js`, { headers: { 'if-none-match': tag } });
      expect(again.status, tag).toBe(304);
      expect(await again.text()).toBe('');
    }
  });

  it('answer HEAD with the headers and no body', async () => {
    const response = await fetch(`${server.url}/docs/vendor/scalar-api-reference.js`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(100_000);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('leave other names to the 404 of their part: a problem under /docs, the portal page under /portal', async () => {
    const docs = await fetch(`${server.url}/docs/nothing.css`);
    expect(docs.status).toBe(404);
    expect(docs.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    for (const name of ['nothing.css', '..%2Fportal.css', '']) {
      const portal = await fetch(`${server.url}/portal/assets/${name}`);
      expect(portal.status, name).toBe(404);
      expect(portal.headers.get('content-type'), name).toMatch(/^text\/html/);
    }
  });
});
