// Turns a user's search text into a safe, bounded FTS5 expression: words ANDed, "quoted phrases", OR, -excluded and prefix* terms.
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from '../http/problem.ts';

/** What the search text may hold, as the 400s and the OpenAPI document say it. */
export const SEARCH_SYNTAX =
  'words (all must match), "quoted phrases", OR in capitals between two words or phrases (either may match), -word or -"phrase" to exclude, and word* for words that begin with word (at least 2 letters before *)';

/**
 * Most distinct terms (words or quoted phrases) a query may hold. Terms narrow each other,
 * so their number barely moves the cost; the bound keeps the work per query predictable.
 */
export const MAX_SEARCH_TERMS = 10;

/**
 * Most words inside one term (a quoted phrase, or a word the tokenizer splits like `l'Éternel`).
 * A phrase's cost grows with its words times the rows holding its commonest word: on the full
 * French Bible a phrase of 66 × `de` took 620 ms, 16 of them about 60 ms. 16 still fits a verse
 * quoted from memory.
 */
export const MAX_PHRASE_WORDS = 16;

/** Most words over all terms together. */
export const MAX_SEARCH_WORDS = 24;

/** One term of a search as the tokenizer will see it: its folded words, and whether the last is a prefix. */
export interface SearchTerm {
  words: string[];
  prefix: boolean;
}

/** The terms of a search: groups that must all match (the terms of a group are alternatives, OR), and excluded terms. */
export interface SearchTerms {
  groups: SearchTerm[][];
  excluded: SearchTerm[];
}

/** A search text made safe: the FTS5 expression, and its terms for the cost estimate (search-cost.ts). */
export interface SearchExpression {
  match: string;
  terms: SearchTerms;
}

/**
 * The FTS5 MATCH expression for `q`, or undefined when it holds nothing searchable.
 *
 * Every word and every quoted phrase becomes an FTS5 string token (`"..."`, inner quotes
 * doubled), so the rest of FTS5's syntax typed by a user (`NEAR`, `AND`, `NOT`, `:`, `^`,
 * parentheses) is searched as text, never parsed as syntax. Inside a string token the table's
 * tokenizer (unicode61, diacritics removed) splits and folds the text, so `l'Éternel` is the
 * phrase "l eternel" and case and accents never matter. Only these are operators:
 * - terms side by side must all match (FTS5's implicit AND);
 * - `OR`, in capitals, between two terms: either matches (`love OR charity world` is
 *   (love OR charity) AND world: OR binds closer than the implicit AND, as in web search);
 * - `-term`: verses with the term are left out; at least one term must not be excluded;
 * - `term*`: words beginning with term (FTS5 prefix query), at least 2 letters or digits.
 * Misused operators throw a 400 naming q that says what is supported (SEARCH_SYNTAX).
 * An unbalanced quote is taken as ordinary punctuation.
 *
 * A term repeated (in any case or accents, with the same operator) is searched once: `a a a`
 * asks what `a` asks, at a hundredth of the cost. More than MAX_SEARCH_TERMS distinct terms, a
 * term of more than MAX_PHRASE_WORDS words or more than MAX_SEARCH_WORDS words in all throw a
 * 400 naming q.
 *
 * @example ftsQuery('amour "le monde"')   // '"amour" "le monde"'
 * @example ftsQuery('love OR charity -hate gra*') // '(("love" OR "charity") AND "gra"*) NOT "hate"'
 */
export function ftsQuery(q: string): string | undefined {
  return searchExpression(q)?.match;
}

/** ftsQuery's expression with the terms it was made of; undefined when q holds nothing searchable. */
export function searchExpression(q: string): SearchExpression | undefined {
  const groups: string[][] = [];
  const excluded: string[] = [];
  const terms: SearchTerms = { groups: [], excluded: [] };
  const seen = new Set<string>();
  let words = 0;
  let pendingOr = false;
  // Control characters (NUL above all, which SQLite would cut the string at) are separators.
  const text = q.normalize('NFC').replace(/\p{Cc}/gu, ' ');
  for (const match of text.matchAll(/(-?)"([^"]*)"|[^\s"]+/g)) {
    const quoted = match[2] !== undefined;
    const raw = quoted ? match[2]! : match[0];
    if (!quoted && raw === 'OR') {
      if (groups.length === 0 || pendingOr) throw syntaxError('OR must stand between two words or phrases.');
      pendingOr = true;
      continue;
    }
    const exclude = quoted ? match[1] === '-' : raw.startsWith('-') && raw.length > 1;
    let term = quoted ? raw.trim() : exclude ? raw.slice(1) : raw;
    const prefix = !quoted && term.endsWith('*') && SEARCHABLE.test(term);
    if (prefix) {
      term = term.replace(/\*+$/, '');
      if ((term.match(/[\p{L}\p{N}]/gu) ?? []).length < 2) throw syntaxError(`"${raw}" is too short for a prefix search.`);
    }
    if (!SEARCHABLE.test(term)) continue;
    if (exclude && pendingOr) throw syntaxError('OR must stand between two words or phrases, not before an excluded one.');
    const termWords = tokenWords(term);
    const key = `${exclude ? '-' : ''}${termWords.join(' ')}${prefix ? '*' : ''}`;
    // A repeat adds nothing; after OR it leaves the group as it is ("a OR a" asks what "a" asks).
    if (seen.has(key)) {
      pendingOr = false;
      continue;
    }
    seen.add(key);
    if (termWords.length > MAX_PHRASE_WORDS) {
      throw tooComplex(`a phrase or word of q may hold at most ${MAX_PHRASE_WORDS} words; "${shorten(term)}" has ${termWords.length}.`);
    }
    words += termWords.length;
    if (seen.size > MAX_SEARCH_TERMS) throw tooComplex(`q may hold at most ${MAX_SEARCH_TERMS} different words or phrases.`);
    if (words > MAX_SEARCH_WORDS) throw tooComplex(`q may hold at most ${MAX_SEARCH_WORDS} words in all.`);
    const token = `"${term.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
    const searchTerm: SearchTerm = { words: termWords, prefix };
    if (exclude) {
      excluded.push(token);
      terms.excluded.push(searchTerm);
    } else if (pendingOr) {
      groups[groups.length - 1]!.push(token);
      terms.groups[terms.groups.length - 1]!.push(searchTerm);
      pendingOr = false;
    } else {
      groups.push([token]);
      terms.groups.push([searchTerm]);
    }
  }
  if (pendingOr) throw syntaxError('OR must stand between two words or phrases.');
  if (groups.length === 0) {
    if (excluded.length > 0) throw syntaxError('give at least one word to find; -word only leaves verses out.');
    return undefined;
  }
  // FTS5 takes the implicit AND between strings only, not beside parentheses: there it is written out.
  const hasOr = groups.some((group) => group.length > 1);
  const positive = groups.map((group) => (group.length === 1 ? group[0] : `(${group.join(' OR ')})`)).join(hasOr ? ' AND ' : ' ');
  const match = excluded.length === 0 ? positive : `(${positive})${excluded.map((token) => ` NOT ${token}`).join('')}`;
  return { match, terms };
}

/** A term the tokenizer keeps something of: at least one letter or digit. */
const SEARCHABLE = /[\p{L}\p{N}]/u;

/**
 * The words the tokenizer makes of a term, folded as it folds them (case and diacritics off),
 * close enough to unicode61 to count words, to spot a repeated term and to look words up in the
 * index's vocabulary for the cost estimate.
 */
export function tokenWords(term: string): string[] {
  const folded = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

function syntaxError(detail: string): ApiError {
  return new ApiError(problems.invalidParameter('q', `q cannot be searched: ${detail} q may hold ${SEARCH_SYNTAX}.`));
}

function tooComplex(detail: string): ApiError {
  return new ApiError(problems.invalidParameter('q', `q is too complex to search: ${detail}`));
}

function shorten(term: string): string {
  return term.length > 40 ? `${term.slice(0, 40)}…` : term;
}
