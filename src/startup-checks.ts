// Checks made at start before anything is written: the files the configuration names can be used or created.
import { lookup } from 'node:dns/promises';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { type Config, ConfigError } from './config.ts';
import { readSecretFile } from './keys/fingerprint.ts';

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Throws a ConfigError naming DATABASE_PATH, KEY_SECRET_FILE, MAIL_OUTBOX_DIR, BIBLE_PUBLIC_DIR or
 * BIBLE_DB_PATH when that file or folder could not be used or created, reading only: a bad setting
 * must not leave a database or secret behind.
 */
export function checkConfiguredFiles(
  config: Pick<
    Config,
    | 'databasePath'
    | 'postgres'
    | 'keyFingerprintSecret'
    | 'keySecretFile'
    | 'smtpUrl'
    | 'mailOutboxDir'
    | 'biblePublicDir'
    | 'bibleDatabasePath'
  >,
): void {
  // With DATABASE_URL the SQLite file is not used: nothing to check there.
  if (config.databasePath !== ':memory:' && config.postgres === undefined) checkDatabaseFile(config.databasePath);
  if (config.keyFingerprintSecret === undefined && readSecretFile(config.keySecretFile) === undefined) {
    checkCanCreate(config.keySecretFile, 'KEY_SECRET_FILE');
  }
  // The outbox is made at the first message; without SMTP_URL a sign-up must not be the first to find it cannot be.
  if (config.smtpUrl === undefined) checkFolder(config.mailOutboxDir, 'MAIL_OUTBOX_DIR');
  // The Bible may not be built yet (the endpoints say so), but what is there must be of the right kind.
  if (statOrUndefined(config.biblePublicDir, 'BIBLE_PUBLIC_DIR')?.isDirectory() === false) {
    throw new ConfigError('BIBLE_PUBLIC_DIR', `${config.biblePublicDir} is not a folder`);
  }
  if (statOrUndefined(config.bibleDatabasePath, 'BIBLE_DB_PATH')?.isFile() === false) {
    throw new ConfigError('BIBLE_DB_PATH', `${config.bibleDatabasePath} is not a file`);
  }
}

/**
 * Throws a ConfigError naming HOST when its name does not resolve: found before the database is
 * opened, not when the server listens after it. (An address this machine does not have is found by
 * listen, which names HOST too.)
 */
export async function checkListenHost(host: string, resolve: (name: string) => Promise<unknown> = lookup): Promise<void> {
  if (isIP(host) !== 0) return;
  try {
    await resolve(host);
  } catch (error) {
    throw new ConfigError(
      'HOST',
      `${host} does not resolve to an address to listen on (${(error as NodeJS.ErrnoException).code ?? error})`,
      {
        cause: error,
      },
    );
  }
}

/** An existing writable folder, or one that can be made. */
function checkFolder(folder: string, variable: string): void {
  const stat = statOrUndefined(folder, variable);
  if (stat === undefined) {
    checkCanCreate(folder, variable);
    return;
  }
  if (!stat.isDirectory()) throw new ConfigError(variable, `${folder} is not a folder`);
  checkAccess(folder, fs.constants.W_OK | fs.constants.X_OK, variable, `${folder} is not writable`);
}

function checkDatabaseFile(file: string): void {
  const stat = statOrUndefined(file, 'DATABASE_PATH');
  if (stat === undefined) {
    checkCanCreate(file, 'DATABASE_PATH');
    return;
  }
  if (!stat.isFile()) throw new ConfigError('DATABASE_PATH', `${file} is not a file`);
  // The write-ahead log and shared-memory files are created beside the database.
  checkAccess(file, fs.constants.R_OK | fs.constants.W_OK, 'DATABASE_PATH', `${file} is not readable and writable`);
  checkAccess(path.dirname(file), fs.constants.W_OK | fs.constants.X_OK, 'DATABASE_PATH', `the folder of ${file} is not writable`);
  if (stat.size > 0 && !startsWith(file, SQLITE_HEADER)) throw new ConfigError('DATABASE_PATH', `${file} is not a SQLite database`);
}

/** The nearest existing ancestor folder of `file` must be a writable folder, so the file and its parents can be made. */
function checkCanCreate(file: string, variable: string): void {
  let folder = path.dirname(file);
  let stat = statOrUndefined(folder, variable);
  while (stat === undefined && path.dirname(folder) !== folder) {
    folder = path.dirname(folder);
    stat = statOrUndefined(folder, variable);
  }
  if (stat === undefined || !stat.isDirectory()) throw new ConfigError(variable, `${file} cannot be created: ${folder} is not a folder`);
  checkAccess(folder, fs.constants.W_OK | fs.constants.X_OK, variable, `${file} cannot be created: ${folder} is not writable`);
}

/** The file's stat, or undefined when neither it nor its parent folder exists (ENOENT) or a parent is a file (ENOTDIR). */
function statOrUndefined(file: string, variable: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(variable, `cannot look at ${file} (${(error as Error).message})`, { cause: error });
  }
}

function checkAccess(file: string, mode: number, variable: string, message: string): void {
  try {
    fs.accessSync(file, mode);
  } catch (error) {
    throw new ConfigError(variable, `${message} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
}

function startsWith(file: string, header: Buffer): boolean {
  const bytes = Buffer.alloc(header.length);
  const descriptor = fs.openSync(file, 'r');
  try {
    return fs.readSync(descriptor, bytes, 0, header.length, 0) === header.length && bytes.equals(header);
  } finally {
    fs.closeSync(descriptor);
  }
}
