// The 66-book Protestant canon: order, USFM and OSIS codes, and names and abbreviations per language.
import booksManifest from '../../data/books.json' with { type: 'json' };

export type Lang = 'fr' | 'en' | 'es' | 'pt' | 'nl';
export type Testament = 'OT' | 'NT';

/** The five languages, in the order of the spec's table (the first is the default). */
export const LANGS: readonly Lang[] = ['fr', 'en', 'es', 'pt', 'nl'];

export interface BookName {
  /** Full name in the language ("Genèse"). */
  name: string;
  /** ASCII letters and digits only, unique within the language ("Gn"). */
  abbr: string;
  /** Other names and abbreviations readers type ("Jn", "Psalm"), accepted by the reference parser; never shown. */
  aliases?: readonly string[];
}

export interface CanonBook {
  /** USFM code, language-independent ("GEN"). */
  usfm: string;
  /** OSIS code as SWORD versifications name it ("Gen"). */
  osis: string;
  testament: Testament;
  /** Position in the canon, 1 to 66. */
  order: number;
  /** Name and abbreviation in each of the five languages. */
  names: Record<Lang, BookName>;
}

/** The 66 books in canonical order. */
export const CANON: readonly CanonBook[] = Object.freeze(
  (booksManifest.books as Omit<CanonBook, 'order'>[]).map((book, index) => Object.freeze({ ...book, order: index + 1 })),
);

const byUsfm = new Map(CANON.map((book) => [book.usfm, book]));
const byOsis = new Map(CANON.map((book) => [book.osis, book]));
// Per language: lower-cased abbreviation → book. USFM codes are looked up separately, as aliases.
const byAbbr = new Map(LANGS.map((lang) => [lang, new Map(CANON.map((book) => [book.names[lang].abbr.toLowerCase(), book]))]));

/** The canonical book with this USFM code, or undefined for apocrypha and front matter. */
export function bookByUsfm(usfm: string): CanonBook | undefined {
  return byUsfm.get(usfm.toUpperCase());
}

/** The canonical book with this OSIS code ("Gen", "1John"), or undefined. */
export function bookByOsis(osis: string): CanonBook | undefined {
  return byOsis.get(osis);
}

/**
 * The canonical book that `abbrOrUsfm` names in `lang`: that language's abbreviation or the
 * language-independent USFM code, both case-insensitive. Undefined when neither matches.
 *
 * @example resolveBook('fr', 'gn')?.usfm   // 'GEN'
 * @example resolveBook('en', 'JHN')?.usfm  // 'JHN' (USFM alias)
 */
export function resolveBook(lang: Lang, abbrOrUsfm: string): CanonBook | undefined {
  const key = abbrOrUsfm.trim();
  return byAbbr.get(lang)?.get(key.toLowerCase()) ?? bookByUsfm(key);
}
