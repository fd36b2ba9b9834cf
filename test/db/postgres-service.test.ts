// The service and the operator CLI on PostgreSQL (DATABASE_URL): the same answers as on SQLite, keys made by the CLI, revocation at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { fixedClock } from '../helpers/clock.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches';
const SECRET = 'p'.repeat(64);
/** Every church endpoint, with paging and filters, over the demo churches. */
const PATHS = [
  'grace-paris',
  'grace-paris/events',
  'grace-paris/posts?page=1&size=3',
  'grace-paris/library',
  'grace-paris/library?type=audio',
  'grace-paris/store',
  'grace-paris/gallery',
  'grace-paris/gallery/paques-2026/photos',
  'grace-paris/gallery/album-prive/photos',
  'grace-paris/live',
  'igreja-esperanca-sp/events',
  'harbour-light-auckland/live',
  'stille-kapel-utrecht',
  'no-such-church',
];

describeWith(['postgres'], 'the service on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  const clock = fixedClock(new Date('2026-06-15T09:30:00Z'));
  let url = '';
  let postgres: TestServer;
  let sqlite: TestServer;
  /** Runs one CLI command on the PostgreSQL database; returns what it printed. */
  const cli = async (...argv: string[]): Promise<string> => {
    const printed: string[] = [];
    const code = await runCli(
      argv,
      (line) => printed.push(line),
      (line) => printed.push(line),
      { DATABASE_URL: url, KEY_FINGERPRINT_SECRET: SECRET },
    );
    expect(code, printed.join('\n')).toBe(0);
    return printed.join('\n');
  };
  /** A verified developer and one key made through the CLI, as an operator does; returns the key it printed once. */
  const createKeyWithCli = async (email: string): Promise<string> => {
    await cli('create-developer', '--email', email, '--name', 'Operator made', '--verified');
    const key = /sk_live_\w+/.exec(await cli('create-key', '--email', email, '--name', 'site'))?.[0];
    expect(key).toBeDefined();
    return key!;
  };

  beforeAll(async () => {
    // An empty database: the service migrates it at start, then loads the demo churches as on SQLite.
    url = (await databases.empty()).url;
    const env = { KEY_FINGERPRINT_SECRET: SECRET, LOG_LEVEL: 'warn' };
    postgres = await startTestServer({ ...env, DATABASE_URL: url }, { clock });
    sqlite = await startTestServer(env, { clock });
  });
  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
  });

  it('answers every church endpoint byte for byte as the service on SQLite does', async () => {
    const key = await createKeyWithCli('same@example.org');
    // The same key on SQLite: one fingerprint secret, the same fingerprint stored for a developer there.
    const twin = await sqlite.services.accountService.createDeveloper({ name: 'Same', email: 'same@example.org', verified: true });
    const fingerprint = sqlite.services.fingerprinter.fingerprint(key);
    await sqlite.services.accountRepository.insertKeyIfActiveBelow(twin.id, 5, {
      name: 'site',
      fingerprint,
      hint: key.slice(-4),
      createdAt: twin.createdAt,
    });
    for (const path of PATHS) {
      const [fromPostgres, fromSqlite] = await Promise.all(
        [postgres, sqlite].map(async (server) => {
          const response = await fetch(`${server.url}${CHURCH}/${path}`, { headers: { Authorization: `Bearer ${key}` } });
          const headers = ['content-type', 'etag', 'ratelimit-policy', 'cache-control'].map((name) => response.headers.get(name));
          return { status: response.status, headers, body: await response.text() };
        }),
      );
      expect(fromPostgres, path).toEqual(fromSqlite);
      expect(fromPostgres.status, path).toBe(
        ['stille-kapel-utrecht', 'no-such-church', 'grace-paris/gallery/album-prive/photos'].includes(path) ? 404 : 200,
      );
    }
  });

  it('serves a key the CLI created, records its use, and refuses it on the very next request after the CLI revoked it', async () => {
    const key = await createKeyWithCli('ops@example.org');
    const request = () => fetch(`${postgres.url}${CHURCH}/grace-paris`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await request()).status).toBe(200);
    const developer = (await postgres.services.accountService.developerByEmail('ops@example.org'))!;
    const [record] = await postgres.services.accountService.listKeys(developer.id);
    await expect
      .poll(async () => (await postgres.services.accountService.listKeys(developer.id))[0].lastUsedAt, { timeout: 10_000 })
      .not.toBeNull();
    await cli('revoke-key', '--email', 'ops@example.org', '--id', String(record.id));
    expect((await request()).status).toBe(401);
  });

  it('counts what the database holds through the CLI, as the service loaded it', async () => {
    const counts = await postgres.services.churches.counts();
    const listing = await cli('counts');
    expect(counts.churches).toBe(5);
    expect(listing).toMatch(new RegExp(`churches\\D+${counts.churches}\\b`));
    expect(listing).toMatch(new RegExp(`photos\\D+${counts.photos}\\b`));
  });
});
