// The word hits of a search page as the answer writes them, made on the search worker: one string crosses to the event loop, not a clone of every row.
import type { SearchHit, WordMatch } from '../../build/contract/response-schemas.ts';
import { type BibleQueries, HIGHLIGHT_END, HIGHLIGHT_START, type SearchHitRow } from './queries.ts';

/** A page of word hits, serialised: what the event loop needs to write the answer around it. */
export interface SearchWordsPage {
  totalItems: number;
  /** How many items `itemsJson` holds. */
  count: number;
  /** The items as JSON, without the brackets of their list (`{…},{…}`; empty for none): spliced into the page's `items`. */
  itemsJson: string;
  /** Set, with no items, when the search was not run: its estimated cost was over the limit (search-cost.ts). */
  refused?: { cost: number; limit: number };
}

/**
 * queries.search, its rows turned into the answer's `words` items and serialised where they were read:
 * the event loop then receives one string instead of a structured clone of every row, and
 * does not serialise them again.
 *
 * @example searchWords(queries, 'en', '"love"', 10, 0).itemsJson
 */
export function searchWords(queries: BibleQueries, ...args: Parameters<BibleQueries['search']>): SearchWordsPage {
  const page = queries.search(...args);
  const json = JSON.stringify(page.hits.map(wordItem));
  return {
    totalItems: page.totalItems,
    count: page.hits.length,
    itemsJson: json.slice(1, -1),
    ...(page.refused ? { refused: page.refused } : {}),
  };
}

/** The item of a word hit, its keys in the order of SearchHit (the order the answer has always had). */
export function wordItem(hit: SearchHitRow): SearchHit {
  return {
    match: 'words',
    book: { usfm: hit.usfm, abbr: hit.abbr, name: hit.name, testament: hit.testament },
    chapter: hit.chapter,
    verse: hit.verse,
    text: hit.text,
    matches: wordMatches(hit.highlighted),
  };
}

/** The marked spans of FTS5's highlighted copy, as offsets into the unmarked text. */
function wordMatches(highlighted: string): WordMatch[] {
  const matches: WordMatch[] = [];
  let position = 0;
  let start = -1;
  for (const char of highlighted) {
    if (char === HIGHLIGHT_START) start = position;
    else if (char === HIGHLIGHT_END && start >= 0) {
      matches.push({ offset: start, length: position - start });
      start = -1;
    } else position += char.length;
  }
  return matches;
}
