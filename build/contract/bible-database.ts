// The query database's format (SQLite): its tables and columns, the meta it carries, and how a verse is stored.
import type { Lang, Testament } from './books.ts';
import type Database from './sqlite-driver.ts';
import type { BuildStamp } from './stamp.ts';
import type { Verse } from './verse.ts';

/** One row of each table, as stored: the keys are the column names. */
export interface BibleTables {
  meta: { key: string; value: string };
  versions: {
    lang: Lang;
    code: string;
    name: string;
    language_name: string;
    year: number;
    licence: string;
    attribution: string;
  };
  books: {
    lang: Lang;
    usfm: string;
    /** Position in the canon, 1 to 66. */
    ord: number;
    abbr: string;
    name: string;
    testament: Testament;
    chapters: number;
  };
  verses: {
    /** Runs in one block per language, in canonical order (see the DDL). */
    id: number;
    lang: Lang;
    usfm: string;
    ord: number;
    chapter: number;
    verse: number;
    text: string;
    heading: string | null;
    /** JSON array of strings, or null when the verse has no notes. */
    notes: string | null;
    /** JSON object with the verse's `paragraphs`, `poetry` and `wordsOfJesus` (those it has), or null. */
    layout: string | null;
  };
  /** Which pivot verses each verse holds (contract/verse-map.ts): the versions' alignment. */
  verse_pivots: {
    /** The verse (`verses.id`). */
    verse_id: number;
    /** A pivot verse it holds, as a verse key (`verseKey`: book order × 1,000,000 + chapter × 1,000 + verse). */
    pivot: number;
  };
}

export type BibleTable = keyof BibleTables;

/** The columns of a verse row that hold the verse itself (the others place it). */
export type StoredVerse = Pick<BibleTables['verses'], 'verse' | 'text' | 'heading' | 'notes' | 'layout'>;

/** The meta keys of a build, named as in the stamp: both carry the same values. */
export const BIBLE_META_KEYS = ['schemaVersion', 'buildHash'] as const satisfies readonly (keyof BuildStamp)[];

export type BibleMeta = Partial<Record<(typeof BIBLE_META_KEYS)[number], string>>;

/** The tables, without the secondary index (a bulk load builds it once at the end, `BIBLE_DATABASE_INDEXES`). */
export const BIBLE_DATABASE_TABLES = `
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
  chapter INTEGER NOT NULL, verse INTEGER NOT NULL, text TEXT NOT NULL,
  heading TEXT, notes TEXT, layout TEXT
);
-- How the versions align (build/contract/verse-map.ts): each verse and the pivot verses it holds, as verse
-- keys. The verses of version B that hold what verse A holds share a pivot with it; an unmatched verse
-- has no row, and a pivot verse a version lacks has no row of that version.
CREATE TABLE verse_pivots (
  verse_id INTEGER NOT NULL, pivot INTEGER NOT NULL, PRIMARY KEY (verse_id, pivot)
) WITHOUT ROWID;
-- columnsize=0: no table of each verse's token count, which only bm25() and xColumnSize read, and search
-- answers in canonical order (src/bible/queries.ts). Measured on the five versions' 155,000 verses: the
-- full-text insert and merge 629-807 ms of CPU with it, 553-595 without, on the thread that ends the build.
CREATE VIRTUAL TABLE verses_fts USING fts5(
  text, content='verses', content_rowid='id', tokenize='unicode61 remove_diacritics 2', columnsize=0
);
`;

/** The secondary indexes: verses by reference (ranges and passages), and verses by the pivot verse they hold (alignment). */
export const BIBLE_DATABASE_INDEXES = `
CREATE INDEX verses_by_reference ON verses (lang, usfm, chapter, verse);
CREATE INDEX verse_pivots_by_pivot ON verse_pivots (pivot);
`;

/** The whole schema: tables and index. */
export const BIBLE_DATABASE_DDL = BIBLE_DATABASE_TABLES + BIBLE_DATABASE_INDEXES;

/** The columns of each table in the DDL's order; the compiler checks them against BibleTables. */
export const BIBLE_COLUMNS = {
  meta: ['key', 'value'],
  versions: ['lang', 'code', 'name', 'language_name', 'year', 'licence', 'attribution'],
  books: ['lang', 'usfm', 'ord', 'abbr', 'name', 'testament', 'chapters'],
  verses: ['id', 'lang', 'usfm', 'ord', 'chapter', 'verse', 'text', 'heading', 'notes', 'layout'],
  verse_pivots: ['verse_id', 'pivot'],
} as const satisfies { [Table in BibleTable]: readonly (keyof BibleTables[Table])[] };

// Every column of a row type is listed (the `satisfies` above checks the other direction).
void ({ meta: true, versions: true, books: true, verses: true, verse_pivots: true } satisfies {
  [Table in BibleTable]: Exclude<keyof BibleTables[Table], (typeof BIBLE_COLUMNS)[Table][number]> extends never ? true : never;
});

/**
 * The statement text that inserts one row of `table`, with a named parameter per column, so
 * it runs with a row object: `db.prepare(insertRowSql('books')).run(row)`.
 *
 * @example insertRowSql('meta') // 'INSERT INTO meta (key, value) VALUES (@key, @value)'
 */
export function insertRowSql(table: BibleTable): string {
  const columns = BIBLE_COLUMNS[table];
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;
}

/** A row of `table` as positional values, in the order of `BIBLE_COLUMNS[table]` (what `insertPositionalSql` binds). */
export type BibleRowValues<Table extends BibleTable> = ValuesInOrder<BibleTables[Table], (typeof BIBLE_COLUMNS)[Table]>;

type ValuesInOrder<Row, Columns extends readonly PropertyKey[]> = { -readonly [Index in keyof Columns]: Row[Columns[Index] & keyof Row] };

/**
 * The statement text that inserts one row of `table` with positional parameters in the order of
 * `BIBLE_COLUMNS[table]`: for bulk loads, where binding by name from an object per row costs more.
 *
 * @example insertPositionalSql('meta') // 'INSERT INTO meta (key, value) VALUES (?, ?)'
 */
export function insertPositionalSql(table: BibleTable): string {
  const columns = BIBLE_COLUMNS[table];
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

/** The meta of a Bible database (schemaVersion and buildHash, as stored: text). Throws when it has no meta table. */
export function readBibleMeta(db: Database.Database): BibleMeta {
  const rows = db.prepare<[], BibleTables['meta']>('SELECT key, value FROM meta').all();
  const meta: BibleMeta = {};
  for (const { key, value } of rows) {
    if ((BIBLE_META_KEYS as readonly string[]).includes(key)) meta[key as keyof BibleMeta] = String(value);
  }
  return meta;
}

/** How a verse is stored: missing side fields as null, notes as a JSON array. */
export function storedVerse(verse: Verse): StoredVerse {
  return {
    verse: verse.number,
    text: verse.text,
    heading: verse.heading ?? null,
    notes: verse.notes && verse.notes.length > 0 ? JSON.stringify(verse.notes) : null,
    layout: storedLayout(verse),
  };
}

function storedLayout({ paragraphs, poetry, wordsOfJesus }: Verse): string | null {
  if (!paragraphs && !poetry && !wordsOfJesus) return null;
  return JSON.stringify({ paragraphs, poetry, wordsOfJesus });
}

/** The verse a row holds: the inverse of storedVerse. */
export function verseFromRow(row: StoredVerse): Verse {
  const verse: Verse = { number: row.verse, text: row.text };
  if (row.heading) verse.heading = row.heading;
  const notes = parseNotes(row.notes);
  if (notes.length > 0) verse.notes = notes;
  if (row.layout) {
    const layout = JSON.parse(row.layout) as Pick<Verse, 'paragraphs' | 'poetry' | 'wordsOfJesus'>;
    if (layout.paragraphs) verse.paragraphs = layout.paragraphs;
    if (layout.poetry) verse.poetry = layout.poetry;
    if (layout.wordsOfJesus) verse.wordsOfJesus = layout.wordsOfJesus;
  }
  return verse;
}

function parseNotes(json: string | null): string[] {
  if (json === null) return [];
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((note): note is string => typeof note === 'string') : [];
}
