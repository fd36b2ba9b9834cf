// The per-address limit of the Bible's dynamic endpoints in the real app, over a synthetic Bible: 429 past the limit, off at 0.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch } from '../helpers/api-client.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const SEARCH = '/api/v1/bible/search?q=terre';

let bible: BibleFixture;
let app: TestServer | undefined;
beforeAll(async () => {
  bible = await buildBibleFixture();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(() => bible?.remove());

/** The real app over the synthetic Bible; the client address comes from X-Forwarded-For, as behind a proxy on this machine. */
const startApp = (limit: string) =>
  startTestServer({ ...bible.env, DEMO_DATA: 'false', TRUST_PROXY: 'loopback', BIBLE_RATE_LIMIT_PER_MINUTE: limit });

describe('the Bible limit per client address', () => {
  it('answers 429 problem+json with Retry-After past the limit, per address', async () => {
    app = await startApp('3');
    const reader = { 'X-Forwarded-For': '192.0.2.10' };
    for (let i = 0; i < 3; i++) {
      const response = await apiFetch(app.url + SEARCH, { headers: reader });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toMatch(/^"3-per-minute-per-address"; q=3; w=60/);
    }
    const limited = await apiFetch(app.url + SEARCH, { headers: reader });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({
      status: 429,
      title: 'Bible rate limit exceeded',
      type: problemType('bible-rate-limited'),
    });
    expect((await apiFetch(app.url + SEARCH, { headers: { 'X-Forwarded-For': '192.0.2.11' } })).status).toBe(200);
  });

  it('is off at 0: no limit and no rate-limit headers', async () => {
    app = await startApp('0');
    for (let i = 0; i < 20; i++) {
      const response = await apiFetch(app.url + SEARCH);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });
});
