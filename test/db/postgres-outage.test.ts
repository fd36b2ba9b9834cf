// When PostgreSQL is down, slow or out of connections, requests end in a 503 problem within the configured timeouts, never a hang.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StorageUnavailableError } from '../../src/db/storage-unavailable.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { problemType } from '../helpers/problem.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const PROFILE = '/api/public/v1/churches/grace-paris';
/** Far above the configured timeouts: a request still open after this long is a hang. */
const HANG = 20_000;

describeWith(['postgres'], 'the service when PostgreSQL cannot answer', () => {
  const databases = usePostgresDatabases();
  let server: TestServer;

  beforeAll(async () => {
    const { url } = await databases.migrated();
    server = await startTestServer({
      DATABASE_URL: url,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      INVALID_KEY_LIMIT_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 503 database-unavailable with Retry-After while the server is down, and 200 again once it is back, without a restart', async () => {
    const key = await createTestKey(server.services);
    const request = () => fetch(server.url + PROFILE, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(HANG) });
    expect((await request()).status).toBe(200);

    await databases.server().halt();
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await request();
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        expect(((await response.json()) as { type: string }).type).toBe(problemType('database-unavailable'));
      }
      expect(await failingReadinessChecks(server)).toContain('database');
      const warnings = server.logs.filter((line) => line.includes('"database unavailable"'));
      expect(warnings.length).toBeGreaterThanOrEqual(3);
    } finally {
      await databases.server().start();
    }

    expect((await request()).status).toBe(200);
    expect(await failingReadinessChecks(server)).not.toContain('database');
    // The URL's password reaches no log line, whatever the error.
    expect(server.logs.filter((line) => line.includes(databases.server().password))).toEqual([]);
  });
});

describeWith(['postgres'], 'the PostgreSQL pool under pressure', () => {
  const databases = usePostgresDatabases();

  it('ends a statement that runs past the statement timeout as unavailable, and the connection serves the next query', async () => {
    const database = await databases.migrated();
    try {
      const db = database.open({ statementTimeoutMs: 300, maxConnections: 1 });
      await expect(db.rows('SELECT pg_sleep(5)')).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(await db.rows<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });

  it('refuses a query that finds every connection busy once the connect timeout has passed, instead of queueing it for ever', async () => {
    const database = await databases.migrated();
    try {
      const db = database.open({ maxConnections: 2, connectTimeoutMs: 300 });
      // Both connections are taken by transactions the test holds open until the third query has
      // been refused: no sleep decides whether they are busy. (They sit idle for about the connect
      // timeout, far inside the 5 s idle-in-transaction timeout.)
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const inside: Promise<void>[] = [];
      const holding = [1, 2].map(() => {
        let entered!: () => void;
        inside.push(new Promise<void>((resolve) => (entered = resolve)));
        return db.transaction(async (tx) => {
          await tx.rows('SELECT 1');
          entered();
          await released;
        });
      });
      await Promise.all(inside);
      try {
        await expect(db.rows('SELECT 1')).rejects.toBeInstanceOf(StorageUnavailableError);
      } finally {
        release();
      }
      await Promise.all(holding);
      expect(await db.rows('SELECT 1 AS one')).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('rolls a transaction back when the server ends it for idling past the timeout, and reports the database unavailable', async () => {
    const database = await databases.migrated();
    try {
      const db = database.open({ statementTimeoutMs: 300 });
      const idle = db.transaction(async (tx) => {
        await tx.run("INSERT INTO reserved_emails (email, imported_at) VALUES ('idle@example.org', 'now')");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await tx.rows('SELECT 1');
      });
      await expect(idle).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(await db.rows("SELECT 1 FROM reserved_emails WHERE email = 'idle@example.org'")).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

/** The names of the checks /readyz reports failing (this server has no Bible build, so `bible` always fails). */
async function failingReadinessChecks(server: TestServer): Promise<string[]> {
  const response = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(HANG) });
  const body = (await response.json()) as { detail?: string };
  return [...(body.detail ?? '').matchAll(/(?:: |; )(\w+) \(/g)].map((match) => match[1]);
}
