// `cli backup` while the service runs and writes, `cli restore` with it stopped: consistent copies, refusals, the old file kept, keys working after.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database, { SQLITE_DRIVER } from '../../build/contract/sqlite-driver.ts';
import { runCli } from '../../src/cli/main.ts';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

const servers: TestServer[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-backup-'));
  folders.push(dir);
  return dir;
}

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const started = await startTestServer({ LOG_LEVEL: 'silent', KEY_RATE_LIMIT_PER_MINUTE: '100000', ...env });
  servers.push(started);
  return started;
}

/** Runs the CLI against the database and secret of `dir` (a test server's folder); returns its exit code and output. */
async function cli(dir: string, ...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DATABASE_PATH: path.join(dir, 'church.sqlite'), KEY_SECRET_FILE: path.join(dir, 'key.secret'), LOG_LEVEL: 'silent' };
  const code = await runCli(
    argv,
    (line) => out.push(line),
    (line) => err.push(line),
    env,
  );
  return { code, out, err };
}

function count(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('cli backup', () => {
  it('copies the live database while the service keeps writing: an intact file, owner-only, with every commit made before it', async () => {
    const app = await server();
    const target = path.join(tempDir(), 'church-backup.sqlite');
    for (let i = 0; i < 5; i++) await createTestKey(app.services);
    // Writes keep going while the backup runs.
    const writing = Promise.all(Array.from({ length: 20 }, () => createTestKey(app.services)));
    const result = await cli(app.dir, 'backup', target);
    await writing;
    expect(result).toMatchObject({ code: 0, err: [] });
    expect(result.out[0]).toMatch(/^Backed up .+church\.sqlite to .+church-backup\.sqlite: schema version 4, \d+ bytes, in \d+ ms\.$/);
    expect(result.out[1]).toContain('KEY_FINGERPRINT_SECRET');
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    const db = new Database(target, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(count(target, 'api_keys')).toBeGreaterThanOrEqual(5);
    expect(count(target, 'churches')).toBe(5);
    // Nothing but the backup itself is left beside it.
    expect(fs.readdirSync(path.dirname(target))).toEqual(['church-backup.sqlite']);
  });

  it('refuses to overwrite an existing file unless given --force', async () => {
    const app = await server();
    const target = path.join(tempDir(), 'existing.sqlite');
    fs.writeFileSync(target, 'keep me');
    const refused = await cli(app.dir, 'backup', target);
    expect(refused).toMatchObject({ code: 1, err: [`Error: ${target} exists; give --force to replace it.`] });
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me');
    expect((await cli(app.dir, 'backup', target, '--force')).code).toBe(0);
    expect(count(target, 'churches')).toBe(5);
  });

  it('refuses when there is no database to back up', async () => {
    const dir = tempDir();
    const result = await cli(dir, 'backup', path.join(dir, 'copy.sqlite'));
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(/^Error: There is no database at .+church\.sqlite \(DATABASE_PATH\)\.$/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('cli restore', () => {
  it('puts a backup back, keeps the replaced database aside, and the keys of the backup work again with the same secret', async () => {
    const app = await server();
    const key = await createTestKey(app.services);
    const backup = path.join(tempDir(), 'backup.sqlite');
    expect((await cli(app.dir, 'backup', backup)).code).toBe(0);
    // After the backup: a key the backup does not hold.
    const later = await createTestKey(app.services);
    const dir = app.dir;
    const secret = fs.readFileSync(path.join(dir, 'key.secret'));
    await app.close();
    servers.splice(servers.indexOf(app), 1);
    // The service's folder is gone with it; the operator restores into a new one with the secret kept.
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'key.secret'), secret, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'church.sqlite'), 'a database that went wrong');

    const result = await cli(dir, 'restore', backup);
    expect(result).toMatchObject({ code: 0, err: [] });
    expect(result.out[0]).toBe(`Restored ${backup} (schema version 4) as ${path.join(dir, 'church.sqlite')}.`);
    const kept = fs.readdirSync(dir).filter((file) => file.startsWith('church.sqlite.before-restore-'));
    expect(kept).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, kept[0]), 'utf8')).toBe('a database that went wrong');

    const restored = await server({ DATABASE_PATH: path.join(dir, 'church.sqlite'), KEY_SECRET_FILE: path.join(dir, 'key.secret') });
    expect((await getWithKey(restored.url + CHURCH, key)).status).toBe(200);
    expect((await getWithKey(restored.url + CHURCH, later)).status).toBe(401);
  });

  it('refuses while the service has the database open, and leaves it in place: the service goes on answering from it', async () => {
    const app = await server();
    const key = await createTestKey(app.services);
    const backup = path.join(tempDir(), 'backup.sqlite');
    expect((await cli(app.dir, 'backup', backup)).code).toBe(0);
    const before = fs.readdirSync(app.dir).sort();

    const result = await cli(app.dir, 'restore', backup);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([
      `Error: ${path.join(app.dir, 'church.sqlite')} is open in another process (SQLite reports it locked): the service, or another cli command, is using it. ` +
        'Stop the service (systemctl stop church-api, or Ctrl-C on npm start), then run restore again; nothing was changed.',
    ]);
    expect(fs.readdirSync(app.dir).sort()).toEqual(before);
    expect((await getWithKey(app.url + CHURCH, key)).status).toBe(200);
    // A key made now is written to the file the service has open, which is still DATABASE_PATH.
    await createTestKey(app.services);
    expect(count(path.join(app.dir, 'church.sqlite'), 'api_keys')).toBe(2);
  });

  it('knows a database another process has open, and no longer once that process is killed', async () => {
    const dir = tempDir();
    const database = path.join(dir, 'church.sqlite');
    const backup = path.join(dir, 'backup.sqlite');
    const made = await cli(dir, 'counts');
    expect(made.code).toBe(0);
    expect((await cli(dir, 'backup', backup)).code).toBe(0);
    // Another process opens it as the service does (WAL, one read) and stays idle.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import Database from ${JSON.stringify(SQLITE_DRIVER)};
         const db = new Database(process.argv[1]); db.pragma('journal_mode = WAL'); db.prepare('SELECT 1').get();
         console.log('open'); setInterval(() => {}, 60_000);`,
        database,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(holder.stdout, 'data');
      const refused = await cli(dir, 'restore', backup);
      expect(refused.code).toBe(1);
      expect(refused.err[0]).toContain('is open in another process');
      expect(fs.readdirSync(dir).sort()).toEqual(['backup.sqlite', 'church.sqlite', 'church.sqlite-shm', 'church.sqlite-wal']);
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    // SQLite's locks go with the process, however it ended: nothing stale to clean up.
    const restored = await cli(dir, 'restore', backup);
    expect(restored).toMatchObject({ code: 0, err: [] });
  });

  it.each([
    [
      'a text file',
      (file: string) => fs.writeFileSync(file, 'not a database'),
      /cannot be opened as a SQLite database|not an intact SQLite database/,
    ],
    [
      "another program's database",
      (file: string) => {
        const db = new Database(file);
        db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
        db.close();
      },
      /is not a database of this service: it has no schema_migrations\.$/,
    ],
    [
      'a database of a newer version of the service',
      (file: string) => {
        const db = new Database(file);
        db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
        const insert = db.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2025-01-01')");
        for (const [version, name] of [
          [1, 'church_data'],
          [2, 'developers_and_keys'],
          [3, 'portal'],
          [4, 'mail_queue_and_reserved_keys'],
          [5, 'from_the_future'],
        ] as const)
          insert.run(version, name);
        db.close();
      },
      /has schema version 5, newer than this version of the service knows \(4\): restore it with the version that made it\.$/,
    ],
  ])('refuses %s and leaves the current database untouched', async (_what, make, message) => {
    const dir = tempDir();
    const candidate = path.join(dir, 'candidate.sqlite');
    make(candidate);
    fs.writeFileSync(path.join(dir, 'church.sqlite'), 'current');
    const result = await cli(dir, 'restore', candidate);
    expect(result.code).toBe(1);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(message);
    expect(fs.readFileSync(path.join(dir, 'church.sqlite'), 'utf8')).toBe('current');
    expect(fs.readdirSync(dir).sort()).toEqual(['candidate.sqlite', 'church.sqlite']);
  });
});
