// Test helper: a tiny built Bible (static tree + query database) from the synthetic model, made with the build's writers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { BIBLE_SCHEMA_VERSION, staticPaths } from '../../build/layout.ts';
import type { BuiltVersion, OutputFile } from '../../build/writers/types.ts';
import { canonicalBooks, staticTree } from '../../build/writers/static-tree.ts';
import { writeOutputs } from '../../build/writers/output-dir.ts';
import { syntheticVersions } from './synthetic-model.ts';

export interface BibleFixture {
  /** Folder holding `public/` and `bible.sqlite`. */
  dir: string;
  publicDir: string;
  databasePath: string;
  buildHash: string;
  /** BIBLE_PUBLIC_DIR and BIBLE_DB_PATH for startTestServer. */
  env: Record<string, string>;
  remove(): void;
}

/**
 * Builds the synthetic five-language Bible into a new temporary folder.
 *
 * @example const bible = await buildBibleFixture(); const server = await startTestServer(bible.env);
 */
export async function buildBibleFixture(
  versions: readonly BuiltVersion[] = syntheticVersions(),
  buildHash = 'test-build-1',
): Promise<BibleFixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bible-fixture-'));
  const publicDir = path.join(dir, 'public');
  const databasePath = path.join(dir, 'bible.sqlite');
  await writeBibleBuild(publicDir, databasePath, versions, buildHash);
  return {
    dir,
    publicDir,
    databasePath,
    buildHash,
    env: { BIBLE_PUBLIC_DIR: publicDir, BIBLE_DB_PATH: databasePath },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Writes tree and database of one build (used again by tests that rebuild in place). */
export async function writeBibleBuild(
  publicDir: string,
  databasePath: string,
  versions: readonly BuiltVersion[],
  buildHash: string,
): Promise<void> {
  const files = withCompressedVariants(staticTree(versions, buildHash));
  await writeOutputs(publicDir, files, ['api/v1/bible']);
  writeDatabase(databasePath, versions, buildHash);
}

/** Beside each JSON file, its .br and .gz as the build publishes them. */
function withCompressedVariants(files: OutputFile[]): OutputFile[] {
  const out: OutputFile[] = [];
  for (const file of files) {
    out.push(file);
    if (file.path === staticPaths.stamp) continue;
    const bytes = typeof file.content === 'string' ? Buffer.from(file.content) : Buffer.from(file.content);
    out.push({ path: `${file.path}.br`, content: new Uint8Array(brotliCompressSync(bytes)) });
    out.push({ path: `${file.path}.gz`, content: new Uint8Array(gzipSync(bytes)) });
  }
  return out;
}

/** The query database in the build's schema (meta, versions, books, verses, verses_fts). */
function writeDatabase(file: string, versions: readonly BuiltVersion[], buildHash: string): void {
  const staging = `${file}.tmp-${process.pid}`;
  fs.rmSync(staging, { force: true });
  const db = new Database(staging);
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE versions (lang TEXT PRIMARY KEY, code TEXT NOT NULL, name TEXT NOT NULL, language_name TEXT NOT NULL,
      year INTEGER NOT NULL, licence TEXT NOT NULL, attribution TEXT NOT NULL);
    CREATE TABLE books (lang TEXT NOT NULL, usfm TEXT NOT NULL, ord INTEGER NOT NULL, abbr TEXT NOT NULL, name TEXT NOT NULL,
      testament TEXT NOT NULL, chapters INTEGER NOT NULL, PRIMARY KEY (lang, usfm));
    CREATE TABLE verses (id INTEGER PRIMARY KEY, lang TEXT NOT NULL, usfm TEXT NOT NULL, ord INTEGER NOT NULL,
      chapter INTEGER NOT NULL, verse INTEGER NOT NULL, through INTEGER, text TEXT NOT NULL, heading TEXT, notes TEXT);
    CREATE INDEX verses_by_reference ON verses (lang, usfm, chapter, verse);
    CREATE VIRTUAL TABLE verses_fts USING fts5(text, content='verses', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
  `);
  const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  const insertVersion = db.prepare('INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertBook = db.prepare('INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertVerse = db.prepare(
    'INSERT INTO verses (lang, usfm, ord, chapter, verse, through, text, heading, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    insertMeta.run('schemaVersion', String(BIBLE_SCHEMA_VERSION));
    insertMeta.run('buildHash', buildHash);
    for (const { info, text } of versions) {
      insertVersion.run(info.lang, info.code, info.name, info.languageName, info.year, info.licence, info.attribution);
      for (const { canon, book } of canonicalBooks(text.books)) {
        const names = canon.names[info.lang];
        insertBook.run(info.lang, canon.usfm, canon.order, names.abbr, names.name, canon.testament, book.chapters.length);
        for (const chapter of book.chapters) {
          for (const verse of chapter.verses) {
            insertVerse.run(
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
  })();
  db.exec("INSERT INTO verses_fts (verses_fts) VALUES ('rebuild')");
  db.close();
  fs.renameSync(staging, file);
}
