// The better-sqlite3 addon inside the single binary: its SEA asset written once to a private temporary file, then loaded by each thread that opens a database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sea from 'node:sea';
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';

/** The SEA asset holding better-sqlite3's Node-API addon (scripts/binary/sea.ts embeds it under this name). */
export const SQLITE_ADDON_ASSET = 'better_sqlite3.node';

/** How a search worker learns where the main thread wrote the addon (worker_threads environment data). */
const ADDON_FILE_KEY = 'church-api:sqlite-addon-file';

let addon: object | undefined;

/**
 * The addon object for better-sqlite3's `nativeBinding` option. A native addon can only be
 * loaded from a file, and a binary has none beside it: the main thread writes the asset to a
 * file of its own (mode 0600 in a new 0700 folder, removed when the process exits) the first
 * time a database is opened; worker threads load that same file.
 *
 * @example new Database(file, { nativeBinding: embeddedSqliteAddon() })
 */
export function embeddedSqliteAddon(): object {
  addon ??= loadAddon(addonFile());
  return addon;
}

function addonFile(): string {
  const written = getEnvironmentData(ADDON_FILE_KEY);
  if (typeof written === 'string') return written;
  if (!isMainThread) throw new Error('the SQLite addon has not been written by the main thread');
  const file = writeAddon();
  setEnvironmentData(ADDON_FILE_KEY, file);
  return file;
}

/**
 * The folder comes from os.tmpdir() (TMPDIR): on a host whose /tmp is mounted noexec, where a
 * library cannot be mapped, TMPDIR must name another folder (the README says so).
 */
function writeAddon(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, SQLITE_ADDON_ASSET);
  fs.writeFileSync(file, new Uint8Array(sea.getRawAsset(SQLITE_ADDON_ASSET) as ArrayBuffer), { mode: 0o600, flag: 'wx' });
  return file;
}

function loadAddon(file: string): object {
  const module = { exports: {} };
  process.dlopen(module, file);
  return module.exports;
}
