// The binary's start-up removes the SQLite addon folders that killed binaries left in TMPDIR, and only those.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleAddonFolders } from '../../src/binary/sqlite-addon.ts';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stale-addon-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const folder = (name: string) => {
  fs.mkdirSync(path.join(tmp, name));
  fs.writeFileSync(path.join(tmp, name, 'better_sqlite3.node'), 'x');
  return path.join(tmp, name);
};

describe('removeStaleAddonFolders', () => {
  it("removes the folders of processes that are gone and keeps live processes' and other files", () => {
    const dead = folder('church-api-4000001-AbC123');
    const alive = folder('church-api-4000002-XyZ789');
    const own = folder(`church-api-${process.pid}-QwErTy`);
    const unrelated = folder('church-api-data');
    const lookalike = folder('church-api-4000003-toolong1');
    const removed = removeStaleAddonFolders(tmp, (pid) => pid === 4000002);
    expect(removed).toEqual([dead]);
    expect(fs.existsSync(dead)).toBe(false);
    for (const kept of [alive, own, unrelated, lookalike]) expect(fs.existsSync(kept), kept).toBe(true);
  });

  it('tells a dead process from a live one by itself', () => {
    // Pid numbers above the kernel's maximum (4,194,304) never belong to a live process.
    const dead = folder('church-api-9999999-AbC123');
    const mine = folder(`church-api-${process.ppid}-AbC123`);
    expect(removeStaleAddonFolders(tmp)).toEqual([dead]);
    expect(fs.existsSync(mine)).toBe(true);
  });

  it('does nothing when the folder cannot be read', () => {
    expect(removeStaleAddonFolders(path.join(tmp, 'missing'))).toEqual([]);
  });
});
