// /healthz and /readyz over real HTTP: no key, no limit, quiet in the log; readiness follows the database, the Bible build and Redis.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch } from '../helpers/api-client.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { problemType } from '../helpers/problem.ts';
import { type RedisTestServer, startRedisServer } from '../helpers/redis-server.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

interface Readiness {
  status: string;
  checks: { name: string; ok: boolean; detail?: string; ms: number }[];
}

let bible: BibleFixture;
beforeAll(async () => {
  bible = await buildBibleFixture();
});
afterAll(() => bible?.remove());

describe('probes of a server with its Bible built', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Tiny limits: the probes must pass them all, with or without a key.
    server = await startTestServer({
      ...bible.env,
      DEMO_DATA: 'false',
      BIBLE_RATE_LIMIT_PER_MINUTE: '1',
      INVALID_KEY_LIMIT_PER_MINUTE: '1',
      KEY_RATE_LIMIT_PER_MINUTE: '1',
    });
  });
  afterAll(() => server?.close());

  it('/healthz answers 200 {"status":"ok"}, uncached, without a key and however often it is asked', async () => {
    for (let i = 0; i < 20; i++) {
      const response = await apiFetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({ status: 'ok' });
    }
  });

  it('/readyz answers 200 with each check passed: the database, and the Bible with its build hash', async () => {
    for (let i = 0; i < 5; i++) expect((await apiFetch(`${server.url}/readyz`)).status).toBe(200);
    const response = await apiFetch(`${server.url}/readyz`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Readiness;
    expect(body.status).toBe('ready');
    expect(body.checks.map(({ name, ok, detail }) => ({ name, ok, detail }))).toEqual([
      { name: 'database', ok: true, detail: undefined },
      { name: 'bible', ok: true, detail: `build ${bible.buildHash}` },
    ]);
  });

  it('answers HEAD on both without a body', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await apiFetch(server.url + path, { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
    }
  });

  it('logs successful probes at debug, not as info lines of the access log', async () => {
    const before = server.logs.length;
    await apiFetch(`${server.url}/healthz`);
    await apiFetch(`${server.url}/readyz`);
    await apiFetch(`${server.url}/api/v1/bible/versions`);
    const requests = server.logs
      .slice(before)
      .map((line) => JSON.parse(line) as { message: string; path?: string })
      .filter((entry) => entry.message === 'request');
    expect(requests.map((entry) => entry.path)).toEqual(['/api/v1/bible/versions']);
  });
});

describe('probes of a server without a Bible build', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DEMO_DATA: 'false' });
  });
  afterAll(() => server?.close());

  it('/healthz still answers 200: the process is up', async () => {
    expect((await apiFetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('/readyz answers 503 not-ready naming the bible check and why, logged once as a warning', async () => {
    const before = server.logs.length;
    for (let i = 0; i < 3; i++) {
      const response = await apiFetch(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const problem = (await response.json()) as { type: string; title: string; detail: string };
      expect(problem).toMatchObject({ type: problemType('not-ready'), title: 'Service not ready', status: 503 });
      expect(problem.detail).toMatch(/^Failing checks: bible \(The Bible has not been built: .+\)\.$/);
      expect(problem.detail).toContain(`Looked in BIBLE_PUBLIC_DIR ${path.join(server.dir, 'public')} (no such folder) and BIBLE_DB_PATH`);
      expect(problem.detail).not.toContain('database');
    }
    const warnings = server.logs.slice(before).filter((line) => line.includes('"message":"not ready"'));
    expect(warnings).toHaveLength(1);
    // A failing probe stays in the access log.
    expect(server.logs.slice(before).filter((line) => line.includes('"path":"/readyz"'))).toHaveLength(3);
  });
});

describe('probes of an instance meant for church data only (READYZ_BIBLE=false)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ DEMO_DATA: 'false', READYZ_BIBLE: 'false' });
  });
  afterAll(() => server?.close());

  it('/readyz leaves the Bible out: ready without a build, while the Bible endpoints still say it is not built', async () => {
    const response = await apiFetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Readiness;
    expect(body.checks.map(({ name, ok }) => [name, ok])).toEqual([['database', true]]);
    expect((await apiFetch(`${server.url}/api/v1/bible/Gn/1`)).status).toBe(503);
  });
});

describeWith(['redis-server'], 'readiness with the rate-limit Redis', () => {
  let redis: RedisTestServer;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startRedisServer(requirement('redis-server').path!);
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
  });

  it('checks Redis with a PING when it is configured', async () => {
    const body = (await (await apiFetch(`${server.url}/readyz`)).json()) as Readiness;
    expect(body.checks.map((check) => [check.name, check.ok])).toEqual([
      ['database', true],
      ['bible', true],
      ['redis', true],
    ]);
  });

  it('answers 503 naming redis after its 1 s check timeout while Redis is paused, 200 again once it resumes; /healthz stays 200', async () => {
    redis.pause();
    try {
      // Redis stays paused until the test resumes it: the answer comes from the check's own 1 s
      // timeout (the detail says so), never from Redis. A probe that waited for Redis would not
      // answer at all: it fails here after 10 s rather than at the test's timeout.
      const response = await Promise.race([
        apiFetch(`${server.url}/readyz`),
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('/readyz did not answer within 10 s')), 10_000).unref()),
      ]);
      expect(response.status).toBe(503);
      expect(((await response.json()) as { detail: string }).detail).toBe('Failing checks: redis (no answer within 1000 ms).');
      expect((await apiFetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      redis.resume();
    }
    expect((await apiFetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
