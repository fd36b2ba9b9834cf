// The account commands of the operator CLI, on a real database and the fingerprint secret the server uses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { accountCommands } from '../../src/cli/account-commands.ts';
import { type CliContext, CliError } from '../../src/cli/command.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { loadConfig } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createFingerprinter, loadOrCreateSecret } from '../../src/keys/fingerprint.ts';
import { isWellFormedKey } from '../../src/keys/format.ts';
import { sqliteStorage } from '../../src/storage.ts';

let dir: string;
let db: Db;
let printed: string[];
let context: CliContext;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-keycli-'));
  db = openDatabase(path.join(dir, 'church.sqlite'));
  printed = [];
  const config = loadConfig({ DATABASE_PATH: path.join(dir, 'church.sqlite'), KEY_SECRET_FILE: path.join(dir, 'key.secret') }, dir);
  context = createCliContext(config, sqliteStorage(db), (line) => printed.push(line));
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = accountCommands.find((candidate) => candidate.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.run(args, context);
}

describe('account commands', () => {
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
    const repository = createSqliteAccountRepository(db);
    const found = await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key!));
    expect(found).toBeDefined();

    printed = [];
    expect(await run('list-keys', '--email', 'dev@example.org')).toBe(0);
    expect(printed.join('\n')).toContain(`…${key!.slice(-4)}`);
    expect(printed.join('\n')).not.toContain(key!);

    expect(await run('revoke-key', '--email', 'dev@example.org', '--id', String(found!.id))).toBe(0);
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key!))).toBeUndefined();
  });

  it('create no fingerprint secret for commands that do not make a key', async () => {
    expect(await run('create-developer', '--email', 'dev@example.org', '--name', 'Dev')).toBe(0);
    expect(await run('verify-developer', '--email', 'dev@example.org')).toBe(0);
    expect(await run('list-developers')).toBe(0);
    expect(fs.existsSync(path.join(dir, 'key.secret'))).toBe(false);
  });

  it('list developers with their active keys, and delete one: its keys stop working at once', async () => {
    printed = [];
    expect(await run('list-developers')).toBe(0);
    expect(printed).toEqual(['There are no developer accounts.']);

    await run('create-developer', '--email', 'keep@example.org', '--name', 'Keep', '--verified');
    await run('create-developer', '--email', 'gone@example.org', '--name', 'Gone', '--verified');
    await run('create-key', '--email', 'gone@example.org', '--name', 'one');
    await run('create-key', '--email', 'gone@example.org', '--name', 'two');
    const keys = printed.map((line) => line.trim()).filter((line) => line.startsWith('sk_live_'));
    expect(keys).toHaveLength(2);

    printed = [];
    expect(await run('list-developers')).toBe(0);
    expect(printed[0].split('\t')).toEqual(['id', 'e-mail', 'name', 'verified', 'created', 'active keys']);
    expect(printed.slice(1).map((line) => [line.split('\t')[1], line.split('\t')[5]])).toEqual([
      ['keep@example.org', '0'],
      ['gone@example.org', '2'],
    ]);

    printed = [];
    expect(await run('delete-developer', '--email', 'GONE@example.org')).toBe(0);
    expect(printed[0]).toMatch(/^Deleted developer \d+ <gone@example.org> and their keys \(2 active key\(s\) revoked\)\.$/);
    const fingerprinter = createFingerprinter(loadOrCreateSecret(context.config, createLogger('silent')));
    const repository = createSqliteAccountRepository(db);
    for (const key of keys) expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toBeUndefined();
    await expect(run('delete-developer', '--email', 'gone@example.org')).rejects.toThrow('No developer with the address gone@example.org.');

    printed = [];
    await run('list-developers');
    expect(printed).toHaveLength(2);
  });

  it('refuse a reserved address, unknown options, a missing value, a repeated option and stray arguments with a one-line CliError naming the option', async () => {
    const file = path.join(dir, 'reserved.txt');
    fs.writeFileSync(file, '# other products\nelder@other.example\n\nDEACON@other.example\n');
    expect(await run('import-reserved-emails', file)).toBe(0);
    expect(printed.at(-1)).toMatch(/2 new/);
    await expect(run('create-developer', '--email', 'Elder@other.example', '--name', 'E')).rejects.toThrow(CliError);
    const refusals: [string[], string][] = [
      [
        ['create-developer', '--email', 'x@example.org', '--nme', 'E'],
        'Unknown option --nme; create-developer takes --email --name --verified.',
      ],
      [['create-developer', '--email', '--name', 'E'], '--email needs a value.'],
      [['create-developer', '--name', 'E', '--email'], '--email needs a value.'],
      [['create-developer', '--name', 'E'], '--email is required (create-developer takes --email --name --verified).'],
      [['create-developer', '--email', 'x@example.org', '--name', 'E', '--verified=yes'], '--verified takes no value.'],
      [
        ['create-developer', '--email', 'x@example.org', '--email', 'y@example.org', '--name', 'E'],
        '--email is given twice; give it once.',
      ],
      [['list-developers', 'extra'], 'list-developers takes no arguments; unexpected "extra".'],
      [['revoke-key', '--email', 'x@example.org', '--id', '1x'], '--id must be a key id (a whole number), got "1x".'],
      [['import-reserved-emails'], 'import-reserved-emails takes one argument: <file>.'],
      [['import-reserved-emails', '--file', file], 'Unknown option --file; import-reserved-emails takes <file>.'],
    ];
    for (const [argv, message] of refusals) {
      const failure = run(...argv);
      await expect(failure, argv.join(' ')).rejects.toBeInstanceOf(CliError);
      await expect(failure, argv.join(' ')).rejects.toThrow(message);
    }
  });

  it('import reserved addresses from a JSON array, all or nothing', async () => {
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify(['one@example.org', 'not an address']));
    await expect(run('import-reserved-emails', bad)).rejects.toThrow(/Nothing imported/);
    expect(await context.accounts.isReservedEmail('one@example.org')).toBe(false);

    const good = path.join(dir, 'good.json');
    fs.writeFileSync(good, JSON.stringify(['one@example.org', 'two@example.org']));
    expect(await run('import-reserved-emails', good)).toBe(0);
    expect(await context.accounts.isReservedEmail('ONE@example.org')).toBe(true);

    const notStrings = path.join(dir, 'numbers.json');
    fs.writeFileSync(notStrings, '[1, 2]');
    await expect(run('import-reserved-emails', notStrings)).rejects.toThrow(/array of strings/);
  });
});
