// A Redis that stops answering (SIGSTOP) must not hang requests: every limiter call fails open after LIMIT_STORE_TIMEOUT_MS.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const LIMIT = 10;
/** How long a limiter call waits for Redis before it fails open (LIMIT_STORE_TIMEOUT_MS, set by the test). */
const STORE_TIMEOUT_MS = 100;
/**
 * What a request may take beyond one store timeout: its own work is a few ms, and after the first
 * timeout the store is skipped for a second, so no request waits twice. One second is ten times the
 * longest stall seen on the loaded test machine (about 90 ms); a request that waited for the paused
 * Redis would never answer at all.
 */
const MARGIN_MS = 1_000;

describeWith(['redis-server'], 'with the rate-limit Redis paused', () => {
  let redis: RedisTestServer;
  let app: TestServer;
  beforeAll(async () => {
    redis = await startRedisServer(requirement('redis-server').path!);
    app = await startTestServer({
      REDIS_URL: redis.url,
      KEY_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      LIMIT_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('church requests answer after one store timeout at most, the outage is logged once, and the limit holds again once it resumes', async () => {
    const key = await createTestKey(app.services);
    expect((await getWithKey(app.url + CHURCH, key)).status).toBe(200);
    const logsBefore = app.logs.length;

    redis.pause();
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        // Redis stays paused until the test resumes it: a request that waited for it would never answer.
        const response = await answeredWithin(getWithKey(app.url + CHURCH, key), STORE_TIMEOUT_MS + MARGIN_MS);
        const elapsed = performance.now() - started;
        expect(response.status, `request ${i + 1} (${elapsed.toFixed(0)} ms)`).toBe(200);
      }
      // An invalid key is answered too (its throttle fails open as well).
      expect((await answeredWithin(getWithKey(app.url + CHURCH, `sk_live_${'x'.repeat(39)}`), STORE_TIMEOUT_MS + MARGIN_MS)).status).toBe(
        401,
      );
    } finally {
      redis.resume();
    }
    const errors = app.logs.slice(logsBefore).filter((line) => line.includes('"level":"error"'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('fail open');

    // The paused increments land when Redis resumes; once the store's one-second back-off is over,
    // the limit holds again: requests go on until the first 429 (no fixed sleep), and stay refused.
    const deadline = performance.now() + 30_000;
    let status = 0;
    while (status !== 429 && performance.now() < deadline) {
      status = (await getWithKey(app.url + CHURCH, key)).status;
      if (status !== 429) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(429);
    const after: number[] = [];
    for (let i = 0; i < 3; i++) after.push((await getWithKey(app.url + CHURCH, key)).status);
    expect(after).toEqual([429, 429, 429]);
  });
});

/**
 * `request`, or a failure once `ms` have passed without an answer (so that a request hung on the
 * paused Redis fails the test at once rather than at the test's own timeout).
 */
async function answeredWithin<T>(request: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([request, late]);
  } finally {
    clearTimeout(timer);
  }
}
