// A Redis that stops answering (SIGSTOP) must not hang requests: every limiter call fails open after LIMIT_STORE_TIMEOUT_MS.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const LIMIT = 10;

describeWith(['redis-server'], 'with the rate-limit Redis paused', () => {
  let redis: RedisTestServer;
  let app: TestServer;
  beforeAll(async () => {
    redis = await startRedisServer(requirement('redis-server').path!);
    app = await startTestServer({ REDIS_URL: redis.url, KEY_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('church requests answer within 200 ms, the outage is logged once, and the limit holds again once it resumes', async () => {
    const key = await createTestKey(app.services);
    expect((await getWithKey(app.url + CHURCH, key)).status).toBe(200);
    const logsBefore = app.logs.length;

    redis.pause();
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const response = await getWithKey(app.url + CHURCH, key);
        const elapsed = performance.now() - started;
        expect(response.status, `request ${i + 1}`).toBe(200);
        expect(elapsed, `request ${i + 1} took ${elapsed.toFixed(0)} ms`).toBeLessThan(200);
      }
      // An invalid key is answered too (its throttle fails open as well).
      expect((await getWithKey(app.url + CHURCH, `sk_live_${'x'.repeat(39)}`)).status).toBe(401);
    } finally {
      redis.resume();
    }
    const errors = app.logs.slice(logsBefore).filter((line) => line.includes('"level":"error"'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('fail open');

    // The paused increments land when Redis resumes; once the store's one-second back-off is over, the limit holds again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    let statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await getWithKey(app.url + CHURCH, key)).status);
    statuses = statuses.slice(statuses.indexOf(429));
    expect(statuses[0]).toBe(429);
    expect(statuses.every((status) => status === 429)).toBe(true);
  });
});
