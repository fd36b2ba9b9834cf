// Reads the built Bible database into one corpus per language, for the query sets.
import { LANGS } from '../../build/contract/books.ts';
import Database from '../../build/contract/sqlite-driver.ts';
import type { CorpusBook, CorpusVerse, LanguageCorpus } from './query-sets.ts';

/**
 * Every version's books and verses from the database at `databasePath`, in the order of LANGS and
 * canonical order within each (the database's row order), opened read-only.
 *
 * @example const corpora = readCorpora('var/bible.sqlite'); corpora[0].verses.length // 31170
 */
export function readCorpora(databasePath: string): LanguageCorpus[] {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const books = db.prepare<[string], CorpusBook>('SELECT usfm, name, abbr FROM books WHERE lang = ? ORDER BY ord');
    const verses = db.prepare<[string], CorpusVerse>('SELECT usfm, chapter, verse, text FROM verses WHERE lang = ? ORDER BY id');
    return LANGS.map((lang) => ({ lang, books: books.all(lang), verses: verses.all(lang) }));
  } finally {
    db.close();
  }
}
