// After a revoke returns, no request with that key succeeds on any instance sharing the database file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
const INSTANCES = 3;

interface Outcome {
  /** Which of the servers answered. */
  instance: number;
  startedAt: number;
  status: number;
}

describe(`a key revoked while ${INSTANCES} instances serve it`, () => {
  let shared: string;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-revoke-'));
    // Each instance has its own connection to the one file, as separate processes would; the key limit and the
    // invalid-key throttle (which would answer 429 once the revoked key's 401s pile up) are out of the way.
    const env = {
      DATABASE_PATH: path.join(shared, 'church.sqlite'),
      KEY_FINGERPRINT_SECRET: 'r'.repeat(64),
      KEY_RATE_LIMIT_PER_MINUTE: '100000',
      INVALID_KEY_LIMIT_PER_MINUTE: '100000',
    };
    for (let i = 0; i < INSTANCES; i++) servers.push(await startTestServer(env));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    if (shared) fs.rmSync(shared, { recursive: true, force: true });
  });

  it('answers 401 on every instance to every request that starts after the revoke returned', async () => {
    const email = 'revoked-under-load@example.org';
    const key = await createTestKey(servers[0].services, { email });
    const developer = (await servers[0].services.accountService.developerByEmail(email))!;
    const [record] = await servers[0].services.accountService.listKeys(developer.id);

    const outcomes: Outcome[] = [];
    let stop = false;
    // Plain fetch: thousands of responses need no contract check here, only their status.
    const load = servers.map(async (server, instance) => {
      while (!stop) {
        const startedAt = performance.now();
        const response = await fetch(server.url + CHURCH, { headers: { Authorization: `Bearer ${key}` } });
        await response.arrayBuffer();
        outcomes.push({ instance, startedAt, status: response.status });
      }
    });
    // Counts, not sleeps: each instance answers a few requests with the key before the revoke and
    // a few that start after it, however slow the machine is.
    const eachInstance = (count: (outcomes: Outcome[]) => number) =>
      Math.min(...servers.map((_server, instance) => count(outcomes.filter((outcome) => outcome.instance === instance))));
    const POLL = { timeout: 30_000, interval: 5 };
    await expect
      .poll(() => eachInstance((mine) => mine.filter((outcome) => outcome.status === 200).length), POLL)
      .toBeGreaterThanOrEqual(3);
    // The revoke goes through the last instance's own connection, the requests through all of them.
    await servers[INSTANCES - 1].services.accountService.revokeKey(developer.id, record.id);
    const revokedAt = performance.now();
    await expect
      .poll(() => eachInstance((mine) => mine.filter((outcome) => outcome.startedAt > revokedAt).length), POLL)
      .toBeGreaterThanOrEqual(3);
    stop = true;
    await Promise.all(load);

    const after = outcomes.filter((outcome) => outcome.startedAt > revokedAt);
    expect(after.filter((outcome) => outcome.status !== 401)).toEqual([]);
  });
});
