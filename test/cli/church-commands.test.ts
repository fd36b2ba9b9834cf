// The church commands of the operator CLI: import-churches (validated, all or nothing) and counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteChurchRepository } from '../../src/church/sqlite-repository.ts';
import { churchCommands } from '../../src/cli/church-commands.ts';
import { CliError } from '../../src/cli/command.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { loadConfig } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { sqliteStorage } from '../../src/storage.ts';
import { churchDocument } from '../church/church-api.ts';

describe('church commands', () => {
  let dir: string;
  let db: Db;
  let printed: string[];
  const run = (name: string, args: string[]) => {
    const command = churchCommands.find((candidate) => candidate.name === name)!;
    const config = loadConfig({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'silent' }, dir);
    return command.run(
      args,
      createCliContext(config, sqliteStorage(db), (line) => printed.push(line)),
    );
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-cli-'));
    db = openDatabase(':memory:');
    printed = [];
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('import-churches imports a file and counts shows it', async () => {
    const file = path.join(dir, 'churches.json');
    fs.writeFileSync(file, JSON.stringify({ churches: [churchDocument('cli-church'), churchDocument('cli-hidden', { isPublic: false })] }));
    expect(await run('import-churches', [file])).toBe(0);
    expect(printed).toEqual([
      `${file} is valid: importing 2 church(es) in one transaction.`,
      expect.stringMatching(/^Imported 2 church\(es\) \(0 replaced\)/),
    ]);
    printed = [];
    expect(await run('counts', [])).toBe(0);
    expect(printed.map((line) => line.split(/\s+/))).toEqual(
      expect.arrayContaining([
        ['churches', '2'],
        ['publicChurches', '1'],
        ['events', '0'],
      ]),
    );
    expect(await createSqliteChurchRepository(db).publicChurchBySlug('cli-church')).toMatchObject({ slug: 'cli-church' });
  });

  it('import-churches refuses a bad file with the record and field, and imports nothing', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ churches: [churchDocument('ok-one'), churchDocument('broken', { isPublic: 'yes' })] }));
    const failure = run('import-churches', [file]);
    await expect(failure).rejects.toBeInstanceOf(CliError);
    await expect(failure).rejects.toThrow(/churches\[1\] \(broken\)\.isPublic: .*\n[\s\S]*Nothing was imported/);
    expect((await createSqliteChurchRepository(db).counts()).churches).toBe(0);

    fs.writeFileSync(file, '{ not json');
    await expect(run('import-churches', [file])).rejects.toThrow(/is not valid JSON/);
    await expect(run('import-churches', [path.join(dir, 'missing.json')])).rejects.toThrow(/No such file/);
    await expect(run('import-churches', [])).rejects.toThrow(/one argument/);
  });
});
