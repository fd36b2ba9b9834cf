// The per-address limit of the Bible's dynamic endpoints in the real app, over a synthetic Bible: 429 past the limit, off at 0.
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { createLogger } from '../../src/http/logger.ts';
import { bibleLimitPolicyName, createBibleLimit } from '../../src/limits/bible-limit.ts';
import { RATE_LIMIT_WINDOW_MS } from '../../src/limits/key-limit.ts';
import type { LimitStores } from '../../src/limits/stores.ts';
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

describe('the Bible limiter beside express-rate-limit', () => {
  /** The headers express-rate-limit (draft-8, as the church limiter uses it) writes for one request from `ip`. */
  async function expressRateLimitHeaders(middleware: ReturnType<typeof rateLimit>, ip: string): Promise<[string, string][]> {
    const headers: [string, string][] = [];
    const res = {
      headersSent: false,
      setHeader: (name: string, value: string) => headers.push([name, value]),
      append: (name: string, value: string) => headers.push([name, value]),
      getHeader: (name: string) => headers.find(([header]) => header === name)?.[1],
    };
    await new Promise<void>((resolve) =>
      middleware({ ip, headers: {}, app: { get: () => false } } as never, res as never, () => resolve()),
    );
    return headers;
  }

  it('writes the same RateLimit, RateLimit-Policy and Retry-After, request after request, past the limit too', async () => {
    const limit = 3;
    const theirs = rateLimit({
      windowMs: RATE_LIMIT_WINDOW_MS,
      limit,
      // What the limiters wrote when they were express-rate-limit, and still write.
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: bibleLimitPolicyName(limit),
      store: new MemoryStore(),
      keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
      validate: false,
      handler: (_req, _res, next) => next(),
    });
    const store = new MemoryStore();
    const ours = createBibleLimit({
      config: { bibleRateLimitPerMinute: limit } as Config,
      limitStores: { bible: store } as unknown as LimitStores,
      logger: createLogger('silent'),
    });
    try {
      for (const ip of ['192.0.2.7', '2001:db8::1', '::ffff:192.0.2.8']) {
        for (let i = 0; i < limit + 2; i++) {
          const outcome = await ours.count(ip);
          expect(outcome?.headers).toEqual(await expressRateLimitHeaders(theirs, ip));
          expect(outcome?.refused !== undefined).toBe(i >= limit);
        }
      }
    } finally {
      store.shutdown();
    }
  });
});
