// Portal sessions are written when they change, and their expiry moved at most once a minute: reading pages writes no session row.
import path from 'node:path';
import type session from 'express-session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { hashSessionId, RepositorySessionStore, TOUCH_INTERVAL_MS } from '../../src/portal/session-store.ts';
import type { SessionRepository, StoredSession } from '../../src/portal/storage/session-repository.ts';
import { type PortalTestServer, signUpVerified, startPortalTestServer } from './portal-server.ts';

/** A session repository in memory that counts its writes; `touch` may be made to hang. */
function countingRepository() {
  const rows = new Map<string, StoredSession>();
  const writes: string[] = [];
  let touchHangs = false;
  const repository: SessionRepository = {
    async find(idHash) {
      return rows.get(idHash);
    },
    async save(idHash, stored) {
      writes.push('save');
      rows.set(idHash, stored);
    },
    async touch(idHash, expiresAt) {
      writes.push('touch');
      if (touchHangs) return new Promise<void>(() => undefined);
      const row = rows.get(idHash);
      if (row) rows.set(idHash, { ...row, expiresAt });
    },
    async delete(idHash) {
      writes.push('delete');
      rows.delete(idHash);
    },
    async deleteForDeveloper() {
      return 0;
    },
    async deleteExpired() {
      return 0;
    },
  };
  return { repository, rows, writes, hangTouches: () => (touchHangs = true) };
}

const callback = <T>(run: (done: (error?: unknown, value?: T) => void) => void) =>
  new Promise<T | undefined>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));

/** Session data as express-session hands it over, expiring at `expires`. */
const sessionData = (expires: number) => ({ cookie: { expires: new Date(expires), originalMaxAge: 3_600_000 } }) as session.SessionData;

describe('the session store', () => {
  it('moves a session’s stored expiry only when that gains a minute or more', async () => {
    const { repository, writes } = countingRepository();
    const store = new RepositorySessionStore(repository, 3_600_000);
    const start = Date.now() + 3_600_000;
    await callback((done) => store.set('sid', sessionData(start), done));
    expect(writes).toEqual(['save']);

    // Requests within the minute: express-session touches, the store writes nothing.
    for (const later of [1_000, 30_000, TOUCH_INTERVAL_MS - 1]) {
      await callback((done) => store.get('sid', done));
      await callback<void>((done) => store.touch('sid', sessionData(start + later), () => done()));
    }
    expect(writes).toEqual(['save']);

    await callback((done) => store.get('sid', done));
    await callback<void>((done) => store.touch('sid', sessionData(start + TOUCH_INTERVAL_MS), () => done()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['save', 'touch']);
    // The minute is counted from the expiry now stored.
    await callback<void>((done) => store.touch('sid', sessionData(start + TOUCH_INTERVAL_MS + 30_000), () => done()));
    expect(writes).toEqual(['save', 'touch']);
  });

  it('never makes the response wait for a touch (the database may be locked)', async () => {
    const { repository, writes, hangTouches } = countingRepository();
    const store = new RepositorySessionStore(repository, 3_600_000);
    await callback((done) => store.set('sid', sessionData(Date.now()), done));
    hangTouches();
    // The callback comes although the write never ends.
    await callback<void>((done) => store.touch('sid', sessionData(Date.now() + 2 * TOUCH_INTERVAL_MS), () => done()));
    expect(writes).toEqual(['save', 'touch']);
  });

  it('stores ids only as hashes', async () => {
    const { repository, rows } = countingRepository();
    const store = new RepositorySessionStore(repository, 3_600_000);
    await callback((done) => store.set('the-session-id', sessionData(Date.now() + 1_000), done));
    expect([...rows.keys()]).toEqual([hashSessionId('the-session-id')]);
  });
});

describe('a signed-in developer reading pages', () => {
  let server: PortalTestServer;
  let db: Database.Database;
  beforeAll(async () => {
    server = await startPortalTestServer();
    // Every write to the session table, by any connection, is counted by the database itself.
    db = new Database(path.join(server.dir, 'church.sqlite'));
    db.exec(`
      CREATE TABLE test_session_writes (kind TEXT NOT NULL);
      CREATE TRIGGER test_session_insert AFTER INSERT ON portal_sessions BEGIN INSERT INTO test_session_writes VALUES ('insert'); END;
      CREATE TRIGGER test_session_update AFTER UPDATE ON portal_sessions BEGIN INSERT INTO test_session_writes VALUES ('update'); END;
      CREATE TRIGGER test_session_delete AFTER DELETE ON portal_sessions BEGIN INSERT INTO test_session_writes VALUES ('delete'); END;
    `);
  });
  afterAll(async () => {
    db?.close();
    await server?.close();
  });
  const writes = () => db.prepare('SELECT kind FROM test_session_writes').pluck().all() as string[];

  it('writes no session row for pages that change nothing in the session, and writes the ones that do', async () => {
    const client = await signUpVerified(server, 'reader@example.org');
    const before = writes().length;
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) {
      for (const page of ['/portal/keys', '/portal/account', '/portal/guide']) expect((await client.get(page)).status, page).toBe(200);
    }
    expect(writes().slice(before)).toEqual([]);

    // A change (a notice for the next page) is written, and reading it (it is shown once) is a change too.
    expect((await client.post('/portal/account/name', { name: 'Renamed Reader' })).status).toBe(303);
    expect((await client.get('/portal/account')).body).toContain('Your name is saved.');
    expect(writes().slice(before)).toEqual(['update', 'update']);
  });
});
