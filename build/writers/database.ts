// The query database (SQLite): versions, books, verses and a full-text index, for ranges and search.
import Database from '../sqlite-driver.ts';
import { rm, stat } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { BIBLE_SCHEMA_VERSION } from '../layout.ts';
import { canonicalBooks } from './static-tree.ts';
import { renameIfExists } from './output-dir.ts';
import type { BuiltVersion } from './types.ts';

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE versions (
  lang TEXT PRIMARY KEY, code TEXT NOT NULL, name TEXT NOT NULL, language_name TEXT NOT NULL,
  year INTEGER NOT NULL, licence TEXT NOT NULL, attribution TEXT NOT NULL
);
CREATE TABLE books (
  lang TEXT NOT NULL, usfm TEXT NOT NULL, ord INTEGER NOT NULL, abbr TEXT NOT NULL, name TEXT NOT NULL,
  testament TEXT NOT NULL, chapters INTEGER NOT NULL, PRIMARY KEY (lang, usfm)
);
-- Invariant the service's search relies on: ids run in one block per language, in canonical
-- order (book, chapter, verse), so a rowid range selects a language and rowid order is Bible order.
CREATE TABLE verses (
  id INTEGER PRIMARY KEY, lang TEXT NOT NULL, usfm TEXT NOT NULL, ord INTEGER NOT NULL,
  chapter INTEGER NOT NULL, verse INTEGER NOT NULL, through INTEGER, text TEXT NOT NULL,
  heading TEXT, notes TEXT
);
CREATE INDEX verses_by_reference ON verses (lang, usfm, chapter, verse);
CREATE VIRTUAL TABLE verses_fts USING fts5(
  text, content='verses', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
`;

/**
 * Writes the database to `path`: built in a temporary file beside it, then renamed into
 * place, so the service never opens a half-built file. Meta holds schemaVersion and buildHash.
 *
 * @example await writeDatabase('var/bible.sqlite', versions, buildHash)
 */
export async function writeDatabase(path: string, versions: readonly BuiltVersion[], buildHash: string): Promise<{ bytes: number }> {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  await rm(temporary, { force: true });
  try {
    const db = new Database(temporary);
    try {
      // Safe: the file is renamed into place only once complete.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.exec(SCHEMA);
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

function fillDatabase(db: Database.Database, versions: readonly BuiltVersion[], buildHash: string): void {
  const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  const insertVersion = db.prepare(
    'INSERT INTO versions (lang, code, name, language_name, year, licence, attribution) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertBook = db.prepare(
    'INSERT INTO books (lang, usfm, ord, abbr, name, testament, chapters) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertVerse = db.prepare(
    'INSERT INTO verses (id, lang, usfm, ord, chapter, verse, through, text, heading, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    insertMeta.run('schemaVersion', String(BIBLE_SCHEMA_VERSION));
    insertMeta.run('buildHash', buildHash);
    let id = 0;
    for (const { info, text } of versions) {
      insertVersion.run(info.lang, info.code, info.name, info.languageName, info.year, info.licence, info.attribution);
      for (const { canon, book } of canonicalBooks(text.books)) {
        const names = canon.names[info.lang];
        insertBook.run(info.lang, canon.usfm, canon.order, names.abbr, names.name, canon.testament, book.chapters.length);
        for (const chapter of book.chapters) {
          for (const verse of chapter.verses) {
            insertVerse.run(
              ++id,
              info.lang,
              canon.usfm,
              canon.order,
              chapter.number,
              verse.number,
              verse.through !== undefined && verse.through > verse.number ? verse.through : null,
              verse.text,
              verse.heading ?? null,
              verse.notes && verse.notes.length > 0 ? JSON.stringify(verse.notes) : null,
            );
          }
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
      const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
      const meta = new Map(rows.map((row) => [row.key, row.value]));
      return meta.get('schemaVersion') === String(BIBLE_SCHEMA_VERSION) ? meta.get('buildHash') : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}
