// A Redis that stops answering (SIGSTOP) must neither hang requests nor lift a limit: past LIMIT_STORE_TIMEOUT_MS each limiter counts in this instance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const LIMIT = 10;
/** How long a limiter call waits for Redis before it counts in this instance instead (LIMIT_STORE_TIMEOUT_MS, set by the test). */
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
      // An invalid key is answered too (its throttle counts in this instance as well).
      expect((await answeredWithin(getWithKey(app.url + CHURCH, `sk_live_${'x'.repeat(39)}`), STORE_TIMEOUT_MS + MARGIN_MS)).status).toBe(
        401,
      );
    } finally {
      redis.resume();
    }
    const errors = app.logs.slice(logsBefore).filter((line) => line.includes('"level":"error"'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('limits count in each instance');

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

  it('a key over its limit stays limited while Redis is paused', async () => {
    const key = await createTestKey(app.services);
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await getWithKey(app.url + CHURCH, key)).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);

    redis.pause();
    try {
      for (let i = 0; i < 5; i++) {
        const response = await answeredWithin(getWithKey(app.url + CHURCH, key), STORE_TIMEOUT_MS + MARGIN_MS);
        expect(response.status, `request ${i + 1} while paused`).toBe(429);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      redis.resume();
    }
  });

  it('a key first used while Redis is paused gets its limit through this instance, and no more', async () => {
    const key = await createTestKey(app.services);
    redis.pause();
    const statuses: number[] = [];
    try {
      for (let i = 0; i < LIMIT + 5; i++) {
        statuses.push((await answeredWithin(getWithKey(app.url + CHURCH, key), STORE_TIMEOUT_MS + MARGIN_MS)).status);
      }
    } finally {
      redis.resume();
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(5).fill(429)]);
  });

  it('a Redis that stalls most of the time lets no more than the limit through', async () => {
    // Paused 150 ms of every 200 ms, as in the report where one key got 10,060 answers against 120:
    // some calls time out (counted here), some answer (counted there, and followed here). Every
    // request is counted in this instance whichever way it went, so whatever the timing, at most
    // the limit is answered 200 within the window (a minute, far longer than this test).
    const key = await createTestKey(app.services);
    let stalling = true;
    const stalls = (async () => {
      while (stalling) {
        redis.pause();
        await new Promise((resolve) => setTimeout(resolve, 150));
        redis.resume();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const statuses: number[] = [];
    try {
      const senders = Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 15; i++) {
          statuses.push((await answeredWithin(getWithKey(app.url + CHURCH, key), STORE_TIMEOUT_MS + MARGIN_MS)).status);
        }
      });
      await Promise.all(senders);
    } finally {
      stalling = false;
      await stalls;
      redis.resume();
    }
    expect(statuses).toHaveLength(60);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
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
