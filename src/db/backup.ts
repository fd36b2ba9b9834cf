// Backups of the church database: an online copy while the service runs, and the checks and swap of a restore.
import fs from 'node:fs';
import path from 'node:path';
import Database from '../../build/contract/sqlite-driver.ts';
import { databaseInUse } from './in-use.ts';
import { readMigrations, schemaVersion } from './migrate.ts';
import { defaultMigrationsDir } from './open.ts';
import { createTemporaryBeside, removeStaleTemporaries } from './temporary-files.ts';

/** What a database file holds, as far as a backup or a restore needs to say. */
export interface DatabaseFileInfo {
  /** Its schema version: the last migration applied. */
  schemaVersion: number;
  bytes: number;
}

/** A backup or restore the operator must act on (file exists, not a database of this service…): one line, no stack. */
export class DatabaseFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseFileError';
  }
}

/**
 * Copies the database at `source` to `target` with SQLite's online backup API: a consistent
 * snapshot even while the service reads and writes it (WAL mode; the copy includes what the WAL
 * holds). Written to a temporary file beside `target`, owner-only from the start (it holds key
 * fingerprints and password hashes), checked, then moved into place: a failed backup never leaves
 * a half file under `target`. Temporary files that killed runs left in that folder are removed
 * first. An existing `target` is refused unless `overwrite`.
 *
 * @example const info = await backupDatabase('var/church.sqlite', '/backups/church-2025-01-01.sqlite');
 */
export async function backupDatabase(source: string, target: string, { overwrite = false } = {}): Promise<DatabaseFileInfo> {
  if (!fs.existsSync(source)) throw new DatabaseFileError(`There is no database at ${source} (DATABASE_PATH).`);
  if (!overwrite && fs.existsSync(target)) throw new DatabaseFileError(`${target} exists; give --force to replace it.`);
  removeStaleTemporaries(path.dirname(target));
  const temporary = createTemporaryBeside(target);
  let db: Database.Database | undefined;
  try {
    db = new Database(source, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    await db.backup(temporary);
    selfContained(temporary);
    const info = inspectDatabaseFile(temporary);
    if (overwrite) fs.renameSync(temporary, target);
    // Without --force, link refuses a target that appeared meanwhile, where rename would replace it.
    else linkInto(temporary, target);
    return info;
  } finally {
    db?.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(temporary + suffix, { force: true });
  }
}

/**
 * Checks that `file` is an intact database of this service with a schema this version knows:
 * SQLite's integrity check passes, and its schema_migrations lists the shipped migrations 1…N in
 * order under their names (a newer version's database, or another program's, is refused).
 */
export function inspectDatabaseFile(file: string, migrationsDir = defaultMigrationsDir()): DatabaseFileInfo {
  if (!fs.existsSync(file)) throw new DatabaseFileError(`No such file: ${file}`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new DatabaseFileError(`${file} cannot be opened as a SQLite database (${errorMessage(error)}).`);
  }
  try {
    const integrity = safely(() => db.pragma('quick_check', { simple: true }));
    if (integrity !== 'ok') throw new DatabaseFileError(`${file} is not an intact SQLite database (${integrity}).`);
    const version = schemaVersion(db);
    if (version === 0) throw new DatabaseFileError(`${file} is not a database of this service: it has no schema_migrations.`);
    const known = readMigrations(migrationsDir);
    if (version > known.length) {
      throw new DatabaseFileError(
        `${file} has schema version ${version}, newer than this version of the service knows (${known.length}): restore it with the version that made it.`,
      );
    }
    const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
    applied.forEach((row, index) => {
      const expected = known[index];
      if (row.version !== expected.version || row.name !== expected.name) {
        throw new DatabaseFileError(
          `${file} is not a database of this service: its migration ${row.version} is "${row.name}", this service's is "${expected.name}".`,
        );
      }
    });
    return { schemaVersion: version, bytes: fs.statSync(file).size };
  } finally {
    db.close();
  }
}

/**
 * Puts the checked backup `file` in place of the database at `target`, which must not be in use:
 * while any process has it open (the service, a CLI command) it is refused before anything is
 * moved (`databaseInUse`), since the service would go on serving the file renamed aside. The
 * current database and its -wal and -shm files are kept aside under
 * `<target>.before-restore-<time>` (returned), never deleted; the copy is made beside `target`
 * first, then renamed, so `target` is at every moment the old database or the whole new one. Were
 * the old database opened between that check and the renames (a service starting at that moment),
 * the swap is undone and refused the same way.
 */
export function restoreDatabase(file: string, target: string, now = new Date()): { info: DatabaseFileInfo; keptAs?: string } {
  const info = inspectDatabaseFile(file);
  if (fs.existsSync(target) && databaseInUse(target)) throw new DatabaseFileError(inUseMessage(target));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  removeStaleTemporaries(path.dirname(target));
  const temporary = createTemporaryBeside(target);
  try {
    copyInto(file, temporary);
    if (!fs.existsSync(target)) {
      fs.renameSync(temporary, target);
      return { info };
    }
    const keptAs = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    // The WAL may hold the last commits: it goes aside with its database, never stays beside the new one.
    const moved = ['', '-wal', '-shm'].filter((suffix) => fs.existsSync(target + suffix));
    for (const suffix of moved) fs.renameSync(target + suffix, keptAs + suffix);
    fs.renameSync(temporary, target);
    if (databaseInUse(keptAs)) {
      // Opened in between: put it back where that process expects it, so it serves the file named DATABASE_PATH.
      fs.renameSync(target, temporary);
      for (const suffix of moved) fs.renameSync(keptAs + suffix, target + suffix);
      throw new DatabaseFileError(inUseMessage(target));
    }
    return { info, keptAs };
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

function inUseMessage(target: string): string {
  return (
    `${target} is open in another process (SQLite reports it locked): the service, or another cli command, is using it. ` +
    'Stop the service (systemctl stop church-api, or Ctrl-C on npm start), then run restore again; nothing was changed.'
  );
}

/**
 * The copy carries the source's WAL mode in its header: reading it would make -wal and -shm files
 * beside it. A backup is one file, so it is switched to a rollback journal (the service turns WAL
 * on again when it opens a restored file).
 */
function selfContained(file: string): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/**
 * Copies `source` into the existing file `destination`, keeping the destination's mode (0600),
 * then syncs it to disk. fs.copyFileSync would give it the source's mode.
 */
function copyInto(source: string, destination: string): void {
  const from = fs.openSync(source, 'r');
  const to = fs.openSync(destination, 'r+');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const read = fs.readSync(from, buffer, 0, buffer.length, null);
      if (read === 0) break;
      let written = 0;
      while (written < read) written += fs.writeSync(to, buffer, written, read - written);
    }
    fs.fsyncSync(to);
  } finally {
    fs.closeSync(from);
    fs.closeSync(to);
  }
}

function linkInto(temporary: string, target: string): void {
  try {
    fs.linkSync(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DatabaseFileError(`${target} exists; give --force to replace it.`);
    throw error;
  }
}

function safely(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return errorMessage(error);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
