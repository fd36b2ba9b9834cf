// What only the SQLite account store can show: the file's bytes, its write count, and two real processes on one file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountRepository } from '../../src/accounts/repository.ts';
import { type AccountService, createAccountService, MAX_ACTIVE_KEYS } from '../../src/accounts/service.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';

const fingerprinter = createFingerprinter('f'.repeat(64));
let dir: string;
let file: string;
let db: Db;
let repository: AccountRepository;
let accounts: AccountService;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-account-sqlite-'));
  file = path.join(dir, 'church.sqlite');
  db = openDatabase(file);
  repository = createSqliteAccountRepository(db);
  accounts = createAccountService({ repository, fingerprinter });
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite account store', () => {
  it('never holds a key in clear: the database files hold its fingerprint and no trace of the key', async () => {
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org', verified: true });
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await accounts.createKey(developer.id, `site ${i}`)).key);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = Buffer.concat(fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name))));
    expect(bytes.length).toBeGreaterThan(0);
    for (const key of created) {
      // Neither the key nor its random part, and not in hex either.
      expect(bytes.includes(Buffer.from(key))).toBe(false);
      expect(bytes.includes(Buffer.from(key.slice(8, 41)))).toBe(false);
      expect(bytes.includes(Buffer.from(Buffer.from(key).toString('hex')))).toBe(false);
      expect(bytes.includes(Buffer.from(fingerprinter.fingerprint(key)))).toBe(true);
    }
  });

  it('answers the key lookups of one turn of the event loop with one statement, each with its own key', async () => {
    // Counts the runs of the key lookup statements: the repository is made again over a spied connection.
    const runs: string[] = [];
    const prepare = db.prepare.bind(db);
    vi.spyOn(db, 'prepare').mockImplementation(((source: string) => {
      const statement = prepare(source);
      if (source.includes('FROM api_keys WHERE fingerprint')) {
        for (const method of ['get', 'all'] as const) {
          const run = statement[method].bind(statement);
          Object.assign(statement, {
            [method]: (...args: unknown[]) => {
              runs.push(method);
              return run(...(args as []));
            },
          });
        }
      }
      return statement;
    }) as typeof db.prepare);
    repository = createSqliteAccountRepository(db);
    accounts = createAccountService({ repository, fingerprinter });
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org', verified: true });
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(await accounts.createKey(developer.id, `site ${i}`));
    runs.length = 0;

    const asked = [...keys.map(({ key }) => key), keys[0]!.key, `sk_live_${'x'.repeat(33)}`];
    const found = await Promise.all(asked.map((key) => repository.activeKeyByFingerprint(fingerprinter.fingerprint(key))));
    expect(found.map((key) => key?.id)).toEqual([...keys.map(({ record }) => record.id), keys[0]!.record.id, undefined]);
    expect(found[0]).toEqual({ id: keys[0]!.record.id, developerId: developer.id });
    expect(runs).toHaveLength(1);

    // Another turn, another statement: nothing is kept from the last one.
    expect((await repository.activeKeyByFingerprint(fingerprinter.fingerprint(keys[1]!.key)))?.id).toBe(keys[1]!.record.id);
    expect(runs).toHaveLength(2);
  });

  it('refuses a key revoked after its lookup was asked: every lookup is answered by a statement run after it', async () => {
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org', verified: true });
    const kept = await accounts.createKey(developer.id, 'kept');
    const revoked = await accounts.createKey(developer.id, 'revoked');
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(revoked.key))).toBeDefined();
    const lookups = [kept, revoked].map(({ key }) => repository.activeKeyByFingerprint(fingerprinter.fingerprint(key)));
    await repository.revokeKey(developer.id, revoked.record.id, new Date().toISOString());
    const [stillActive, refused] = await Promise.all(lookups);
    expect(stillActive?.id).toBe(kept.record.id);
    expect(refused).toBeUndefined();
    await nextTurn();
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(revoked.key))).toBeUndefined();
  });

  it('writes "last used" once in a minute of requests, so reads stay reads', async () => {
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org', verified: true });
    const { record } = await accounts.createKey(developer.id, 'site');
    const totalChanges = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    const t0 = new Date('2026-01-01T10:00:00Z');
    const before = totalChanges();
    for (let second = 0; second < 60; second++) await repository.markUsed(record.id, new Date(t0.getTime() + second * 1000));
    expect(totalChanges() - before).toBe(1);
  });

  it(`keeps each developer at ${MAX_ACTIVE_KEYS} active keys when two processes create keys at the same instant`, async () => {
    const developers = [];
    for (let i = 0; i < 100; i++)
      developers.push(await accounts.createDeveloper({ name: 'Dev', email: `dev${i}@example.org`, verified: true }));
    const ids = developers.map((developer) => developer.id).join(',');
    const processes = [0, 1].map(() => startKeyCreator(ids));
    await Promise.all(processes.map((child) => child.ready));
    for (const child of processes) child.go();
    const results = await Promise.all(processes.map((child) => child.result));
    // Every attempt ended in a key or a key-limit refusal (a lock error would have failed the process).
    expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(developers.length * MAX_ACTIVE_KEYS);
    expect(results.reduce((sum, result) => sum + result.refused, 0)).toBe(developers.length * MAX_ACTIVE_KEYS);
    for (const developer of await accounts.listDevelopers()) expect(developer.activeKeys, developer.email).toBe(MAX_ACTIVE_KEYS);
  });
});

interface KeyCreator {
  ready: Promise<void>;
  go(): void;
  result: Promise<{ created: number; refused: number }>;
}

/** Starts test/accounts/create-keys-process.ts on the test's database for these developers, 5 attempts each. */
function startKeyCreator(developerIds: string): KeyCreator {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/accounts/create-keys-process.ts', file, developerIds, String(MAX_ACTIVE_KEYS)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let markReady: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<{ created: number; refused: number }>((resolve, reject) => {
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`key-creating process exited with ${code}: ${stderr}`));
      resolve(JSON.parse(stdout.slice('ready\n'.length)) as { created: number; refused: number });
    });
  });
  // A process that fails before "ready" must not leave the test waiting.
  result.catch(() => markReady());
  return { ready, go: () => child.stdin.end('go\n'), result };
}
