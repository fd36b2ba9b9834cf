// How each language writes Bible references: what its separators mean when read, its ordinals and little words, and how it writes them back.
import type { Lang } from '../../../build/contract/books.ts';

/** One language's way of writing references; docs/references.md explains each choice and its sources. */
export interface ReferenceConventions {
  /**
   * What "," right after a chapter number means. `verse`: it separates chapter and verse
   * (`Jn 3,16`, Catholic and European usage). `chapter-list`: it lists chapters (`Ps 23, 24`),
   * and `3,16` with no space on either side is refused as ambiguous.
   */
  commaAfterChapter: 'verse' | 'chapter-list';
  /** Words that list like "," does ("et", "and"): folded, lower case. */
  conjunctions: readonly string[];
  /** Markers for "and the next verse (or chapter)": `Jn 3,16s` is 3:16-17. Folded words, spaces removed. */
  nextOne: readonly string[];
  /** Markers for "and the following ones", which do not say where the passage ends: refused. */
  following: readonly string[];
  /** Spelled-out ordinals before a book's name ("premier", "first"), folded, with their number. */
  ordinalWords: Readonly<Record<string, 1 | 2 | 3>>;
  /** Letters written right after a book's number ("1er", "1st", "1ª", "2e"), folded. */
  ordinalSuffixes: readonly string[];
}

/** The five languages' conventions. */
export const CONVENTIONS: Readonly<Record<Lang, ReferenceConventions>> = {
  fr: {
    commaAfterChapter: 'verse',
    conjunctions: ['et'],
    nextOne: ['s', 'suiv', 'sv'],
    following: ['ss', 'suivants', 'svv'],
    ordinalWords: { premier: 1, premiere: 1, deuxieme: 2, second: 2, seconde: 2, troisieme: 3 },
    ordinalSuffixes: ['er', 're', 'ere', 'e', 'eme', 'nd', 'nde'],
  },
  en: {
    commaAfterChapter: 'chapter-list',
    conjunctions: ['and'],
    nextOne: ['f'],
    following: ['ff'],
    ordinalWords: { first: 1, second: 2, third: 3 },
    ordinalSuffixes: ['st', 'nd', 'rd', 'd'],
  },
  es: {
    commaAfterChapter: 'verse',
    conjunctions: ['y'],
    nextOne: ['s', 'sig'],
    following: ['ss', 'sigs'],
    ordinalWords: { primera: 1, primero: 1, primer: 1, segunda: 2, segundo: 2, tercera: 3, tercero: 3, tercer: 3 },
    ordinalSuffixes: ['a', 'o', 'ra', 'ro', 'er', 'da', 'do'],
  },
  pt: {
    commaAfterChapter: 'verse',
    conjunctions: ['e'],
    nextOne: ['s'],
    following: ['ss'],
    ordinalWords: { primeira: 1, primeiro: 1, segunda: 2, segundo: 2, terceira: 3, terceiro: 3 },
    ordinalSuffixes: ['a', 'o'],
  },
  nl: {
    commaAfterChapter: 'verse',
    conjunctions: ['en'],
    nextOne: ['v', 'vlg'],
    following: ['ev', 'evv'],
    ordinalWords: { eerste: 1, tweede: 2, derde: 3 },
    ordinalSuffixes: ['e', 'ste', 'de'],
  },
};

/** Roman numerals written before a book ("II Cor"), in every language. */
export const ROMAN_ORDINALS: Readonly<Record<string, 1 | 2 | 3>> = { i: 1, ii: 2, iii: 3 };

/**
 * `written` lower-cased with its accents and compatibility forms removed ("Première" → "premiere",
 * "1ª" → "1a"): the form the tables above use.
 */
export function folded(written: string): string {
  return written.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
