// The better-sqlite3 addon inside the single binary: its SEA asset written once to a private temporary file, then loaded by each thread that opens a database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sea from 'node:sea';
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import { processIsAlive } from '../process-alive.ts';

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

/** `church-api-<pid>-XXXXXX`: the pid says whether the process that wrote the folder is still alive. */
const ADDON_FOLDER = /^church-api-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * The folder comes from os.tmpdir() (TMPDIR): on a host whose /tmp is mounted noexec, where a
 * library cannot be mapped, TMPDIR must name another folder (docs/single-binary.md says so).
 */
function writeAddon(): string {
  const tmp = os.tmpdir();
  removeStaleAddonFolders(tmp);
  const dir = fs.mkdtempSync(path.join(tmp, `church-api-${process.pid}-`));
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

/**
 * Removes the addon folders that binaries killed with SIGKILL (or by the OOM killer) left in
 * `tmp`: an exit handler never ran for them, and each holds a 2 MiB library. Only folders of
 * this user whose process is gone are removed; a pid reused since leaves its folder for later.
 *
 * @example removeStaleAddonFolders(os.tmpdir())
 */
export function removeStaleAddonFolders(tmp: string, isAlive: (pid: number) => boolean = processIsAlive): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(tmp);
  } catch {
    return removed;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = Number(ADDON_FOLDER.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    const dir = path.join(tmp, name);
    try {
      const stat = fs.lstatSync(dir);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Removed by another process starting at the same time, or not ours to remove: left alone.
    }
  }
  return removed;
}
