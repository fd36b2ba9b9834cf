// Turns a user's search text into a safe, bounded FTS5 expression: words ANDed, "quoted phrases" as phrases.
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from '../http/problem.ts';

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

/**
 * The FTS5 MATCH expression for `q`, or undefined when it holds nothing searchable.
 *
 * Every word and every quoted phrase becomes an FTS5 string token (`"..."`, inner quotes
 * doubled), so FTS5 operators typed by a user (`NEAR`, `AND`, `*`, `-`, `:`, `^`, parentheses)
 * are searched as text, never parsed as syntax. Inside a string token the table's tokenizer
 * (unicode61, diacritics removed) splits and folds the text, so `l'Éternel` is the phrase
 * "l eternel" and case and accents never matter. Tokens are joined by spaces: FTS5's implicit AND.
 * An unbalanced quote is taken as ordinary punctuation.
 *
 * A term repeated (in any case or accents) is searched once: `a a a` asks what `a` asks, at a
 * hundredth of the cost. More than MAX_SEARCH_TERMS distinct terms, a term of more than
 * MAX_PHRASE_WORDS words or more than MAX_SEARCH_WORDS words in all throw a 400 naming q.
 *
 * @example ftsQuery('amour "le monde"')  // '"amour" "le monde"'
 */
export function ftsQuery(q: string): string | undefined {
  const terms: string[] = [];
  const seen = new Set<string>();
  let words = 0;
  const pattern = /"([^"]*)"|([^\s"]+)/g;
  // Control characters (NUL above all, which SQLite would cut the string at) are separators.
  const text = q.normalize('NFC').replace(/\p{Cc}/gu, ' ');
  for (const match of text.matchAll(pattern)) {
    const term = (match[1] ?? match[2] ?? '').trim();
    if (!SEARCHABLE.test(term)) continue;
    const termWords = tokenWords(term);
    const key = termWords.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    if (termWords.length > MAX_PHRASE_WORDS) {
      throw tooComplex(`a phrase or word of q may hold at most ${MAX_PHRASE_WORDS} words; "${shorten(term)}" has ${termWords.length}.`);
    }
    words += termWords.length;
    if (seen.size > MAX_SEARCH_TERMS) throw tooComplex(`q may hold at most ${MAX_SEARCH_TERMS} different words or phrases.`);
    if (words > MAX_SEARCH_WORDS) throw tooComplex(`q may hold at most ${MAX_SEARCH_WORDS} words in all.`);
    terms.push(`"${term.replace(/"/g, '""')}"`);
  }
  return terms.length > 0 ? terms.join(' ') : undefined;
}

/** A term the tokenizer keeps something of: at least one letter or digit. */
const SEARCHABLE = /[\p{L}\p{N}]/u;

/**
 * The words the tokenizer makes of a term, folded as it folds them (case and diacritics off),
 * close enough to unicode61 to count words and to spot a repeated term.
 */
function tokenWords(term: string): string[] {
  const folded = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

function tooComplex(detail: string): ApiError {
  return new ApiError(problems.invalidParameter('q', `q is too complex to search: ${detail}`));
}

function shorten(term: string): string {
  return term.length > 40 ? `${term.slice(0, 40)}…` : term;
}
