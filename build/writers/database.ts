// The query database (SQLite): versions, books, verses and a full-text index, for ranges and search.
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  BIBLE_DATABASE_DDL,
  BIBLE_META_KEYS,
  type BibleMeta,
  type BibleTables,
  insertRowSql,
  readBibleMeta,
  storedVerse,
} from '../contract/bible-database.ts';
import { BIBLE_SCHEMA_VERSION } from '../contract/layout.ts';
import Database from '../contract/sqlite-driver.ts';
import { renameIfExists } from './output-dir.ts';
import { canonicalBooks } from './static-tree.ts';
import type { BuiltVersion } from './types.ts';

/**
 * Writes the database to `path`: built in a temporary file beside it, then renamed into
 * place, so the service never opens a half-built file. Meta holds schemaVersion and buildHash.
 * Temporary files that a killed build left beside it (their process gone) are removed first.
 *
 * @example await writeDatabase('var/bible.sqlite', versions, buildHash)
 */
export async function writeDatabase(path: string, versions: readonly BuiltVersion[], buildHash: string): Promise<{ bytes: number }> {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  await removeAbandonedTemporaries(path);
  await rm(temporary, { force: true });
  try {
    const db = new Database(temporary);
    try {
      // Safe: the file is renamed into place only once complete.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.exec(BIBLE_DATABASE_DDL);
      fillDatabase(db, versions, buildHash);
      db.exec("INSERT INTO verses_fts (verses_fts) VALUES ('optimize')");
    } finally {
      db.close();
    }
    const { size } = await stat(temporary);
    await renameIfExists(temporary, path);
    return { bytes: size };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Removes `<name>.tmp-<pid>` files (and their `-journal`, `-wal`, `-shm` companions) beside
 * `path` whose process no longer runs: what a build killed mid-write leaves behind. A file of
 * a build still running (another process writing the same path) is left alone.
 */
export async function removeAbandonedTemporaries(path: string): Promise<string[]> {
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.tmp-(\\d+)(?:-journal|-wal|-shm)?$`);
  const removed: string[] = [];
  for (const name of await readdir(dirname(path))) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined || processIsAlive(Number(pid))) continue;
    await rm(join(dirname(path), name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Whether a process with this id runs (EPERM: it does, under another user). */
function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function fillDatabase(db: Database.Database, versions: readonly BuiltVersion[], buildHash: string): void {
  const insertMeta = db.prepare<[BibleTables['meta']]>(insertRowSql('meta'));
  const insertVersion = db.prepare<[BibleTables['versions']]>(insertRowSql('versions'));
  const insertBook = db.prepare<[BibleTables['books']]>(insertRowSql('books'));
  const insertVerse = db.prepare<[BibleTables['verses']]>(insertRowSql('verses'));
  const meta: Required<BibleMeta> = { schemaVersion: String(BIBLE_SCHEMA_VERSION), buildHash };
  db.transaction(() => {
    for (const key of BIBLE_META_KEYS) insertMeta.run({ key, value: meta[key] });
    let id = 0;
    for (const { info, text } of versions) {
      insertVersion.run({
        lang: info.lang,
        code: info.code,
        name: info.name,
        language_name: info.languageName,
        year: info.year,
        licence: info.licence,
        attribution: info.attribution,
      });
      for (const { canon, book } of canonicalBooks(text.books)) {
        const names = canon.names[info.lang];
        const place = { lang: info.lang, usfm: canon.usfm, ord: canon.order };
        insertBook.run({ ...place, abbr: names.abbr, name: names.name, testament: canon.testament, chapters: book.chapters.length });
        for (const chapter of book.chapters) {
          for (const verse of chapter.verses) insertVerse.run({ id: ++id, ...place, chapter: chapter.number, ...storedVerse(verse) });
        }
      }
    }
    db.exec("INSERT INTO verses_fts (verses_fts) VALUES ('rebuild')");
  })();
}

/** The build hash stored in an existing database, or undefined when there is none or it is unreadable. */
export function databaseBuildHash(path: string): string | undefined {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const meta = readBibleMeta(db);
      return meta.schemaVersion === String(BIBLE_SCHEMA_VERSION) ? meta.buildHash : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}
