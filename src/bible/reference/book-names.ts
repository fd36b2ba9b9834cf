// Book-name lookup for references: a language's names, abbreviations and aliases and the USFM codes, case- and accent-insensitive.
import { CANON, type CanonBook, LANGS, type Lang } from '../../../build/contract/books.ts';

/** A book found for a name, or why none was: the name is unknown, or it begins several books' names. */
export type BookLookup = { book: CanonBook } | { book?: undefined; candidates: readonly CanonBook[] };

/**
 * The book `written` names in `lang`, tried in this order, the first that answers wins:
 * 1. a name, abbreviation or alias of the language, case-insensitive with accents kept
 *    (Portuguese "Jó" is Job, "Jo" is João);
 * 2. the same with accents ignored ("Genese", "Joao");
 * 3. a USFM code (GEN, 1CO, JHN), in every language;
 * 4. the beginning of exactly one full name of the language ("Psaume" for Psaumes, "1 Cor" for 1 Corinthiens).
 * Spaces and dots inside the name do not count ("1 Co", "1Co.", "Song of Songs").
 * When several names begin with it, `candidates` lists those books.
 *
 * @example lookupBook('fr', 'Jean')    // { book: JHN }
 * @example lookupBook('en', 'Jo')      // { candidates: [JOB, JOL, JHN, JON, JOS…] }
 */
export function lookupBook(lang: Lang, written: string): BookLookup {
  const index = indexes.get(lang)!;
  const exact = index.exact.get(exactKey(written)) ?? index.folded.get(foldedKey(written)) ?? usfmIndex.get(exactKey(written));
  if (exact) return { book: exact };
  const prefix = foldedKey(written);
  const candidates = prefix.length < 2 ? [] : index.fullNames.filter(([name]) => name.startsWith(prefix)).map(([, book]) => book);
  return candidates.length === 1 ? { book: candidates[0]! } : { candidates };
}

interface NameIndex {
  exact: Map<string, CanonBook>;
  folded: Map<string, CanonBook>;
  fullNames: [string, CanonBook][];
}

/** Letters and digits only, lower case, accents kept. */
function exactKey(written: string): string {
  return written
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Letters and digits only, lower case, accents removed. */
function foldedKey(written: string): string {
  return exactKey(written.normalize('NFD').replace(/\p{M}/gu, ''));
}

// The first book to claim a key keeps it: a language's own abbreviation comes before its
// aliases (added later), so an alias can never take an official abbreviation from another book.
function buildIndex(lang: Lang): NameIndex {
  const index: NameIndex = { exact: new Map(), folded: new Map(), fullNames: [] };
  const claim = (written: string, book: CanonBook) => {
    if (!index.exact.has(exactKey(written))) index.exact.set(exactKey(written), book);
    if (!index.folded.has(foldedKey(written))) index.folded.set(foldedKey(written), book);
  };
  for (const book of CANON) {
    claim(book.names[lang].abbr, book);
    claim(book.names[lang].name, book);
    index.fullNames.push([foldedKey(book.names[lang].name), book]);
  }
  for (const book of CANON) for (const alias of book.names[lang].aliases ?? []) claim(alias, book);
  return index;
}

const indexes = new Map(LANGS.map((lang) => [lang, buildIndex(lang)]));
const usfmIndex = new Map(CANON.map((book) => [exactKey(book.usfm), book]));
