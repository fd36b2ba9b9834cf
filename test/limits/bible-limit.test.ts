import { afterEach, describe, expect, it } from 'vitest';
import { problemType } from '../helpers/problem.ts';
import { type KeyTestApp, startKeyTestApp } from '../keys/key-test-app.ts';

let app: KeyTestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the Bible limit per client address', () => {
  it('answers 429 problem+json with Retry-After past the limit, per address', async () => {
    app = await startKeyTestApp({ BIBLE_RATE_LIMIT_PER_MINUTE: '3' });
    const reader = { 'X-Forwarded-For': '192.0.2.10' };
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${app.url}/bible/search`, { headers: reader });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toMatch(/^"3-per-minute-per-address"; q=3; w=60/);
    }
    const limited = await fetch(`${app.url}/bible/search`, { headers: reader });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({
      status: 429,
      title: 'Bible rate limit exceeded',
      type: problemType('bible-rate-limited'),
    });
    expect((await fetch(`${app.url}/bible/search`, { headers: { 'X-Forwarded-For': '192.0.2.11' } })).status).toBe(200);
  });

  it('is off at 0: no limit and no rate-limit headers', async () => {
    app = await startKeyTestApp({ BIBLE_RATE_LIMIT_PER_MINUTE: '0' });
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${app.url}/bible/search`);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
  });
});
