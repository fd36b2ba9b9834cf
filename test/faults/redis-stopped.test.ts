// With the rate-limit Redis stopped, the throttles still refuse: the failed-sign-in throttle and the invalid-key throttle count in this instance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FAILED_SIGN_INS_PER_ACCOUNT } from '../../src/portal/sign-in-throttle.ts';
import { getWithKey } from '../helpers/api-client.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { PortalClient } from '../portal/portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, signUpVerified, startPortalTestServer } from '../portal/portal-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const INVALID_KEY_LIMIT = 5;

describeWith(['redis-server'], 'with the rate-limit Redis stopped', () => {
  let redis: RedisTestServer;
  let server: PortalTestServer;
  beforeAll(async () => {
    redis = await startRedisServer(requirement('redis-server').path!);
    server = await startPortalTestServer({
      REDIS_URL: redis.url,
      INVALID_KEY_LIMIT_PER_MINUTE: String(INVALID_KEY_LIMIT),
      // Loopback may set X-Forwarded-For: each test below is its own client address.
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  it(`refuses an account after ${FAILED_SIGN_INS_PER_ACCOUNT} wrong passwords, the right one included, as with Redis running`, async () => {
    await signUpVerified(server, 'guarded@example.org');
    await redis.stop();
    const attacker = new PortalClient(server.url);
    await attacker.get('/portal/sign-in');
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_SIGN_INS_PER_ACCOUNT + 3; i++) {
      statuses.push((await attacker.post('/portal/sign-in', { email: 'guarded@example.org', password: `guess ${i}` })).status);
    }
    expect(statuses).toEqual([...Array(FAILED_SIGN_INS_PER_ACCOUNT).fill(401), 429, 429, 429]);
    const owner = await attacker.post('/portal/sign-in', { email: 'guarded@example.org', password: GOOD_PASSWORD });
    expect(owner.status).toBe(429);
    expect(owner.body).toContain('Too many failed sign-ins');
    // The outage is logged, once, not per attempt.
    const outages = server.logs.filter((line) => line.includes('limits count in each instance'));
    expect(outages.length).toBeGreaterThanOrEqual(1);
    expect(outages.length).toBeLessThanOrEqual(2);
  });

  it(`refuses an address after ${INVALID_KEY_LIMIT} invalid keys`, async () => {
    const client = { 'X-Forwarded-For': '198.51.100.20' };
    const bad = `sk_live_${'x'.repeat(39)}`;
    const statuses: number[] = [];
    for (let i = 0; i < INVALID_KEY_LIMIT + 2; i++) statuses.push((await getWithKey(server.url + CHURCH, bad, client)).status);
    expect(statuses).toEqual([...Array(INVALID_KEY_LIMIT).fill(401), 429, 429]);
  });
});
