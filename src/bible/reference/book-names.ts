// Book-name lookup: every name, abbreviation and alias of a language and the USFM codes, whatever the case, accents, spaces, dots and ordinals.
import { CANON, type CanonBook, LANGS, type Lang } from '../../../build/contract/books.ts';
import { CONVENTIONS, folded, ROMAN_ORDINALS } from './conventions.ts';

/** A book found for a name, or why none was: the name is unknown, or it begins several books' names. */
export type BookLookup = { book: CanonBook } | { book?: undefined; candidates: readonly CanonBook[] };

/**
 * The book that `name` names in `lang`, or undefined: one of the language's names,
 * abbreviations and aliases (data/books.json), or a USFM code (every language). Case, accents,
 * spaces, dots and hyphens do not count ("1 Co.", "1co", "1-Co", "GENESE"), except where accents
 * alone tell two books apart (Portuguese "Jó" is Job, "Jo" is João). A number before a book may
 * be written as the language writes it: "I Jean", "1er Jean", "Première Jean", "1st John",
 * "Second Kings", "1ª Juan", "Primeira João", "2e Kor". Nothing shorter than a whole name is
 * guessed: the reader's prefixes ("Deuteronom") are not accepted here.
 *
 * @example bookByAnyName('fr', 'Jean')?.usfm      // 'JHN'
 * @example bookByAnyName('en', 'I John')?.usfm    // '1JN'
 * @example bookByAnyName('nl', 'JHN')?.usfm       // 'JHN'
 */
export function bookByAnyName(lang: Lang, name: string): CanonBook | undefined {
  const keys = nameKeys(lang, name);
  if (keys.folded === '') return undefined;
  const index = indexes.get(lang)!;
  return index.exact.get(keys.exact) ?? index.folded.get(keys.folded) ?? usfmIndex.get(keys.exact);
}

/**
 * The book `written` names in `lang`, for the reference reader: bookByAnyName, then the beginning
 * of exactly one full name of the language ("Psaume" for Psaumes, "1 Cor" for 1 Corinthiens,
 * "Deuteronom" for Deuteronomium). When several names begin with it, `candidates` lists those books.
 *
 * @example lookupBook('fr', 'Jean')    // { book: JHN }
 * @example lookupBook('en', 'Jo')      // { candidates: [JOB, JOL, JHN, JON, JOS…] }
 */
export function lookupBook(lang: Lang, written: string): BookLookup {
  const exact = bookByAnyName(lang, written);
  if (exact) return { book: exact };
  const prefix = nameKeys(lang, written).folded;
  const candidates =
    prefix.length < 2
      ? []
      : indexes
          .get(lang)!
          .fullNames.filter(([name]) => name.startsWith(prefix))
          .map(([, book]) => book);
  return candidates.length === 1 ? { book: candidates[0]! } : { candidates };
}

/**
 * Every name bookByAnyName knows for `book` in `lang`, as data/books.json writes them: its name,
 * abbreviation, aliases and USFM code (each also read in the other spellings bookByAnyName allows).
 *
 * @example bookNames('fr', bookByUsfm('1JN')!) // ['1 Jean', '1Jn', '1JN']
 */
export function bookNames(lang: Lang, book: CanonBook): string[] {
  const { name, abbr, aliases = [] } = book.names[lang];
  return [...new Set([name, abbr, ...aliases, book.usfm])];
}

interface NameIndex {
  exact: Map<string, CanonBook>;
  folded: Map<string, CanonBook>;
  fullNames: [string, CanonBook][];
}

interface NameKeys {
  /** Letters and digits only, lower case, accents kept, the ordinal as a digit. */
  exact: string;
  /** The same with accents removed. */
  folded: string;
}

/**
 * The two lookup keys of a written name. Words are split on anything but letters and digits; a
 * first word that is an ordinal of the language (a Roman numeral, "1er", "first", "eerste")
 * becomes its digit when more words follow, so "I Jean", "1er Jean" and "1 Jean" share "1jean".
 */
function nameKeys(lang: Lang, written: string): NameKeys {
  const exactWords = written.normalize('NFC').toLowerCase().split(NOT_NAME).filter(Boolean);
  const foldedWords = folded(written).split(NOT_NAME).filter(Boolean);
  const ordinal = foldedWords.length > 1 ? ordinalNumber(lang, foldedWords[0]!) : undefined;
  if (ordinal !== undefined && exactWords.length === foldedWords.length) {
    exactWords[0] = String(ordinal);
    foldedWords[0] = String(ordinal);
  }
  return { exact: exactWords.join(''), folded: foldedWords.join('') };
}

const NOT_NAME = /[^\p{L}\p{M}\p{N}]+/u;

/** The number a folded word writes before a book ("ii", "1er", "premiere", "3rd"), or undefined. */
export function ordinalNumber(lang: Lang, word: string): 1 | 2 | 3 | undefined {
  const conventions = CONVENTIONS[lang];
  const spelled = ROMAN_ORDINALS[word] ?? conventions.ordinalWords[word];
  if (spelled !== undefined) return spelled;
  const numbered = /^([1-3])(\p{L}+)$/u.exec(word);
  if (numbered && conventions.ordinalSuffixes.includes(numbered[2]!)) return Number(numbered[1]) as 1 | 2 | 3;
  return undefined;
}

// The first book to claim a key keeps it: a language's own abbreviations and names come before its
// aliases (added later), so an alias can never take an official abbreviation from another book.
function buildIndex(lang: Lang): NameIndex {
  const index: NameIndex = { exact: new Map(), folded: new Map(), fullNames: [] };
  const claim = (written: string, book: CanonBook) => {
    const keys = nameKeys(lang, written);
    if (!index.exact.has(keys.exact)) index.exact.set(keys.exact, book);
    if (!index.folded.has(keys.folded)) index.folded.set(keys.folded, book);
  };
  for (const book of CANON) {
    claim(book.names[lang].abbr, book);
    claim(book.names[lang].name, book);
    index.fullNames.push([nameKeys(lang, book.names[lang].name).folded, book]);
  }
  for (const book of CANON) for (const alias of book.names[lang].aliases ?? []) claim(alias, book);
  return index;
}

const indexes = new Map(LANGS.map((lang) => [lang, buildIndex(lang)]));
const usfmIndex = new Map(CANON.map((book) => [book.usfm.toLowerCase(), book]));
