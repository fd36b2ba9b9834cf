// An error met by a repository in a request is answered as a problem and logged with the request's id: a locked database 503, a bug 500.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
/** DATABASE_LOCK_WAIT_MS of the test server: how long a request retries a locked database before its 503. */
const LOCK_WAIT_MS = 200;

type StatementLike = { source: string; get(...args: unknown[]): unknown };

/**
 * Makes better-sqlite3 throw SQLITE_BUSY, as it does when another connection holds the lock and the
 * busy timeout is 0, for the church lookup's statements (the public-church cache's data_version and
 * the slug query), `times` times (all when undefined). Every statement of the process shares the class.
 */
function lockChurchReads(times?: number) {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as StatementLike;
  probe.close();
  const original = prototype.get;
  let thrown = 0;
  return vi.spyOn(prototype, 'get').mockImplementation(function (this: StatementLike, ...args: unknown[]) {
    const churchRead = this.source.includes('PRAGMA data_version') || this.source.includes('FROM churches WHERE slug');
    if (churchRead && (times === undefined || thrown < times)) {
      thrown += 1;
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    }
    return original.apply(this, args);
  });
}

/** The server's log lines after `before`, parsed. */
function linesSince(app: TestServer, before: number): Record<string, unknown>[] {
  return app.logs.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('an error met by a repository during a request', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer({ DATABASE_LOCK_WAIT_MS: String(LOCK_WAIT_MS) });
  });
  afterAll(() => app.close());

  it('answers SQLITE_BUSY that outlasts DATABASE_LOCK_WAIT_MS with 503 database-unavailable and Retry-After, logged as a warning with the request id', async () => {
    const key = await createTestKey(app.services);
    const locked = lockChurchReads();
    try {
      const before = app.logs.length;
      const started = performance.now();
      const response = await getWithKey(app.url + CHURCH, key, { 'x-request-id': 'locked-database' });
      const elapsed = performance.now() - started;
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ type: problemType('database-unavailable'), status: 503 });
      // Tried again and again for the whole wait, not given up at the first refusal.
      expect(elapsed).toBeGreaterThanOrEqual(LOCK_WAIT_MS - 1);
      expect(locked.mock.calls.length).toBeGreaterThan(3);
      const lines = linesSince(app, before);
      expect(lines.filter((entry) => entry.level === 'error')).toEqual([]);
      expect(lines.find((entry) => entry.message === 'database unavailable')).toMatchObject({
        level: 'warn',
        requestId: 'locked-database',
      });
    } finally {
      locked.mockRestore();
    }
  });

  it('answers once the lock is gone within the wait: the request is retried, not refused', async () => {
    const key = await createTestKey(app.services);
    const locked = lockChurchReads(3);
    try {
      const response = await getWithKey(app.url + CHURCH, key);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { slug: string }).slug).toBe('grace-paris');
    } finally {
      locked.mockRestore();
    }
  });

  it('answers any other error with the internal-error problem (500, problem+json) and logs it with the request id', async () => {
    const key = await createTestKey(app.services);
    // A fault that waiting cannot cure: a bug's answer.
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    const lookup = vi.spyOn(app.services.churches, 'publicChurchBySlug').mockRejectedValue(corrupt);
    try {
      const before = app.logs.length;
      const response = await getWithKey(app.url + CHURCH, key, { 'x-request-id': 'repository-error' });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        type: problemType('internal-error'),
        title: 'Internal server error',
        status: 500,
        detail: 'The server could not answer this request. It has been logged.',
      });
      const errors = linesSince(app, before).filter((entry) => entry.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ message: 'unhandled error', requestId: 'repository-error', path: CHURCH });
      expect(JSON.stringify(errors[0])).toContain('database disk image is malformed');
    } finally {
      lookup.mockRestore();
    }
  });
});
