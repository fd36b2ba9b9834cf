import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logger.ts';
import { createLimitStores, LimitStoreError } from '../../src/limits/stores.ts';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { freePort, type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const redisBinary = requirement('redis-server').path;

describe('rate-limit stores', () => {
  it('refuse to start when the configured Redis cannot be reached, naming REDIS_URL', async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(createLimitStores({ redisUrl: `redis://127.0.0.1:${port}` }, createLogger('silent'))).rejects.toThrow(LimitStoreError);
    await expect(createLimitStores({ redisUrl: `redis://127.0.0.1:${port}` }, createLogger('silent'))).rejects.toThrow(/REDIS_URL/);
    // Nothing listens on the port: each attempt is refused at once, and the stores give up at once
    // instead of retrying. Retrying would never settle (this bound only makes that fail quickly).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('are in-process memory stores without REDIS_URL', async () => {
    const stores = await createLimitStores({}, createLogger('silent'));
    expect(stores.kind).toBe('memory');
    await stores.close();
  });
});

describeWith(['redis-server'], 'two app instances sharing one Redis', () => {
  let redis: RedisTestServer;
  let shared: string;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary!);
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-shared-'));
    // Both instances share the database and the fingerprint secret, as two servers behind one proxy would.
    // The client address comes from X-Forwarded-For, as behind a proxy on the same machine.
    const env = {
      REDIS_URL: redis.url,
      DATABASE_PATH: path.join(shared, 'church.sqlite'),
      KEY_FINGERPRINT_SECRET: 'd'.repeat(64),
      TRUST_PROXY: 'loopback',
    };
    first = await startTestServer(env);
    second = await startTestServer(env);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis?.stop();
    if (shared) fs.rmSync(shared, { recursive: true, force: true });
  });

  it('use Redis stores', () => {
    expect(first.services.limitStores.kind).toBe('redis');
  });

  it('enforce a single 120 budget per key: 60 on one and 60 on the other, then the 121st is 429 on either', async () => {
    const key = await createTestKey(first.services);
    const other = await createTestKey(first.services);
    for (let i = 0; i < 60; i++) expect((await getWithKey(first.url + CHURCH, key)).status, `first, request ${i + 1}`).toBe(200);
    for (let i = 0; i < 60; i++) expect((await getWithKey(second.url + CHURCH, key)).status, `second, request ${i + 1}`).toBe(200);

    const limited = await getWithKey(second.url + CHURCH, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await getWithKey(first.url + CHURCH, key)).status).toBe(429);

    expect((await getWithKey(second.url + CHURCH, other)).status).toBe(200);
  });

  it('share the invalid-key throttle of an address too', async () => {
    const attacker = { 'X-Forwarded-For': '198.51.100.9' };
    const bad = `sk_live_${'x'.repeat(39)}`;
    const limit = first.services.config.invalidKeyLimitPerMinute;
    for (let i = 0; i < limit; i++) {
      const app = i % 2 === 0 ? first : second;
      expect((await getWithKey(app.url + CHURCH, bad, attacker)).status).toBe(401);
    }
    expect((await getWithKey(first.url + CHURCH, bad, attacker)).status).toBe(429);
    expect((await getWithKey(second.url + CHURCH, bad, attacker)).status).toBe(429);
  });

  it('keep answering when Redis goes away, counting in each instance (the error is logged)', async () => {
    const key = await createTestKey(first.services);
    await redis.stop();
    const response = await getWithKey(first.url + CHURCH, key);
    expect(response.status).toBe(200);
    // The first request of the key, counted by this instance alone.
    expect(response.headers.get('ratelimit')).toMatch(/; r=119; t=\d+$/);
    expect(first.logs.some((line) => line.includes('"level":"error"'))).toBe(true);
  });
});

describeWith(['redis-server'], 'two whole servers sharing one Redis', () => {
  let redis: RedisTestServer;
  let shared: string;
  let servers: TestServer[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(redisBinary!);
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-shared-'));
    const env = { REDIS_URL: redis.url, DATABASE_PATH: path.join(shared, 'church.sqlite'), KEY_FINGERPRINT_SECRET: 'e'.repeat(64) };
    servers = [await startTestServer(env), await startTestServer(env)];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await redis?.stop();
    if (shared) fs.rmSync(shared, { recursive: true, force: true });
  });

  it('60 requests on one and 60 on the other use up the key; the 121st is 429 with Retry-After', async () => {
    const [one, two] = servers;
    const key = await createTestKey(one.services);
    const church = '/api/public/v1/churches/grace-paris';
    for (let i = 0; i < 60; i++) expect((await getWithKey(one.url + church, key)).status).toBe(200);
    for (let i = 0; i < 60; i++) expect((await getWithKey(two.url + church, key)).status).toBe(200);
    const limited = await getWithKey(two.url + church, key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ status: 429 });
  });
});
