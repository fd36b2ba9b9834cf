// What a search will cost FTS5, estimated from the index's own vocabulary before it runs, so a costly one is refused rather than run.
import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { SearchTerm, SearchTerms } from './search-query.ts';

/**
 * The most a search may cost, in index entries read (see searchCost). The commonest word of the
 * whole index (`de`, in four of the five versions: about 75,000 verses) costs less, so every
 * single word is searched; `"de de de"` (226,000), `de*` (about 600,000) or ten very common
 * words joined by OR (about 250,000) are refused. On the busy 2-core test machine 150,000 took
 * about 30 ms, and each of those refused took 40 to 140 ms.
 */
export const MAX_SEARCH_COST = 160_000;

/**
 * A prefix term costs this many times the entries of the words it expands to: FTS5 merges their
 * lists into one before it can answer (measured: `de*`, 152,000 entries over 3,300 words, took as
 * long as 600,000 entries of one word).
 */
export const PREFIX_COST_FACTOR = 4;

/** Words and prefixes whose entry counts are remembered per connection (a build never changes). */
const REMEMBERED = 5_000;

/** Estimates the cost of searches over one open Bible database; its statistics are read once per word or prefix. */
export type SearchCostEstimator = (terms: SearchTerms) => number;

/**
 * The estimator over `db`, reading FTS5's vocabulary (a temporary fts5vocab table, so a
 * read-only connection can make it). The model follows how FTS5 runs a query:
 * - a word reads its verse list (`doc` entries, over every language: one index holds them all);
 * - a phrase reads the lists of its words, and checks positions in each verse holding them all:
 *   its length times the entries of its rarest word (a word repeated counts each time, which is
 *   what makes `"de de de … de"` costly);
 * - terms joined by OR are read in full, one after the other: their sum;
 * - groups that must all match skip through each other's lists, so the cheapest group bounds the work;
 * - a prefix term is expanded and merged up front, wherever it stands (even excluded): always added,
 *   PREFIX_COST_FACTOR times its words' entries.
 */
export function createSearchCost(db: Database.Database): SearchCostEstimator {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.verses_vocab USING fts5vocab(main, 'verses_fts', 'row')`);
  const wordStatement = db.prepare<[string], number | null>('SELECT doc FROM temp.verses_vocab WHERE term = ?').pluck();
  // The highest code point after the prefix bounds every word that begins with it (terms compare as UTF-8 bytes).
  const prefixStatement = db
    .prepare<[string, string], number | null>('SELECT sum(doc) FROM temp.verses_vocab WHERE term >= ? AND term <= ?')
    .pluck();
  const words = new LRUCache<string, number>({ max: REMEMBERED });
  const prefixes = new LRUCache<string, number>({ max: REMEMBERED });
  const entries = (word: string) => remembered(words, word, () => wordStatement.get(word) ?? 0);
  const prefixEntries = (prefix: string) => remembered(prefixes, prefix, () => prefixStatement.get(prefix, `${prefix}\u{10FFFF}`) ?? 0);

  const readCost = (term: SearchTerm): number => {
    const plain = term.prefix ? term.words.slice(0, -1) : term.words;
    if (plain.length === 0) return 0;
    return plain.length * Math.min(...plain.map(entries));
  };
  const mergeCost = (term: SearchTerm): number => (term.prefix ? PREFIX_COST_FACTOR * prefixEntries(term.words.at(-1) ?? '') : 0);

  return ({ groups, excluded }) => {
    const groupCosts = groups.map((group) => group.reduce((sum, term) => sum + readCost(term), 0));
    const merges = [...groups.flat(), ...excluded].reduce((sum, term) => sum + mergeCost(term), 0);
    return (groupCosts.length > 0 ? Math.min(...groupCosts) : 0) + merges;
  };
}

function remembered(cache: LRUCache<string, number>, key: string, read: () => number): number {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const value = read();
  cache.set(key, value);
  return value;
}
