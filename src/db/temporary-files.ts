// The temporary copies a backup or restore writes beside its target: owner-only from their first byte, and removed when a killed run left them.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processIsAlive } from '../process-alive.ts';

/** `.<target name>.<pid>.<8 hex>.tmp`, and the journal files SQLite may make beside it. */
const TEMPORARY_NAME = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp(-journal|-wal|-shm)?$/;

/**
 * Creates an empty file beside `target`, readable and writable by its owner only (0600), and
 * returns its path. Created here before anything is written to it, so a copy of the database (key
 * fingerprints, password hashes) is never readable by others, even for a moment or when the run is
 * killed before it renames or removes the file. SQLite keeps an existing file's mode and gives its
 * journal files the same one.
 */
export function createTemporaryBeside(target: string): string {
  const file = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  return file;
}

/**
 * Removes the temporary files in `dir` that a backup or restore killed before it finished left
 * behind: those named as createTemporaryBeside names them whose process is gone. A file of a run
 * still going on (its process is alive, in this or another program) is left alone; so is every
 * other file. Returns the names removed.
 */
export function removeStaleTemporaries(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = TEMPORARY_NAME.exec(name);
    if (!match) continue;
    const pid = Number(match[2]);
    if (pid === process.pid || processIsAlive(pid)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
