// The query database (SQLite): versions, books, verses and a full-text index, for ranges and search.
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  BIBLE_COLUMNS,
  BIBLE_DATABASE_INDEXES,
  BIBLE_DATABASE_TABLES,
  BIBLE_META_KEYS,
  type BibleMeta,
  type BibleRowValues,
  type BibleTables,
  insertPositionalSql,
  insertRowSql,
  readBibleMeta,
  storedVerse,
} from '../contract/bible-database.ts';
import { bookByUsfm, type Lang } from '../contract/books.ts';
import { BIBLE_SCHEMA_VERSION } from '../contract/layout.ts';
import Database from '../contract/sqlite-driver.ts';
import type { VerseAlignment } from '../contract/verse-map.ts';
import type { Book } from '../model.ts';
import { renameIfExists } from './output-dir.ts';
import { canonicalBooks } from './static-tree.ts';
import type { BuiltVersion, VersionInfo } from './types.ts';

/**
 * Writes the database to `path`: built in a temporary file beside it, then renamed into
 * place, so the service never opens a half-built file. Meta holds schemaVersion and buildHash.
 * `alignments` (by version code) gives each version's `verse_pivots` rows; a version without one has none.
 * Temporary files that a killed build left beside it (their process gone) are removed first.
 *
 * @example await writeDatabase('var/bible.sqlite', versions, buildHash)
 */
export async function writeDatabase(
  path: string,
  versions: readonly BuiltVersion[],
  buildHash: string,
  alignments: ReadonlyMap<string, VerseAlignment> = new Map(),
): Promise<{ bytes: number }> {
  const writer = await DatabaseWriter.open(path, buildHash);
  try {
    for (const version of versions) writer.addVersion(version, alignments.get(version.info.code));
    return await writer.finish();
  } catch (error) {
    await writer.discard();
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

/**
 * The database built one version at a time (the streaming build holds one version in memory):
 * rows go into a temporary file beside `path`, each version's full-text rows right after its
 * verses (so indexing is spread over the build rather than left for its end); `finish` merges the
 * full-text index and renames the file into place. A version whose inputs did not change is copied
 * from the previous database (`copyVersion`) rather than read again.
 *
 * @example const db = await DatabaseWriter.open(path, hash); db.addVersion(version); await db.finish();
 */
export class DatabaseWriter {
  #nextId = 0;
  #versionFirstId = 1;
  /** Whether the version started last came with its alignment (its pivot rows are completed in endVersion). */
  #aligned = false;
  #previousAttached = false;
  #prepared:
    | {
        version: Database.Statement<[BibleTables['versions']]>;
        book: Database.Statement<[BibleTables['books']]>;
        verse: Database.Statement<BibleRowValues<'verses'>>;
        pivot: Database.Statement<BibleRowValues<'verse_pivots'>>;
        differing: Database.Statement<[number]>;
      }
    | undefined;

  private constructor(
    readonly path: string,
    readonly temporary: string,
    readonly db: Database.Database,
  ) {}

  static async open(path: string, buildHash: string): Promise<DatabaseWriter> {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = temporaryPath(path);
    await removeAbandonedTemporaries(path);
    await rm(temporary, { force: true });
    const db = new Database(temporary);
    // Safe: the file is renamed into place only once complete.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // The secondary index is made once, in `finish`, from the loaded rows: kept up to date row by row, it cost more.
    db.exec(BIBLE_DATABASE_TABLES);
    // The verses of the version being added whose pivot rows are written one by one (endVersion writes the others).
    db.exec('CREATE TEMP TABLE differing (verse_id INTEGER PRIMARY KEY)');
    // Full-text segments are merged once, by 'optimize' in `finish`, rather than as the rows come (measured: 0.6 s
    // less for the five versions); `finish` sets the default back, so the file carries FTS5's usual settings.
    db.exec(`INSERT INTO verses_fts (verses_fts, rank) VALUES ('automerge', 0)`);
    const insertMeta = db.prepare<[BibleTables['meta']]>(insertRowSql('meta'));
    const meta: Required<BibleMeta> = { schemaVersion: String(BIBLE_SCHEMA_VERSION), buildHash };
    for (const key of BIBLE_META_KEYS) insertMeta.run({ key, value: meta[key] });
    return new DatabaseWriter(path, temporary, db);
  }

  /** Adds a version's row, its books, its verses, their full-text rows and (given its alignment) their pivot verses. */
  addVersion({ info, text }: BuiltVersion, alignment?: VerseAlignment): void {
    this.startVersion(info);
    for (const { book } of canonicalBooks(text.books)) this.addBook(info.lang, book, alignment);
    this.endVersion();
  }

  /** Adds a version's row; its books follow with `addBook`, in canonical order, then `endVersion`. */
  startVersion(info: VersionInfo): void {
    this.#versionFirstId = this.#nextId + 1;
    this.#statements().version.run({
      lang: info.lang,
      code: info.code,
      name: info.name,
      language_name: info.languageName,
      year: info.year,
      licence: info.licence,
      attribution: info.attribution,
    });
  }

  /**
   * Adds one book of the version started last, and its verses, in one transaction (a book outside
   * the canon is left out); with the version's alignment, each verse's pivot verses too.
   */
  addBook(lang: Lang, book: Book, alignment?: VerseAlignment): void {
    const canon = bookByUsfm(book.code);
    if (!canon) return;
    const statements = this.#statements();
    if (alignment) this.#aligned = true;
    this.db.transaction(() => {
      const names = canon.names[lang];
      const place = { lang, usfm: canon.usfm, ord: canon.order };
      statements.book.run({ ...place, abbr: names.abbr, name: names.name, testament: canon.testament, chapters: book.chapters.length });
      for (const chapter of book.chapters) {
        for (const verse of chapter.verses) {
          const stored = storedVerse(verse);
          // Bound by position (a bulk load: 155,000 rows), in the column order of BIBLE_COLUMNS.verses.
          statements.verse.run(
            ++this.#nextId,
            lang,
            canon.usfm,
            canon.order,
            chapter.number,
            stored.verse,
            stored.text,
            stored.heading,
            stored.notes,
            stored.layout,
          );
          // Only the verses that are not the pivot verse of their number: endVersion adds the others in one statement.
          const differing = alignment?.differingPivotKeys(canon.order * 1_000_000 + chapter.number * 1_000 + verse.number);
          if (differing) {
            statements.differing.run(this.#nextId);
            for (const pivot of differing) statements.pivot.run(this.#nextId, pivot);
          }
        }
      }
    })();
  }

  /** Adds the full-text rows of the version started last and, when its books came with its alignment, the rest of its pivot rows. */
  endVersion(): void {
    this.#indexVerses(this.#versionFirstId);
    if (this.#aligned) {
      // Every verse not listed as differing is the pivot verse of its number: one INSERT … SELECT (measured on the five
      // versions: 48 ms of CPU where a statement per verse took 130, on the index thread that ends the build).
      this.db
        .prepare(
          'INSERT INTO verse_pivots (verse_id, pivot) SELECT id, ord * 1000000 + chapter * 1000 + verse FROM verses ' +
            'WHERE id >= ? AND id NOT IN (SELECT verse_id FROM temp.differing) ORDER BY id',
        )
        .run(this.#versionFirstId);
      this.db.exec('DELETE FROM temp.differing');
      this.#aligned = false;
    }
  }

  /**
   * Copies one language's version row, books and verses from the database of the previous build
   * (`previousPath`), in their order, with ids that continue this database's: the rows a full build
   * would write for the same inputs.
   */
  copyVersion(previousPath: string, lang: Lang): void {
    const { db } = this;
    if (!this.#previousAttached) {
      // Only read; the pipeline copies from a database it has just found complete and of the previous build.
      db.prepare('ATTACH DATABASE ? AS previous').run(previousPath);
      this.#previousAttached = true;
    }
    const columns = (table: 'versions' | 'books') => BIBLE_COLUMNS[table].join(', ');
    const verseColumns = BIBLE_COLUMNS.verses.filter((column) => column !== 'id').join(', ');
    db.transaction(() => {
      const firstId = this.#nextId + 1;
      db.prepare(`INSERT INTO versions (${columns('versions')}) SELECT ${columns('versions')} FROM previous.versions WHERE lang = ?`).run(
        lang,
      );
      db.prepare(`INSERT INTO books (${columns('books')}) SELECT ${columns('books')} FROM previous.books WHERE lang = ? ORDER BY ord`).run(
        lang,
      );
      const { changes } = db
        .prepare(
          `INSERT INTO verses (id, ${verseColumns}) SELECT ? + row_number() OVER (ORDER BY id), ${verseColumns} ` +
            'FROM previous.verses WHERE lang = ? ORDER BY id',
        )
        .run(this.#nextId, lang);
      // A language's ids are one block in both databases, so its pivot rows move by the difference of the blocks' starts.
      db.prepare(
        'INSERT INTO verse_pivots (verse_id, pivot) SELECT p.verse_id - b.first + ?, p.pivot FROM previous.verse_pivots p, ' +
          '(SELECT min(id) AS first, max(id) AS last FROM previous.verses WHERE lang = ?) b ' +
          'WHERE p.verse_id BETWEEN b.first AND b.last ORDER BY p.verse_id, p.pivot',
      ).run(firstId, lang);
      this.#nextId += changes;
      this.#indexVerses(firstId);
    })();
  }

  /** Merges the full-text index into one segment, closes the file and renames it into place; returns its size. */
  async finish(): Promise<{ bytes: number }> {
    try {
      if (this.#previousAttached) this.db.exec('DETACH DATABASE previous');
      this.db.exec(BIBLE_DATABASE_INDEXES);
      this.db.exec("INSERT INTO verses_fts (verses_fts) VALUES ('optimize')");
      this.db.exec(`INSERT INTO verses_fts (verses_fts, rank) VALUES ('automerge', ${FTS5_DEFAULT_AUTOMERGE})`);
    } finally {
      this.db.close();
    }
    const { size } = await stat(this.temporary);
    await renameIfExists(this.temporary, this.path);
    return { bytes: size };
  }

  /** Closes and removes the temporary file (after a failed build). */
  async discard(): Promise<void> {
    if (this.db.open) this.db.close();
    await DatabaseWriter.removeTemporary(this.path);
  }

  /** Removes this process's temporary file for `path` (a writer on a thread that was stopped cannot discard its own). */
  static async removeTemporary(path: string): Promise<void> {
    await Promise.all(['', '-journal'].map((suffix) => rm(`${temporaryPath(path)}${suffix}`, { force: true })));
  }

  #statements() {
    this.#prepared ??= {
      version: this.db.prepare<[BibleTables['versions']]>(insertRowSql('versions')),
      book: this.db.prepare<[BibleTables['books']]>(insertRowSql('books')),
      verse: this.db.prepare<BibleRowValues<'verses'>>(insertPositionalSql('verses')),
      pivot: this.db.prepare<BibleRowValues<'verse_pivots'>>(insertPositionalSql('verse_pivots')),
      differing: this.db.prepare<[number]>('INSERT INTO temp.differing (verse_id) VALUES (?)'),
    };
    return this.#prepared;
  }

  /** Full-text rows for the verses from `firstId` on (the version just added). */
  #indexVerses(firstId: number): void {
    this.db.prepare('INSERT INTO verses_fts (rowid, text) SELECT id, text FROM verses WHERE id >= ? ORDER BY id').run(firstId);
  }
}

/** FTS5's own automerge setting (https://sqlite.org/fts5.html#the_automerge_configuration_option). */
const FTS5_DEFAULT_AUTOMERGE = 4;

/** Where this process builds the database for `path`: beside it, named for the process, so a killed build's file can be recognised. */
function temporaryPath(path: string): string {
  return `${path}.tmp-${process.pid}`;
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
