// The key auth and per-key limit inside the whole app (createServices + createApp), over real HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { problemType } from '../helpers/problem.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

describe('keys in the whole app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const get = (pathname: string, key?: string, method = 'GET') =>
    fetch(server.url + pathname, { method, headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });

  it('every church endpoint answers 401 problem+json with WWW-Authenticate: Bearer without a key, also for unknown slugs', async () => {
    for (const pathname of [CHURCH, CHURCH + '/events', CHURCH + '/posts', '/api/public/v1/churches/no-such-church']) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 401, title: 'Missing API key', type: problemType('api-key-missing') });
    }
  });

  it('a method other than GET is 405 before any key check', async () => {
    const response = await get(CHURCH, undefined, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('HEAD without a key is 401 with WWW-Authenticate and no body', async () => {
    const response = await get(CHURCH, undefined, 'HEAD');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.text()).toBe('');
  });

  it('a valid key reads a church, with RateLimit headers', async () => {
    const response = await get(CHURCH, await createTestKey(server.services));
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toMatch(/^"120-per-minute-per-key"; r=119; t=\d+/);
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"120-per-minute-per-key"; q=120; w=60/);
  });

  it('the 121st request in a minute with one key is 429 with Retry-After; another key is unaffected', async () => {
    const key = await createTestKey(server.services);
    const other = await createTestKey(server.services);
    for (let i = 0; i < 120; i++) expect((await get(i % 2 ? CHURCH : CHURCH + '/events', key)).status, `request ${i + 1}`).toBe(200);
    const limited = await get(CHURCH, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ status: 429, title: 'API key rate limit exceeded', type: problemType('key-rate-limited') });
    expect((await get(CHURCH, other)).status).toBe(200);
  });

  it('neither the logs nor the database file ever hold a key', async () => {
    const key = await createTestKey(server.services);
    await get(CHURCH, key);
    await get('/api/public/v1/churches/' + key, key);
    await get(CHURCH, key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'));
    const randomPart = key.slice(8, 41);
    expect(server.logs.length).toBeGreaterThan(0);
    for (const line of server.logs) expect(line).not.toContain(randomPart);

    const files = fs.readdirSync(server.dir).filter((file) => file.startsWith('church.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(fs.readFileSync(path.join(server.dir, file)).includes(Buffer.from(randomPart))).toBe(false);
  });
});
