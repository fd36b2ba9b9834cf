// The per-key limit of the church endpoints in the real app: standard headers, the 121st request, what counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

describe('120 requests per minute per key', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer();
  });
  afterAll(() => app.close());

  it('carry the standard RateLimit and RateLimit-Policy headers (draft 8), and no X-RateLimit headers', async () => {
    const response = await getWithKey(app.url + CHURCH, await createTestKey(app.services));
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"120-per-minute-per-key"; q=120; w=60/);
    expect(response.headers.get('ratelimit')).toMatch(/^"120-per-minute-per-key"; r=119; t=\d+/);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('answer the 121st request within a minute with 429, Retry-After and a problem body; another key is unaffected', async () => {
    const key = await createTestKey(app.services);
    const other = await createTestKey(app.services);
    // Every request counts, whatever its status: 404s too. The minute starts at this key's first
    // request (the store's window is per key): 121 requests take a second or two, far inside it.
    for (let i = 0; i < 120; i++) {
      const response = await getWithKey(app.url + (i % 3 === 0 ? '/api/public/v1/churches/unknown' : CHURCH), key);
      expect(response.status, `request ${i + 1}`).toBe(i % 3 === 0 ? 404 : 200);
    }
    const limited = await getWithKey(app.url + CHURCH, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit')).toMatch(/; r=0; /);
    const body = (await limited.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 429, title: 'API key rate limit exceeded', type: problemType('key-rate-limited') });
    expect(body.detail).toContain('120 requests in a minute');

    const unaffected = await getWithKey(app.url + CHURCH, other);
    expect(unaffected.status).toBe(200);
    expect(unaffected.headers.get('ratelimit')).toMatch(/; r=119; /);
  });

  it('do not count requests without a valid key against anyone', async () => {
    const key = await createTestKey(app.services);
    for (let i = 0; i < 5; i++) await getWithKey(app.url + CHURCH);
    const response = await getWithKey(app.url + CHURCH, key);
    expect(response.headers.get('ratelimit')).toMatch(/; r=119; /);
  });
});
