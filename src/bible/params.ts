// The Bible endpoints' parameters: how each is read (a bad value becomes a 400 or 404 naming it) and documented.
import { Type } from '@sinclair/typebox';
import { LANGS, type Lang, resolveBook, type Testament } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import { LangSchema, TestamentSchema } from '../../build/contract/response-schemas.ts';
import type { PathParameter, QueryParameter, Redirect } from '../http/endpoint.ts';
import { CANONICAL_NUMBERS, type PageRequest } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import type { BibleQueries, BookRow } from './queries.ts';
import { bookByAnyName } from './reference/book-names.ts';
import { MAX_SEARCH_COST } from './search-cost.ts';
import { MAX_PHRASE_WORDS, MAX_SEARCH_TERMS, MAX_SEARCH_WORDS, SEARCH_SYNTAX, type SearchTerms, searchExpression } from './search-query.ts';

/** Longest accepted search text, in characters (decisions.md). */
export const MAX_QUERY_LENGTH = 200;

/**
 * A positive integer written canonically: digits only, no sign, no leading zero. `01` is refused
 * rather than read as 1 so that each passage has exactly one URL, which is what the long,
 * public caching (and a CDN in front of the static tree) depends on.
 */
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** `lang`: optional, default fr (first of the spec's table), else one of the five in any letter case (decisions.md). */
export function parseLang(value: unknown): Lang {
  if (value === undefined) return 'fr';
  const found = typeof value === 'string' ? langNamed(value) : undefined;
  if (!found) {
    throw new ApiError(problems.unknownLanguage(LANGS, describe(value)));
  }
  return found;
}

/** The language `value` names, whatever its letter case (`EN`, `En` and `en` are English), else undefined. */
export function langNamed(value: string): Lang | undefined {
  const lower = value.toLowerCase();
  return LANGS.find((lang) => lang === lower);
}

/**
 * `{abbr}`: the language's abbreviation or the USFM code, case-insensitive, of a book the
 * version holds; otherwise 404 naming abbr.
 */
export function parseBook(queries: BibleQueries, lang: Lang, value: string): BookRow {
  const canon = /^[A-Za-z0-9]{1,10}$/.test(value) ? resolveBook(lang, value) : undefined;
  const book = canon ? queries.book(lang, canon.usfm) : undefined;
  if (!book) {
    throw new ApiError(problems.unknownBibleBook(lang, value));
  }
  return book;
}

/** A path integer >= 1 (`{chapter}`, `{from}`, `{to}`), written without sign or leading zero; else 400. */
export function parsePositiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!POSITIVE_INTEGER.test(value) || !Number.isSafeInteger(number)) {
    throw new ApiError(
      problems.invalidParameter(name, `${name} must be a whole number from 1, written without sign or leading zeros; got "${value}".`),
    );
  }
  return number;
}

/** `{chapter}` of `book`: an integer >= 1 (else 400) inside the book (else 404). */
export function parseChapter(book: BookRow, value: string): number {
  const chapter = parsePositiveInteger('chapter', value);
  if (chapter > book.chapters) {
    throw new ApiError(problems.chapterOutsideBook(book.name, chapter, book.chapters));
  }
  return chapter;
}

/** Longest accepted `ref`, in characters: a long list of passages, far more than a reader types. */
export const MAX_REF_LENGTH = 500;

/** `ref` of /passage: required, given once, not blank, at most MAX_REF_LENGTH characters; parsed by readPassages. */
export function parseRefParameter(value: unknown): string {
  if (value !== undefined && typeof value !== 'string') throw new ApiError(problems.invalidParameter('ref', 'ref must be given once.'));
  if (value === undefined || value.trim() === '') {
    throw new ApiError(problems.invalidParameter('ref', 'ref (one or more passages, such as "John 3:16-18; Ps 23") is required.'));
  }
  if ([...value].length > MAX_REF_LENGTH) {
    throw new ApiError(problems.invalidParameter('ref', `ref must be at most ${MAX_REF_LENGTH} characters; got ${[...value].length}.`));
  }
  return value;
}

export interface SearchParams extends PageRequest, SearchText {
  lang: Lang;
  /** USFM code of the one book searched (`book=`), when given. */
  book?: string;
  /** The one testament searched (`testament=`), when given. */
  testament?: Testament;
}

/** `q` as the search runs it: the text, its FTS5 expression, and its terms (for the cost estimate that refuses a search too costly to run). */
export interface SearchText {
  q: string;
  match: string;
  terms: SearchTerms;
}

/** `lang` of every Bible endpoint but the versions list: optional, default fr (first of the spec's table), else one of the five in any letter case. */
export const langParameter: QueryParameter<'lang', Lang> = {
  name: 'lang',
  schema: LangSchema,
  default: LANGS[0],
  description: `The language, and with it the version (GET /api/v1/bible/versions lists them); \`${LANGS[0]}\` when left out. Read in any letter case (\`EN\` is \`en\`); the values listed are the canonical ones, which answers and links use.`,
  read: (raw) => parseLang(raw),
};

/**
 * `q` of the search: required, given once, at most 200 characters, something searchable
 * (operators as searchExpression reads them).
 */
export const searchTextParameter: QueryParameter<'q', SearchText> = {
  name: 'q',
  required: true,
  schema: Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH }),
  example: '"only begotten son"',
  description: `What to find, case- and accent-insensitive: ${SEARCH_SYNTAX}. Anything else (NEAR, AND, parentheses…) is searched as text. A repeated word or phrase counts once; at most ${MAX_SEARCH_TERMS} distinct terms, ${MAX_PHRASE_WORDS} words in one phrase and ${MAX_SEARCH_WORDS} words in all, so that no query can cost more than a bounded amount (beyond: 400 naming q). Before it runs, a search's cost is estimated from the index (the verses its words are in; a phrase reads its rarest word once per word, OR adds its alternatives, a prefix* all the words it expands to): over ${MAX_SEARCH_COST.toLocaleString('en-US')} it is refused with a 400 naming q (very common words repeated in a phrase, many very common words joined by OR, a two-letter prefix of very common words). Every single word is under that limit. A q that reads as Bible references in the language (\`Jn 3:16-18\`, \`1 Cor 13\`, \`Gen 1:1-3; Ps 23\`, as /passage reads \`ref\`) answers with those verses first, marked \`match: reference\`, then the verses matching its words. 1 to ${MAX_QUERY_LENGTH} characters with at least one letter or digit.`,
  read(q) {
    if (q !== undefined && typeof q !== 'string') throw new ApiError(problems.invalidParameter('q', 'q must be given once.'));
    if (q === undefined || q.trim() === '') {
      throw new ApiError(problems.invalidParameter('q', 'q (the text to search for) is required and must not be blank.'));
    }
    if ([...q].length > MAX_QUERY_LENGTH) {
      throw new ApiError(problems.invalidParameter('q', `q must be at most ${MAX_QUERY_LENGTH} characters; got ${[...q].length}.`));
    }
    const expression = searchExpression(q);
    if (expression === undefined) {
      throw new ApiError(problems.invalidParameter('q', 'q has no word to search for: give at least one letter or digit.'));
    }
    return { q, match: expression.match, terms: expression.terms };
  },
};

/** `book` filter of the search: one book's abbreviation in the language read before it, or its USFM code; its USFM code. */
export const bookFilterParameter: QueryParameter<'book', string | undefined> = {
  name: 'book',
  schema: Type.String({ pattern: '^[A-Za-z0-9]+$' }),
  example: 'JHN',
  description:
    'Only this book: its abbreviation in `lang` (GET /api/v1/bible/books) or its USFM code, case-insensitive. Unknown: 400 naming book.',
  read(book, { lang }) {
    if (book === undefined) return undefined;
    const canon = typeof book === 'string' && /^[A-Za-z0-9]{1,10}$/.test(book) ? resolveBook(lang as Lang, book) : undefined;
    if (!canon) {
      throw new ApiError(
        problems.invalidParameter(
          'book',
          `book must be one book's abbreviation in lang ${lang} (see /api/v1/bible/books?lang=${lang}) or its USFM code, given once; got ${describe(book)}.`,
        ),
      );
    }
    return canon.usfm;
  },
};

/** `testament` filter of the search: OT or NT. */
export const testamentParameter: QueryParameter<'testament', Testament | undefined> = {
  name: 'testament',
  schema: TestamentSchema,
  description: 'Only the Old (OT) or the New (NT) Testament. Anything else: 400 naming testament.',
  read(testament) {
    if (testament === undefined) return undefined;
    if (testament !== 'OT' && testament !== 'NT') {
      throw new ApiError(problems.invalidParameter('testament', `testament must be OT or NT; got ${describe(testament)}.`));
    }
    return testament;
  },
};

/** `ref` of /passage: required, given once, not blank, at most MAX_REF_LENGTH characters; parsed by readPassages. */
export const refParameter: QueryParameter<'ref', string> = {
  name: 'ref',
  required: true,
  schema: Type.String({ minLength: 1, maxLength: MAX_REF_LENGTH }),
  example: 'Jn 3:16-17',
  description: ({ biblePassageMaxVerses }) =>
    `One or more passages as readers of \`lang\` write them (docs/references.md), in its book names and abbreviations (with or without a final dot, numbered books as \`1 Jn\`, \`1Jn\`, \`I Jean\`, \`1er Jean\`, \`First John\`) or USFM codes, case- and accent-insensitive. Between chapter and verse \`:\` or \`.\` in every language (\`John 3:16\`, \`Jean 3.16\`), and \`,\` in French, Spanish, Portuguese and Dutch (\`Jn 3,16\`, one verse). After \`:\` or \`.\`, \`,\` lists verses (\`John 3:16,18\`, two verses); after \`,\`, \`.\` lists them (\`Mc 3,2-7.12\`). Ranges with \`-\` or \`–\` (\`Gn 1,1-3\`, \`John 3:16-4:2\`, \`Ps 23-24\` chapters), passages with \`;\` (\`Gen 1:1-3; Ps 23\`; after \`;\` a lone number is a chapter), whole chapters (\`1 Cor 13\`), in a book of one chapter a lone number is a verse (\`Jude 3\`); part letters are read as the whole verse (\`14a\`), \`s\`/\`f\` as the next verse. In English \`,\` after a chapter lists chapters (\`Ps 23, 24\`). A reference its language could read two ways (\`John 3,16\` in English, \`Jn 3,16, 4,2\`, \`ss\`/\`ff\` with no end) is refused rather than guessed. At most ${MAX_REF_LENGTH} characters and ${biblePassageMaxVerses} verses in all (\`BIBLE_PASSAGE_MAX_VERSES\`). What cannot be read or told apart, a chapter or verse the version lacks, or too many verses: 400 naming ref, the detail saying what and where (1-based character).`,
  read: (raw) => parseRefParameter(raw),
};

/** `{abbr}` of the chapter and range paths. */
export const abbrParameter: PathParameter = {
  name: 'abbr',
  schema: Type.String({ minLength: 1 }),
  example: 'Gn',
  description:
    "The book: its abbreviation in the requested language, as GET /api/v1/bible/books lists it for that `lang`, case-insensitive, or its USFM code (GEN … REV, in every language), answered as they are. Any other name or abbreviation of the book that the reference reader knows for that language (`Jn` or `1 John` in English, `Juan` in Spanish, `Genèse`, `1 Jean`: docs/references.md), percent-encoded where it has spaces or accents, answers 301 Moved Permanently to the URL with the language's abbreviation and `?lang=` (`/api/v1/bible/Jn/3/16?lang=en` → `/api/v1/bible/John/3/16?lang=en`), cached as long as the answer itself: one URL per resource keeps caches and CDNs holding one copy, and a static host can send the same redirect. An unknown name: 404 naming abbr.",
};

/** `{chapter}`, `{from}`, `{to}`, `{verse}`: integers from 1. */
export function positionParameter(name: 'chapter' | 'from' | 'to' | 'verse', description: string, example: number): PathParameter {
  return {
    name,
    schema: Type.Integer({ minimum: 1 }),
    example,
    description: `${description} Written in ${CANONICAL_NUMBERS} (\`01\`, \`1.5\` and \`0\` answer 400).`,
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return 'several values';
}

/**
 * The canonical URL of a Bible path whose `{abbr}` is another name of a book of `lang` than its
 * abbreviation or USFM code (`Jn` in English, `Juan` in Spanish, `1 Jean`, `Genèse`: every name
 * the reference reader knows, docs/references.md), for a 301; undefined when `{abbr}` is the
 * abbreviation or USFM code (answered as it is) or no name of a book the version holds (its 404
 * comes from parseBook). `template` is the route's path; the query is written as `?lang=`.
 *
 * @example bookAliasRedirect(queries, 'en', '/api/v1/bible/{abbr}/{chapter}/{verse}', { abbr: 'Jn', chapter: '3', verse: '16' })?.location // '/api/v1/bible/John/3/16?lang=en'
 */
export function bookAliasRedirect(
  queries: BibleQueries,
  lang: Lang,
  template: string,
  params: Readonly<Record<string, string>>,
): Redirect | undefined {
  const abbr = params.abbr ?? '';
  if (/^[A-Za-z0-9]{1,10}$/.test(abbr) && resolveBook(lang, abbr)) return undefined;
  // Names are short: a long {abbr} is no book's (and is not worth folding).
  const book = abbr.length <= 40 ? bookByAnyName(lang, abbr) : undefined;
  if (!book || !queries.book(lang, book.usfm)) return undefined;
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'abbr' ? book.names[lang].abbr : encodeURIComponent(params[name] ?? ''),
  );
  return { kind: 'redirect', location: `${path}?lang=${lang}` };
}
