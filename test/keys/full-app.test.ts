// The key auth and per-key limit inside the whole app (createServices + createApp), over real HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LINE_FIELDS } from '../../src/http/logger.ts';
import { apiFetch } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

describe('keys in the whole app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const get = (pathname: string, key?: string, method = 'GET') =>
    apiFetch(server.url + pathname, { method, headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });

  it('every church endpoint answers 401 problem+json with WWW-Authenticate: Bearer without a key, also for unknown slugs', async () => {
    for (const pathname of [CHURCH, `${CHURCH}/events`, `${CHURCH}/posts`, '/api/public/v1/churches/no-such-church']) {
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
    for (let i = 0; i < 120; i++) expect((await get(i % 2 ? CHURCH : `${CHURCH}/events`, key)).status, `request ${i + 1}`).toBe(200);
    const limited = await get(CHURCH, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({
      status: 429,
      title: 'API key rate limit exceeded',
      type: problemType('key-rate-limited'),
    });
    expect((await get(CHURCH, other)).status).toBe(200);
  });

  it('neither the logs nor the database file ever hold a key', async () => {
    const key = await createTestKey(server.services);
    await get(CHURCH, key);
    await get(`/api/public/v1/churches/${key}`, key);
    await get(CHURCH, key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'));
    const randomPart = key.slice(8, 41);
    expect(server.logs.length).toBeGreaterThan(0);
    for (const line of server.logs) expect(line).not.toContain(randomPart);

    const files = fs.readdirSync(server.dir).filter((file) => file.startsWith('church.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(fs.readFileSync(path.join(server.dir, file)).includes(Buffer.from(randomPart))).toBe(false);
  });

  it('a key sent percent-encoded in the URL, in any form, never reaches a log line', async () => {
    const key = await createTestKey(server.services);
    const randomPart = key.slice(8, 41);
    const everyCharacter = [...key].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const forms = [
      key.replaceAll('_', '%5F'),
      key.replace('sk_live_', 'sk_live%5F'),
      key.replace('sk_live_', 'sk%5flive_'),
      key.replace('sk_live_', 'sk%255Flive%255F'),
      everyCharacter,
      encodeURIComponent(key),
    ];
    const before = server.logs.length;
    for (const form of forms) {
      await get(`${CHURCH}?key=${form}`, key);
      await get(`${CHURCH}?q=${form}`, key);
      await get(`/api/public/v1/churches/${form}`, key);
    }
    // Only the random part, without the prefix that marks it as a key, under a secret-sounding name.
    await get(`${CHURCH}?api_key=${randomPart}`, key);
    const lines = server.logs.slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(forms.length * 3 + 1);
    for (const line of lines) {
      expect(line).not.toContain(randomPart);
      expect(line).not.toContain(randomPart.slice(0, 20));
      expect(line.replace(/%(?:25)*([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))).not.toContain(randomPart);
    }
  });

  it('the access log line holds the full path with its query, the client address, status, time, request id and key id', async () => {
    const key = await createTestKey(server.services);
    const keyId = (await server.services.accountRepository.activeKeyByFingerprint(server.services.fingerprinter.fingerprint(key)))!.id;
    const before = server.logs.length;
    const response = await apiFetch(`${server.url}${CHURCH}/events?from=2030-01-01&limit=5`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'access-log-test-1' },
    });
    expect(response.status).toBe(200);
    await get(`${CHURCH}?page=2`);
    const [keyed, unkeyed] = server.logs
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.message === 'request');
    expect(keyed).toMatchObject({
      level: 'info',
      method: 'GET',
      path: `${CHURCH}/events?from=2030-01-01&limit=5`,
      ip: expect.stringMatching(/127\.0\.0\.1$/),
      status: 200,
      ms: expect.any(Number),
      requestId: 'access-log-test-1',
      apiKeyId: keyId,
    });
    expect(typeof keyed.time).toBe('string');
    // The access logger skips field redaction because these are all its fields (src/http/logger.ts).
    for (const field of Object.keys(keyed)) expect([...ACCESS_LINE_FIELDS, 'level', 'time', 'pid', 'hostname', 'message']).toContain(field);
    expect(unkeyed).toMatchObject({ path: `${CHURCH}?page=2`, status: 401 });
    expect(unkeyed).not.toHaveProperty('apiKeyId');
    for (const entry of [keyed, unkeyed]) expect(JSON.stringify(entry)).not.toMatch(/authorization|bearer/i);
  });
});
