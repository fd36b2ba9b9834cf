import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Db } from '../../src/db/open.ts';
import { CliError, type CliContext } from '../../src/cli/command.ts';
import { keyCommands } from '../../src/cli/key-commands.ts';
import { isWellFormedKey } from '../../src/keys/format.ts';
import { createFingerprinter, loadOrCreateSecret } from '../../src/keys/fingerprint.ts';
import { createSqliteKeyRepository } from '../../src/keys/sqlite-repository.ts';
import { createLogger } from '../../src/http/logger.ts';

let dir: string;
let db: Db;
let printed: string[];
let context: CliContext;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-keycli-'));
  db = openDatabase(path.join(dir, 'church.sqlite'));
  printed = [];
  const config = loadConfig({ DATABASE_PATH: path.join(dir, 'church.sqlite'), KEY_SECRET_FILE: path.join(dir, 'key.secret') }, dir);
  context = { config, db, print: (line) => printed.push(line) };
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = keyCommands.find((candidate) => candidate.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.run(args, context);
}

describe('key commands', () => {
  it('create a developer, verify them, create a key printed once with a warning, list and revoke it', async () => {
    expect(await run('create-developer', '--email', 'Dev@Example.org', '--name', 'Dev')).toBe(0);
    await expect(run('create-key', '--email', 'dev@example.org', '--name', 'site')).rejects.toThrow(/not verified/);
    expect(await run('verify-developer', '--email', 'dev@example.org')).toBe(0);

    printed = [];
    expect(await run('create-key', '--email', 'dev@example.org', '--name', 'site')).toBe(0);
    const key = printed.map((line) => line.trim()).find((line) => line.startsWith('sk_live_'));
    expect(key && isWellFormedKey(key)).toBe(true);
    expect(printed.join('\n')).toMatch(/only time the key is shown/);

    // The key works with the server's fingerprint secret (the same file).
    const fingerprinter = createFingerprinter(loadOrCreateSecret(context.config, createLogger('silent')));
    const repository = createSqliteKeyRepository(db);
    const found = repository.activeKeyByFingerprint(fingerprinter.fingerprint(key!));
    expect(found).toBeDefined();

    printed = [];
    expect(await run('list-keys', '--email', 'dev@example.org')).toBe(0);
    expect(printed.join('\n')).toContain(`…${key!.slice(-4)}`);
    expect(printed.join('\n')).not.toContain(key!);

    expect(await run('revoke-key', '--email', 'dev@example.org', '--id', String(found!.id))).toBe(0);
    expect(repository.activeKeyByFingerprint(fingerprinter.fingerprint(key!))).toBeUndefined();
  });

  it('refuse a reserved address, unknown options and a missing value with a CliError', async () => {
    const file = path.join(dir, 'reserved.txt');
    fs.writeFileSync(file, '# other products\nelder@other.example\n\nDEACON@other.example\n');
    expect(await run('import-reserved-emails', file)).toBe(0);
    expect(printed.at(-1)).toMatch(/2 new/);
    await expect(run('create-developer', '--email', 'Elder@other.example', '--name', 'E')).rejects.toThrow(CliError);
    await expect(run('create-developer', '--email', 'x@example.org', '--nme', 'E')).rejects.toThrow(/Unexpected argument "--nme"/);
    await expect(run('create-developer', '--email', '--name', 'E')).rejects.toThrow(/--email needs a value/);
  });

  it('import reserved addresses from a JSON array, all or nothing', async () => {
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify(['one@example.org', 'not an address']));
    await expect(run('import-reserved-emails', bad)).rejects.toThrow(/Nothing imported/);
    const repository = createSqliteKeyRepository(db);
    expect(repository.isReservedEmail('one@example.org')).toBe(false);

    const good = path.join(dir, 'good.json');
    fs.writeFileSync(good, JSON.stringify(['one@example.org', 'two@example.org']));
    expect(await run('import-reserved-emails', good)).toBe(0);
    expect(repository.isReservedEmail('ONE@example.org')).toBe(true);

    const notStrings = path.join(dir, 'numbers.json');
    fs.writeFileSync(notStrings, '[1, 2]');
    await expect(run('import-reserved-emails', notStrings)).rejects.toThrow(/array of strings/);
  });
});
