// Turns a user's search text into a safe FTS5 expression: words ANDed, "quoted phrases", OR, -excluded and prefix* terms.
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from '../http/problem.ts';

/** What the search text may hold, as the 400s and the OpenAPI document say it. */
export const SEARCH_SYNTAX =
  'words (all must match), "quoted phrases", OR in capitals between two words or phrases (either may match), -word or -"phrase" to exclude, and word* for words that begin with word (at least 2 letters before *)';

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
 * @example ftsQuery('amour "le monde"')   // '"amour" "le monde"'
 * @example ftsQuery('love OR charity -hate gra*') // '(("love" OR "charity") AND "gra"*) NOT "hate"'
 */
export function ftsQuery(q: string): string | undefined {
  const groups: string[][] = [];
  const excluded: string[] = [];
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
    const token = `"${term.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
    if (exclude) {
      if (pendingOr) throw syntaxError('OR must stand between two words or phrases, not before an excluded one.');
      excluded.push(token);
    } else if (pendingOr) {
      groups[groups.length - 1]!.push(token);
      pendingOr = false;
    } else {
      groups.push([token]);
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
  return excluded.length === 0 ? positive : `(${positive})${excluded.map((token) => ` NOT ${token}`).join('')}`;
}

/** A term the tokenizer keeps something of: at least one letter or digit. */
const SEARCHABLE = /[\p{L}\p{N}]/u;

function syntaxError(detail: string): ApiError {
  return new ApiError(problems.invalidParameter('q', `q cannot be searched: ${detail} q may hold ${SEARCH_SYNTAX}.`));
}
