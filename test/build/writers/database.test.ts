// The query database: a synthetic model round-trips, full-text search ignores case and accents, a killed build leaves nothing for good.

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../../build/contract/sqlite-driver.ts';
import { databaseBuildHash, writeDatabase } from '../../../build/writers/database.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

describe('database writer', () => {
  let dir = '';
  let path = '';
  let db: Database.Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-db-'));
    path = join(dir, 'var', 'bible.sqlite');
    await writeDatabase(path, syntheticVersions(), 'hash-db');
    db = new Database(path, { readonly: true });
  });

  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves only the finished file behind', async () => {
    expect(await readdir(join(dir, 'var'))).toEqual(['bible.sqlite']);
  });

  it('stores the schema version and build hash', () => {
    expect(databaseBuildHash(path)).toBe('hash-db');
    expect(databaseBuildHash(join(dir, 'missing.sqlite'))).toBeUndefined();
  });

  it('round-trips versions, books and verses', () => {
    expect(db.prepare('SELECT lang, code FROM versions ORDER BY rowid').all()).toEqual([
      { lang: 'fr', code: 'LSG' },
      { lang: 'en', code: 'KJV' },
      { lang: 'es', code: 'RVR' },
      { lang: 'pt', code: 'BLIVRE' },
      { lang: 'nl', code: 'STV' },
    ]);
    expect(db.prepare("SELECT * FROM books WHERE lang = 'fr' ORDER BY ord").all()).toEqual([
      { lang: 'fr', usfm: 'GEN', ord: 1, abbr: 'Gn', name: 'Genèse', testament: 'OT', chapters: 2 },
      { lang: 'fr', usfm: 'PSA', ord: 19, abbr: expect.any(String), name: expect.any(String), testament: 'OT', chapters: 1 },
      { lang: 'fr', usfm: 'JHN', ord: 43, abbr: expect.any(String), name: expect.any(String), testament: 'NT', chapters: 3 },
    ]);
    const verses = db
      .prepare("SELECT verse, heading, notes FROM verses WHERE lang = 'en' AND usfm = 'GEN' AND chapter = 1 ORDER BY verse")
      .all();
    expect(verses).toEqual([
      { verse: 1, heading: 'La création', notes: null },
      { verse: 2, heading: null, notes: JSON.stringify(['A note on verse 2.']) },
      { verse: 3, heading: null, notes: null },
      { verse: 5, heading: null, notes: null },
    ]);
  });

  it('numbers verses in one run per language, in canonical order (search relies on it)', () => {
    const rows = db.prepare('SELECT id, lang, ord, chapter, verse FROM verses ORDER BY id').all() as {
      id: number;
      lang: string;
      ord: number;
      chapter: number;
      verse: number;
    }[];
    expect(rows.length).toBeGreaterThan(5);
    const seenLangs: string[] = [];
    rows.forEach((row, index) => {
      const previous = rows[index - 1];
      if (!previous || previous.lang !== row.lang) {
        expect(seenLangs).not.toContain(row.lang);
        seenLangs.push(row.lang);
        return;
      }
      expect(row.id).toBe(previous.id + 1);
      const key = (r: typeof row) => r.ord * 1e6 + r.chapter * 1e3 + r.verse;
      expect(key(row)).toBeGreaterThan(key(previous));
    });
  });

  it('finds "eternel" for "Éternel", in any case', () => {
    const search = db.prepare(
      "SELECT v.usfm, v.chapter, v.verse FROM verses_fts JOIN verses v ON v.id = verses_fts.rowid WHERE verses_fts MATCH ? AND v.lang = 'fr'",
    );
    expect(search.all('eternel')).toEqual([{ usfm: 'GEN', chapter: 1, verse: 1 }]);
    expect(search.all('ETERNEL')).toEqual([{ usfm: 'GEN', chapter: 1, verse: 1 }]);
  });
});

describe('temporary files of a killed build', () => {
  it('are removed at the next build when their process is gone; those of a running build stay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bible-db-stale-'));
    const path = join(dir, 'bible.sqlite');
    const gone = await exitedProcessId();
    const running = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const stale = [`bible.sqlite.tmp-${gone}`, `bible.sqlite.tmp-${gone}-journal`];
      const live = `bible.sqlite.tmp-${running.pid}`;
      const unrelated = ['bible.sqlite.tmp-notapid', 'other.sqlite.tmp-1', 'bible.sqlite.bak'];
      for (const name of [...stale, live, ...unrelated]) await writeFile(join(dir, name), 'half a database');
      await writeDatabase(path, syntheticVersions(['fr']), 'after-a-kill');
      expect((await readdir(dir)).sort()).toEqual(['bible.sqlite', live, ...unrelated].sort());
      expect(databaseBuildHash(path)).toBe('after-a-kill');
    } finally {
      running.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are left by a build killed mid-write, and cleaned by the next one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bible-db-killed-'));
    const path = join(dir, 'bible.sqlite');
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', KILLED_BUILD_SCRIPT, path], { stdio: 'ignore' });
      const deadline = Date.now() + 20_000;
      while (!(await readdir(dir)).some((name) => name.startsWith('bible.sqlite.tmp-'))) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error('the build never started writing');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect((await readdir(dir)).some((name) => name.startsWith(`bible.sqlite.tmp-${child.pid}`))).toBe(true);
      await writeDatabase(path, syntheticVersions(['fr']), 'next-build');
      expect(await readdir(dir)).toEqual(['bible.sqlite']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

/** A script that writes a database far too big to finish before it is killed. */
const KILLED_BUILD_SCRIPT = fileURLToPath(new URL('./slow-database-build.ts', import.meta.url));

/** The id of a process that has run and exited (so no process has it, barring reuse). */
async function exitedProcessId(): Promise<number> {
  const child = spawn('true', { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('true did not start');
  return child.pid;
}
