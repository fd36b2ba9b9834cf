// Concurrent bursts with one valid key: exactly the per-key limit passes, and the invalid-key throttle never refuses a valid key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

/** Sends `count` requests with `key` at once, spread over `servers` in turn; returns each response's status and problem type. */
async function burst(servers: TestServer[], key: string, count: number): Promise<{ status: number; type?: string }[]> {
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => getWithKey(servers[i % servers.length].url + CHURCH, key)));
  return Promise.all(
    responses.map(async (response) => {
      const body = (await response.json()) as { type?: string };
      return { status: response.status, type: response.status === 200 ? undefined : body.type };
    }),
  );
}

function expectExactlyTheLimit(results: { status: number; type?: string }[]): void {
  expect(results.filter((result) => result.status === 200)).toHaveLength(120);
  const refused = results.filter((result) => result.status !== 200);
  expect(refused).toHaveLength(80);
  for (const result of refused) expect(result).toEqual({ status: 429, type: problemType('key-rate-limited') });
}

function expectNoneRefusedAsInvalid(results: { status: number; type?: string }[]): void {
  expect(results.filter((result) => result.type === problemType('too-many-invalid-keys'))).toEqual([]);
  expect(results.every((result) => result.status === 200)).toBe(true);
}

describe('concurrent requests with one key, memory store', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer();
  });
  afterAll(() => app.close());

  it('let exactly 120 of 200 concurrent requests through; the other 80 are 429 key-rate-limited', async () => {
    expectExactlyTheLimit(await burst([app], await createTestKey(app.services), 200));
  });

  it('never refuse 60 concurrent valid requests as "too many invalid keys" (limit 30)', async () => {
    expect(app.services.config.invalidKeyLimitPerMinute).toBeLessThan(60);
    expectNoneRefusedAsInvalid(await burst([app], await createTestKey(app.services), 60));
  });
});

describeWith(['redis-server'], 'concurrent requests with one key, two instances sharing one Redis', () => {
  let redis: RedisTestServer;
  let shared: string;
  let servers: TestServer[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(requirement('redis-server').path!);
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-burst-'));
    const env = { REDIS_URL: redis.url, DATABASE_PATH: path.join(shared, 'church.sqlite'), KEY_FINGERPRINT_SECRET: 'f'.repeat(64) };
    servers = [await startTestServer(env), await startTestServer(env)];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await redis?.stop();
    if (shared) fs.rmSync(shared, { recursive: true, force: true });
  });

  it('let exactly 120 of 200 concurrent requests through across both', async () => {
    expectExactlyTheLimit(await burst(servers, await createTestKey(servers[0].services), 200));
  });

  it('never refuse 60 concurrent valid requests on one instance as "too many invalid keys"', async () => {
    expectNoneRefusedAsInvalid(await burst([servers[0]], await createTestKey(servers[0].services), 60));
  });
});
