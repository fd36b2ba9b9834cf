// Church records kept by each instance on PostgreSQL: served from memory while LISTEN hears no change, dropped on an import's NOTIFY, never kept while the listener is down.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { validateChurchDocument } from '../../src/church/import/validate.ts';
import { createPostgresChurchRepository } from '../../src/church/postgres-repository.ts';
import type { ChurchRepository } from '../../src/church/repository.ts';
import { CHURCH_DATA_CHANNEL } from '../../src/db/postgres/church-data-channel.ts';
import type { ChannelListener, ListenOptions, PostgresDatabase } from '../../src/db/postgres/database.ts';
import { type TestDatabase, usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { CHURCHES, churchDocument } from './church-api.ts';

/** How long a notification may take to arrive on a loaded machine (expect.poll's default is one second). */
const POLL = { timeout: 15_000, interval: 20 };
const NOW = new Date('2026-06-15T09:30:00Z');

describeWith(['postgres'], 'church records kept on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  let database: TestDatabase;
  const listeners: ChannelListener[] = [];

  beforeEach(async () => {
    database = await databases.migrated();
  });
  afterEach(async () => {
    await Promise.all(listeners.splice(0).map((listener) => listener.close()));
    await database.close();
  });

  /** One instance's church repository over a pool of its own, and its listener (named `${name} (listener)` in pg_stat_activity). */
  const instance = (name: string, options: ListenOptions = {}) => {
    const db: PostgresDatabase = database.open({ applicationName: name });
    const listener = db.listen(CHURCH_DATA_CHANNEL, options);
    listeners.push(listener);
    return { db, listener, churches: createPostgresChurchRepository(db, { listen: () => listener }) };
  };
  /** The first import, made before any instance listens, so that no instance hears it after it started keeping records. */
  const importFirst = (name: string) => importChurch(createPostgresChurchRepository(database.open()), name);
  const importChurch = (churches: ChurchRepository, name: string) =>
    churches.importChurches(validateChurchDocument({ churches: [churchDocument('open', { name })] }, { now: NOW }));
  const nameOf = async (churches: ChurchRepository) => (await churches.publicChurchBySlug('open'))?.name;
  const killListener = async (name: string) => {
    const killed = await databases
      .server()
      .query<{ killed: boolean }>(
        database.name,
        'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1',
        [`${name} (listener)`],
      );
    expect(killed).toEqual([{ killed: true }]);
  };

  it('serves the record it read first from memory, until a NOTIFY on church_data_changed', async () => {
    await importFirst('First');
    const a = instance('instance-a');
    await expect.poll(() => a.listener.listening, POLL).toBe(true);
    const first = await a.churches.publicChurchBySlug('open');
    expect(await a.churches.publicChurchBySlug('open')).toBe(first);
    // A change behind the service's back, without NOTIFY: the kept record is what answers, so the database was not asked.
    await databases.server().query(database.name, "UPDATE churches SET name = 'Edited by hand' WHERE slug = 'open'");
    expect(await nameOf(a.churches)).toBe('First');
    await databases.server().query(database.name, `NOTIFY ${CHURCH_DATA_CHANNEL}`);
    await expect.poll(() => nameOf(a.churches), POLL).toBe('Edited by hand');
    // An unknown slug is never kept: a church imported later is found at once.
    expect(await a.churches.publicChurchBySlug('later')).toBeUndefined();
  });

  it("drops instance B's kept record when instance A imports, and keeps the new one", async () => {
    await importFirst('Before');
    const a = instance('instance-a');
    const b = instance('instance-b');
    await expect.poll(() => b.listener.listening, POLL).toBe(true);
    const kept = await b.churches.publicChurchBySlug('open');
    expect(await b.churches.publicChurchBySlug('open')).toBe(kept);
    await importChurch(a.churches, 'After');
    await expect.poll(() => nameOf(b.churches), POLL).toBe('After');
    const again = await b.churches.publicChurchBySlug('open');
    expect(again).not.toBe(kept);
    expect(await b.churches.publicChurchBySlug('open')).toBe(again);
  });

  it('keeps nothing while its listening connection is down, so an import made meanwhile is seen at once', async () => {
    await importFirst('Before');
    const a = instance('instance-a');
    // No reconnection within the test: the outage lasts as long as the test needs.
    const b = instance('instance-b', { retryMs: 600_000 });
    await expect.poll(() => b.listener.listening, POLL).toBe(true);
    expect(await nameOf(b.churches)).toBe('Before');
    await killListener('instance-b');
    await expect.poll(() => b.listener.listening, POLL).toBe(false);
    await importChurch(a.churches, 'During the outage');
    expect(await nameOf(b.churches)).toBe('During the outage');
    // Read from the database each time: two reads, two records.
    expect(await b.churches.publicChurchBySlug('open')).not.toBe(await b.churches.publicChurchBySlug('open'));
    expect(b.listener.listening).toBe(false);
  });

  it('stops keeping records when the server stops answering its heartbeat, and keeps them again once it answers', async () => {
    await importFirst('Before');
    const db = database.open({ applicationName: 'instance-b', statementTimeoutMs: 300 });
    const listener = db.listen(CHURCH_DATA_CHANNEL, { heartbeatMs: 100, retryMs: 50 });
    listeners.push(listener);
    const churches = createPostgresChurchRepository(db, { listen: () => listener });
    await expect.poll(() => listener.listening, POLL).toBe(true);
    const kept = await churches.publicChurchBySlug('open');
    expect(await churches.publicChurchBySlug('open')).toBe(kept);
    // A hung server: the connection stays open, nothing answers; only the heartbeat's timeout tells.
    databases.server().pause();
    try {
      await expect.poll(() => listener.listening, POLL).toBe(false);
    } finally {
      databases.server().resume();
    }
    await expect.poll(() => listener.listening, POLL).toBe(true);
    const again = await churches.publicChurchBySlug('open');
    expect(again).not.toBe(kept);
    expect(await churches.publicChurchBySlug('open')).toBe(again);
  });

  it('listens again after its connection was killed, then keeps records and hears imports as before', async () => {
    await importFirst('Before');
    const a = instance('instance-a');
    const b = instance('instance-b', { retryMs: 50 });
    await expect.poll(() => b.listener.listening, POLL).toBe(true);
    const epoch = b.listener.epoch;
    await killListener('instance-b');
    // Back once the epoch moved past the loss and the new LISTEN.
    await expect.poll(() => b.listener.listening && b.listener.epoch >= epoch + 2, POLL).toBe(true);
    const kept = await b.churches.publicChurchBySlug('open');
    expect(await b.churches.publicChurchBySlug('open')).toBe(kept);
    await importChurch(a.churches, 'After the outage');
    await expect.poll(() => nameOf(b.churches), POLL).toBe('After the outage');
  });
});

describeWith(['postgres'], 'two service instances on one PostgreSQL', () => {
  const databases = usePostgresDatabases();
  const SECRET = 'k'.repeat(64);
  let servers: TestServer[] = [];
  let databaseName = '';

  beforeEach(async () => {
    const { name, url } = await databases.empty();
    databaseName = name;
    const env = { DATABASE_URL: url, KEY_FINGERPRINT_SECRET: SECRET, LOG_LEVEL: 'warn', KEY_RATE_LIMIT_PER_MINUTE: '100000' };
    // The first migrates the empty database and loads the demo churches; the second finds both done.
    servers = [await startTestServer({ ...env, DEMO_DATA: 'true' }), await startTestServer({ ...env, DEMO_DATA: 'false' })];
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it("answers from B the profile A's import wrote, and refuses a key revoked on A on the next request of both", async () => {
    const [a, b] = servers;
    const accounts = createAccountService({ repository: a.services.accountRepository, fingerprinter: a.services.fingerprinter });
    const developer = await accounts.createDeveloper({ name: 'Two', email: 'two@example.org', verified: true });
    const { key, record } = await accounts.createKey(developer.id, 'site');
    const get = (server: TestServer) =>
      fetch(`${server.url}${CHURCHES}/open`, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
    const nameFrom = async (server: TestServer) => {
      const response = await get(server);
      return response.status === 200 ? ((await response.json()) as { name: string }).name : response.status;
    };
    const importOnA = (name: string) =>
      a.services.churches.importChurches(validateChurchDocument({ churches: [churchDocument('open', { name })] }, { now: new Date() }));

    await importOnA('Before');
    // The first church read starts each instance's listener; once both have said LISTEN, what they read next they keep.
    for (const server of servers) expect(await nameFrom(server)).toBe('Before');
    const listening = () =>
      databases
        .server()
        .query(
          databaseName,
          "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND application_name = 'church-api (listener)' AND query LIKE 'LISTEN%' AND state = 'idle'",
          [databaseName],
        );
    await expect.poll(async () => (await listening()).length, POLL).toBe(2);
    for (const server of servers) for (let read = 0; read < 3; read++) expect(await nameFrom(server)).toBe('Before');
    await importOnA('After');
    await expect.poll(() => nameFrom(b), POLL).toBe('After');
    expect(await nameFrom(a)).toBe('After');
    // Both keep the profile now (their listeners are up): a revocation must still hold on the very next request.
    for (const server of servers) expect(await nameFrom(server)).toBe('After');
    await accounts.revokeKey(developer.id, record.id);
    for (const server of servers) expect((await get(server)).status).toBe(401);
  });
});
