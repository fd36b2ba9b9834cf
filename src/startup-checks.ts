// Checks made at start before anything is written: the files the configuration names can be used or created.
import fs from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError } from './config.ts';
import { readSecretFile } from './keys/fingerprint.ts';

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Throws a ConfigError naming DATABASE_PATH or KEY_SECRET_FILE when that file could not be
 * opened or created, reading only: a bad setting must not leave a database or secret behind.
 */
export function checkConfiguredFiles(config: Pick<Config, 'databasePath' | 'postgres' | 'keyFingerprintSecret' | 'keySecretFile'>): void {
  // With DATABASE_URL the SQLite file is not used: nothing to check there.
  if (config.databasePath !== ':memory:' && config.postgres === undefined) checkDatabaseFile(config.databasePath);
  if (config.keyFingerprintSecret === undefined && readSecretFile(config.keySecretFile) === undefined) {
    checkCanCreate(config.keySecretFile, 'KEY_SECRET_FILE');
  }
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
