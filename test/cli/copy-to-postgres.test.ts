// `cli copy-to-postgres`: a SQLite database moved into an empty PostgreSQL one whole (ids, fingerprints, times), checked by counts, or not at all.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { loadDemoDataIfEmpty } from '../../src/church/demo-data.ts';
import { runCli } from '../../src/cli/main.ts';
import { COPIED_TABLES } from '../../src/db/copy-to-postgres.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';
import { sqliteStorage } from '../../src/storage.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { startTestServer } from '../helpers/test-server.ts';

const SECRET = 'c'.repeat(64);
const t0 = '2026-03-01T10:00:00.000Z';

describeWith(['postgres'], 'copy-to-postgres', () => {
  const databases = usePostgresDatabases();
  let dir = '';
  let source = '';
  /** A key issued on SQLite before the move. */
  let key = '';

  /** Runs the CLI with DATABASE_URL (when given) and the fingerprint secret; returns its exit code and lines. */
  const cli = async (url: string | undefined, ...argv: string[]) => {
    const out: string[] = [];
    const errors: string[] = [];
    const env: NodeJS.ProcessEnv = { KEY_FINGERPRINT_SECRET: SECRET, DATABASE_PATH: source, ...(url ? { DATABASE_URL: url } : {}) };
    const code = await runCli(
      argv,
      (line) => out.push(line),
      (line) => errors.push(line),
      env,
    );
    return { code, out, errors };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-copy-'));
    source = path.join(dir, 'church.sqlite');
    key = await fillSqlite(source);
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table with its ids, fingerprints and times, prints the counts, and the service goes on from there', async () => {
    const target = await databases.empty();
    const { code, out, errors } = await cli(target.url, 'copy-to-postgres');
    expect(errors).toEqual([]);
    expect(code).toBe(0);

    const sqlite = openDatabase(source);
    try {
      for (const table of COPIED_TABLES) {
        const count = sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
        expect(count, `${table} has rows to copy`).toBeGreaterThan(0);
        expect(
          out
            .find((line) => line.startsWith(`${table} `))
            ?.split(/\s+/)
            .slice(1),
          table,
        ).toEqual([String(count), String(count)]);
        // Row for row, column for column (yes/no columns compared as booleans).
        const copied = await databases.server().query(target.name, `SELECT * FROM ${table} ORDER BY 1, 2`);
        const original = (sqlite.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all() as Record<string, unknown>[]).map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([name, value]) => [name, typeof copied[0][name] === 'boolean' ? value === 1 : value]),
          ),
        );
        expect(
          copied.map((row) => normaliseIds(row)),
          table,
        ).toEqual(original);
      }
    } finally {
      sqlite.close();
    }
    expect(out.at(-1)).toMatch(/^Copied \d+ rows from .*church\.sqlite into 127\.0\.0\.1:\d+\/test_\w+ in \d+ ms; every count matches\.$/);

    // The key issued on SQLite works on the PostgreSQL instance; a new church, developer and key get fresh ids.
    const server = await startTestServer({ DATABASE_URL: target.url, KEY_FINGERPRINT_SECRET: SECRET, DEMO_DATA: 'false' });
    try {
      const response = await fetch(`${server.url}/api/public/v1/churches/grace-paris`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      const newcomer = await server.services.accountService.createDeveloper({ name: 'New', email: 'new@example.org', verified: true });
      const { record } = await server.services.accountService.createKey(newcomer.id, 'after the move');
      const [{ max }] = await databases
        .server()
        .query<{ max: number }>(target.name, 'SELECT max(id)::int AS max FROM api_keys WHERE id <> $1', [record.id]);
      expect(record.id).toBeGreaterThan(max);
    } finally {
      await server.close();
    }
  });

  it('refuses a PostgreSQL database that holds any row, and changes nothing there', async () => {
    const target = await databases.migrated();
    await databases.server().query(target.name, "INSERT INTO reserved_emails (email, imported_at) VALUES ('already@example.org', 'x')");
    const { code, errors } = await cli(target.url, 'copy-to-postgres');
    expect(code).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/^Error: Not copied: the PostgreSQL database is not empty: reserved_emails \(1\)/)]);
    const [{ n }] = await databases.server().query<{ n: number }>(target.name, 'SELECT count(*)::int AS n FROM churches');
    expect(n).toBe(0);
  });

  it('writes nothing when PostgreSQL refuses a row part-way', async () => {
    const broken = path.join(dir, 'broken.sqlite');
    fs.copyFileSync(source, broken);
    const db = openDatabase(broken);
    // SQLite keeps a NUL character in text; PostgreSQL refuses it, after the churches and events went in.
    db.prepare("UPDATE posts SET body = 'before' || char(0) || 'after' WHERE id = (SELECT max(id) FROM posts)").run();
    db.close();
    const target = await databases.empty();
    const { code, errors } = await cli(target.url, 'copy-to-postgres', '--from', broken);
    expect(code).toBe(1);
    expect(errors.join('\n')).toMatch(/Not copied: .*nothing was written/);
    for (const table of ['churches', 'events', 'posts']) {
      const [{ n }] = await databases.server().query<{ n: number }>(target.name, `SELECT count(*)::int AS n FROM ${table}`);
      expect(n, table).toBe(0);
    }
  });

  it('needs DATABASE_URL, and a SQLite file that exists', async () => {
    expect((await cli(undefined, 'copy-to-postgres')).errors).toEqual([expect.stringMatching(/DATABASE_URL is not set/)]);
    const target = await databases.empty();
    const missing = await cli(target.url, 'copy-to-postgres', '--from', path.join(dir, 'nowhere.sqlite'));
    expect(missing.errors).toEqual([expect.stringMatching(/No SQLite database at .*nowhere\.sqlite/)]);
    expect(fs.existsSync(path.join(dir, 'nowhere.sqlite'))).toBe(false);
  });
});

it('refuses while a service still has the SQLite database open, before it reaches PostgreSQL', async () => {
  const service = await startTestServer({ LOG_LEVEL: 'silent' });
  try {
    const file = path.join(service.dir, 'church.sqlite');
    const errors: string[] = [];
    // Nobody listens there: the refusal must come before any connection is tried.
    const env = { KEY_FINGERPRINT_SECRET: SECRET, DATABASE_PATH: file, DATABASE_URL: 'postgres://api@127.0.0.1:9/church' };
    const code = await runCli(
      ['copy-to-postgres'],
      () => undefined,
      (line) => errors.push(line),
      env,
    );
    expect(code).toBe(1);
    expect(errors).toEqual([
      `Error: ${file} is open in another process (SQLite reports it locked): a service still using it would go on writing there after the copy (sign-ups, keys), and PostgreSQL would miss it. ` +
        'Stop the service, then copy; or copy a backup on purpose (cli backup FILE, then copy-to-postgres --from FILE). Nothing was written.',
    ]);
  } finally {
    await service.close();
  }
});

/** Numbers as PostgreSQL's bigint columns come back through the superuser's plain client (strings), made numbers again. */
function normaliseIds(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => [
      name,
      typeof value === 'string' && /(^id$|_id$|_minor$)/.test(name) ? Number(value) : value,
    ]),
  );
}

/**
 * A SQLite database with rows in every table: the demo churches (one deleted, so the ids have a
 * gap), developers with active, used and revoked keys, a password, a provider link, a session, a
 * token and reserved addresses. Returns a working key.
 */
async function fillSqlite(file: string): Promise<string> {
  const db = openDatabase(file);
  const storage = sqliteStorage(db);
  try {
    await loadDemoDataIfEmpty(storage.churches, new Date(t0));
    db.prepare("DELETE FROM churches WHERE slug = 'iglesia-betel-la'").run();
    const accounts = createAccountService({ repository: storage.accounts, fingerprinter: createFingerprinter(SECRET) });
    const ana = await accounts.createDeveloper({ name: 'Ana', email: 'ana@example.org', verified: true });
    const bo = await accounts.createDeveloper({ name: 'Bo', email: 'bo@example.org' });
    const kept = await accounts.createKey(ana.id, 'site');
    const revoked = await accounts.createKey(ana.id, 'old site');
    await accounts.revokeKey(ana.id, revoked.record.id);
    await storage.accounts.markUsed(kept.record.id, new Date(t0));
    await accounts.importReservedEmails(['elder@other.example']);
    await storage.credentials.setPasswordHash(ana.id, 'scrypt$1024$8$1$c2FsdA==$aGFzaA==', t0);
    await storage.credentials.linkIdentity({ issuer: 'https://id.example.org', subject: 'sub-1', developerId: bo.id, linkedAt: t0 });
    await storage.sessions.save('a'.repeat(64), { data: '{"cookie":{}}', developerId: ana.id, expiresAt: '2099-01-01T00:00:00.000Z' });
    await storage.tokens.insert({
      tokenHash: 'b'.repeat(64),
      purpose: 'verify-email',
      developerId: bo.id,
      createdAt: t0,
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    await storage.mail.enqueue('verify-email', 'bo@example.org', t0);
    return kept.key;
  } finally {
    await storage.close();
  }
}
