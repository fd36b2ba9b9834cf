// A service that opens the database in the moment between restore's check and its renames keeps the file named DATABASE_PATH: the swap is undone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { backupDatabase, DatabaseFileError, restoreDatabase } from '../../src/db/backup.ts';
import { openDatabase } from '../../src/db/open.ts';

/** When set, the next check reports the database free: the service opens it just after restore looked. */
const race = vi.hoisted(() => ({ missNextCheck: false }));
vi.mock('../../src/db/in-use.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/db/in-use.ts')>();
  return {
    databaseInUse(file: string): boolean {
      if (race.missNextCheck) {
        race.missNextCheck = false;
        return false;
      }
      return actual.databaseInUse(file);
    },
  };
});

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('a database opened between the check and the renames is put back under its name, and the restore refused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-restore-race-'));
  folders.push(dir);
  const target = path.join(dir, 'church.sqlite');
  const backup = path.join(dir, 'backup.sqlite');
  const service = openDatabase(target);
  try {
    await backupDatabase(target, backup);
    service.exec("INSERT INTO reserved_emails (email, imported_at) VALUES ('before@example.org', 'x')");
    const before = fs.readdirSync(dir).sort();

    race.missNextCheck = true;
    expect(() => restoreDatabase(backup, target)).toThrow(
      new DatabaseFileError(
        `${target} is open in another process (SQLite reports it locked): the service, or another cli command, is using it. ` +
          'Stop the service (systemctl stop church-api, or Ctrl-C on npm start), then run restore again; nothing was changed.',
      ),
    );
    expect(race.missNextCheck).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(before);

    // What the service writes now lands in the file at DATABASE_PATH, as a new connection by that name sees.
    service.exec("INSERT INTO reserved_emails (email, imported_at) VALUES ('after@example.org', 'x')");
    const reader = new Database(target, { readonly: true });
    expect(reader.prepare('SELECT email FROM reserved_emails ORDER BY email').pluck().all()).toEqual([
      'after@example.org',
      'before@example.org',
    ]);
    reader.close();
  } finally {
    service.close();
  }
});
