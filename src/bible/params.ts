// Validation of the Bible endpoints' parameters: each bad value becomes a 400 or 404 that names the parameter.
import { LANGS, type Lang, resolveBook, type Testament } from '../../build/contract/books.ts';
import { problems } from '../../build/contract/problems.ts';
import { type PageRequest, parsePageRequest } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import type { BibleQueries, BookRow } from './queries.ts';
import { type SearchTerms, searchExpression } from './search-query.ts';

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

export interface SearchParams extends PageRequest {
  q: string;
  match: string;
  /** The terms of match, for the cost estimate that refuses a search too costly to run. */
  terms: SearchTerms;
  lang: Lang;
  /** USFM code of the one book searched (`book=`), when given. */
  book?: string;
  /** The one testament searched (`testament=`), when given. */
  testament?: Testament;
}

/**
 * Query of endpoint 13: q (required, at most 200 characters, something searchable, operators
 * as ftsQuery reads them), lang, page, size, and the optional filters book (abbreviation of
 * the language or USFM code) and testament (OT or NT).
 */
export function parseSearch(query: Record<string, unknown>): SearchParams {
  const lang = parseLang(query.lang);
  const q = query.q;
  if (q !== undefined && typeof q !== 'string') throw new ApiError(problems.invalidParameter('q', 'q must be given once.'));
  if (q === undefined || q.trim() === '') {
    throw new ApiError(problems.invalidParameter('q', 'q (the text to search for) is required and must not be blank.'));
  }
  if ([...q].length > MAX_QUERY_LENGTH) {
    throw new ApiError(problems.invalidParameter('q', `q must be at most ${MAX_QUERY_LENGTH} characters; got ${[...q].length}.`));
  }
  const expression = searchExpression(q);
  if (expression === undefined)
    throw new ApiError(problems.invalidParameter('q', 'q has no word to search for: give at least one letter or digit.'));
  return { q, match: expression.match, terms: expression.terms, lang, ...parseSearchFilters(query, lang), ...parsePageRequest(query) };
}

function parseSearchFilters(query: Record<string, unknown>, lang: Lang): Pick<SearchParams, 'book' | 'testament'> {
  const filters: Pick<SearchParams, 'book' | 'testament'> = {};
  const { book, testament } = query;
  if (book !== undefined) {
    const canon = typeof book === 'string' && /^[A-Za-z0-9]{1,10}$/.test(book) ? resolveBook(lang, book) : undefined;
    if (!canon) {
      throw new ApiError(
        problems.invalidParameter(
          'book',
          `book must be one book's abbreviation in lang ${lang} (see /api/v1/bible/books?lang=${lang}) or its USFM code, given once; got ${describe(book)}.`,
        ),
      );
    }
    filters.book = canon.usfm;
  }
  if (testament !== undefined) {
    if (testament !== 'OT' && testament !== 'NT') {
      throw new ApiError(problems.invalidParameter('testament', `testament must be OT or NT; got ${describe(testament)}.`));
    }
    filters.testament = testament;
  }
  return filters;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return 'several values';
}
