// Bible repository: the only SQL over the query database, as statements prepared once per opened database.
import type Database from 'better-sqlite3';
import type { BibleTables, StoredVerse } from '../../build/contract/bible-database.ts';
import type { Lang, Testament } from '../../build/contract/books.ts';
import type { ChapterLink } from '../../build/contract/response-schemas.ts';
import { BOUND_LIMIT_OFFSET, FTS_ROWID_RANGE } from '../db/bound-parameters.ts';
import { createSearchCost, MAX_SEARCH_COST, type SearchCostEstimator } from './search-cost.ts';
import type { SearchTerms } from './search-query.ts';

export type VersionRow = Pick<BibleTables['versions'], 'lang' | 'code' | 'name' | 'attribution'>;

/** A chapter named for previous/next links: the row holds exactly the response's link. */
export type ChapterLinkRow = ChapterLink;

export type BookRow = Omit<BibleTables['books'], 'lang'>;

/** A verse of a passage: the stored verse and its chapter, since a passage may cross chapters. */
export type PassageVerseRow = StoredVerse & Pick<BibleTables['verses'], 'chapter'>;

/** A verse of another version that holds what a verse of the first holds (verse_pivots), with that verse's place. */
export type AlignedVerseRow = PassageVerseRow & { fromChapter: number; fromVerse: number };

/** A chapter and verse; passages are bounded by two. */
export interface VersePoint {
  chapter: number;
  verse: number;
}

export type SearchHitRow = Pick<BibleTables['verses'], 'usfm' | 'chapter' | 'verse' | 'text'> &
  Pick<BibleTables['books'], 'abbr' | 'name' | 'testament'> & {
    /** The text with each matched word between HIGHLIGHT_START and HIGHLIGHT_END (FTS5 highlight()). */
    highlighted: string;
  };

/** Marks around matched words in `highlighted`: control characters, which verse texts never hold. */
export const HIGHLIGHT_START = '\u0002';
export const HIGHLIGHT_END = '\u0003';

/** Where a search looks: the whole version, one book, one testament, or both (nothing when they disagree). */
export interface SearchScope {
  usfm?: string;
  testament?: Testament;
}

export interface SearchPage {
  totalItems: number;
  hits: SearchHitRow[];
  /** Set, with no hits, when the search was not run: its estimated cost was over the limit (search-cost.ts). */
  refused?: { cost: number; limit: number };
}

export interface BibleQueries {
  /** The version published in `lang`, or undefined when the build has none. */
  version(lang: Lang): VersionRow | undefined;
  /** One book of the version in `lang` by USFM code, or undefined when the version lacks it. */
  book(lang: Lang, usfm: string): BookRow | undefined;
  /** The last verse number a chapter holds; undefined for no verses. */
  lastVerse(lang: Lang, usfm: string, chapter: number): number | undefined;
  /** Verses of a chapter numbered from `from` to `to`. */
  verseRange(lang: Lang, usfm: string, chapter: number, from: number, to: number): StoredVerse[];
  /** The chapters before and after one (across books), null at either end of the version. */
  neighbours(lang: Lang, usfm: string, chapter: number): { previous: ChapterLinkRow | null; next: ChapterLinkRow | null };
  /**
   * Verses of a book from `from` to `to` (both included, across chapters, a merged verse included
   * when any verse it covers is asked for), in order, at most `limit` of them after `offset`.
   */
  passageVerses(lang: Lang, usfm: string, from: VersePoint, to: VersePoint, limit: number, offset?: number): PassageVerseRow[];
  /**
   * For the verses of `lang` between `from` and `to` (as passageVerses), the verses of `other` that
   * share a pivot verse with each (verse_pivots): ordered by the first verse, then the other's.
   */
  alignedVerses(lang: Lang, usfm: string, from: VersePoint, to: VersePoint, other: Lang): AlignedVerseRow[];
  /** How many verses passageVerses holds for these bounds. */
  passageVerseCount(lang: Lang, usfm: string, from: VersePoint, to: VersePoint): number;
  /**
   * Verses of `lang` matching an FTS5 expression (already escaped by the caller), in canonical
   * order (book, chapter, verse), with the exact total count; only inside `scope` when given.
   * With `terms` (the expression's terms), its cost is estimated first, and a search over
   * MAX_SEARCH_COST is not run: the page says `refused`.
   *
   * @example queries.search('en', '"love" "world"', 10, 0, { testament: 'NT' })
   */
  search(lang: Lang, match: string, limit: number, offset: number, scope?: SearchScope, terms?: SearchTerms): SearchPage;
}

interface CountRow {
  total: number;
}

interface IdRangeRow {
  first: number | null;
  last: number | null;
}

interface LastVerseRow {
  last: number | null;
}

export function createBibleQueries(db: Database.Database): BibleQueries {
  const versionStatement = db.prepare<[Lang], VersionRow>('SELECT lang, code, name, attribution FROM versions WHERE lang = ?');
  const bookStatement = db.prepare<[Lang, string], BookRow>(
    'SELECT usfm, ord, abbr, name, testament, chapters FROM books WHERE lang = ? AND usfm = ?',
  );
  const lastVerseStatement = db.prepare<[Lang, string, number], LastVerseRow>(
    'SELECT max(verse) AS last FROM verses WHERE lang = ? AND usfm = ? AND chapter = ?',
  );
  const rangeStatement = db.prepare<[Lang, string, number, number, number], StoredVerse>(
    `SELECT verse, text, heading, notes, layout FROM verses
     WHERE lang = ? AND usfm = ? AND chapter = ? AND verse BETWEEN ? AND ?
     ORDER BY verse`,
  );
  // Ids run in canonical order within a language, so the neighbours are the verses just before and after the chapter's ids.
  const chapterIdsStatement = db.prepare<[Lang, string, number], IdRangeRow>(
    'SELECT min(id) AS first, max(id) AS last FROM verses WHERE lang = ? AND usfm = ? AND chapter = ?',
  );
  const chapterAtStatement = db.prepare<[number, Lang], ChapterLinkRow>(
    'SELECT v.usfm, b.abbr, v.chapter FROM verses v JOIN books b ON b.lang = v.lang AND b.usfm = v.usfm WHERE v.id = ? AND v.lang = ?',
  );
  // Row values compare (chapter, verse) pairs in reading order; the chapter range lets the index narrow first.
  const passageStatement = db.prepare<[Lang, string, number, number, number, number, number, number, number, number], PassageVerseRow>(
    `SELECT chapter, verse, text, heading, notes, layout FROM verses
     WHERE lang = ? AND usfm = ? AND chapter BETWEEN ? AND ?
       AND (chapter, verse) BETWEEN (?, ?) AND (?, ?)
     ORDER BY chapter, verse ${BOUND_LIMIT_OFFSET}`,
  );
  // One indexed walk: the first version's verses, their pivots, the verses of the other holding each (verse_pivots_by_pivot).
  const alignedStatement = db.prepare<[Lang, string, number, number, number, number, number, number, Lang], AlignedVerseRow>(
    `SELECT DISTINCT a.chapter AS fromChapter, a.verse AS fromVerse, b.chapter AS chapter, b.verse AS verse,
       b.text AS text, b.heading AS heading, b.notes AS notes, b.layout AS layout, a.id AS aid, b.id AS bid
     FROM verses a
     JOIN verse_pivots pa ON pa.verse_id = a.id
     JOIN verse_pivots pb ON pb.pivot = pa.pivot
     JOIN verses b ON b.id = pb.verse_id
     WHERE a.lang = ? AND a.usfm = ? AND a.chapter BETWEEN ? AND ?
       AND (a.chapter, a.verse) BETWEEN (?, ?) AND (?, ?) AND b.lang = ?
     ORDER BY a.id, b.id`,
  );
  const passageCountStatement = db.prepare<[Lang, string, number, number, number, number, number, number], CountRow>(
    `SELECT count(*) AS total FROM verses
     WHERE lang = ? AND usfm = ? AND chapter BETWEEN ? AND ?
       AND (chapter, verse) BETWEEN (?, ?) AND (?, ?)`,
  );
  // The FTS table holds every language. The build numbers verses in one run per language, in
  // canonical order, so a rowid range confines a match to one language inside FTS5 itself
  // (a join on lang alone would first walk a common word's hits in all five languages).
  // A book and a testament are runs of that block too, so a filter is a narrower rowid range.
  const idRangeStatement = db.prepare<[Lang, string | null, string | null, string | null, string | null], IdRangeRow>(
    `SELECT min(v.id) AS first, max(v.id) AS last FROM verses v JOIN books b ON b.lang = v.lang AND b.usfm = v.usfm
     WHERE v.lang = ? AND (? IS NULL OR v.usfm = ?) AND (? IS NULL OR b.testament = ?)`,
  );
  const idRanges = new Map<string, IdRangeRow>();
  const idRange = (lang: Lang, scope: SearchScope = {}): IdRangeRow => {
    const key = `${lang}:${scope.usfm ?? ''}:${scope.testament ?? ''}`;
    let range = idRanges.get(key);
    if (!range) {
      const usfm = scope.usfm ?? null;
      const testament = scope.testament ?? null;
      range = idRangeStatement.get(lang, usfm, usfm, testament, testament) ?? { first: null, last: null };
      idRanges.set(key, range);
    }
    return range;
  };
  const countStatement = db.prepare<[string, number, number], CountRow>(
    `SELECT count(*) AS total FROM verses_fts WHERE verses_fts MATCH ? AND ${FTS_ROWID_RANGE}`,
  );
  // Canonical order rather than bm25 rank: a concordance reads in Bible order, and the order
  // is stable across pages and builds, so page N never repeats or skips a verse. Rowid order
  // is canonical order (the build's invariant), so FTS5 hands hits over already sorted and the
  // joins run only for the page asked for.
  const searchStatement = db.prepare<[string, number, number, number, number], SearchHitRow>(
    `SELECT v.usfm AS usfm, b.abbr AS abbr, b.name AS name, b.testament AS testament, v.chapter AS chapter, v.verse AS verse, v.text AS text,
       hit.highlighted AS highlighted
     FROM (SELECT rowid AS id, highlight(verses_fts, 0, '${HIGHLIGHT_START}', '${HIGHLIGHT_END}') AS highlighted
           FROM verses_fts WHERE verses_fts MATCH ? AND ${FTS_ROWID_RANGE} ORDER BY rowid ${BOUND_LIMIT_OFFSET}) hit
     JOIN verses v ON v.id = hit.id
     JOIN books b ON b.lang = v.lang AND b.usfm = v.usfm
     ORDER BY v.id`,
  );

  // A build never changes once opened (a new build gets a new instance), so what every range and
  // chapter request asks again (version, book, a chapter's last verse and neighbours) is read
  // once: a few hundred books and at most a few thousand chapters, a few hundred kB at most.
  const versions = new Map<Lang, VersionRow | undefined>();
  const books = new Map<string, BookRow | undefined>();
  const lastVerses = new Map<string, number | undefined>();
  const neighbours = new Map<string, { previous: ChapterLinkRow | null; next: ChapterLinkRow | null }>();
  let searchCost: SearchCostEstimator | undefined;
  return {
    version: (lang) => remembered(versions, lang, () => versionStatement.get(lang)),
    book: (lang, usfm) => remembered(books, `${lang} ${usfm}`, () => bookStatement.get(lang, usfm)),
    lastVerse: (lang, usfm, chapter) =>
      remembered(lastVerses, `${lang} ${usfm} ${chapter}`, () => lastVerseStatement.get(lang, usfm, chapter)?.last ?? undefined),
    verseRange: (lang, usfm, chapter, from, to) => rangeStatement.all(lang, usfm, chapter, from, to),
    neighbours: (lang, usfm, chapter) =>
      remembered(neighbours, `${lang} ${usfm} ${chapter}`, () => {
        const ids = chapterIdsStatement.get(lang, usfm, chapter);
        if (!ids || ids.first === null || ids.last === null) return { previous: null, next: null };
        return { previous: chapterAtStatement.get(ids.first - 1, lang) ?? null, next: chapterAtStatement.get(ids.last + 1, lang) ?? null };
      }),
    passageVerses: (lang, usfm, from, to, limit, offset = 0) =>
      passageStatement.all(lang, usfm, from.chapter, to.chapter, from.chapter, from.verse, to.chapter, to.verse, limit, offset),
    alignedVerses: (lang, usfm, from, to, other) =>
      alignedStatement.all(lang, usfm, from.chapter, to.chapter, from.chapter, from.verse, to.chapter, to.verse, other),
    passageVerseCount: (lang, usfm, from, to) =>
      passageCountStatement.get(lang, usfm, from.chapter, to.chapter, from.chapter, from.verse, to.chapter, to.verse)?.total ?? 0,
    search(lang, match, limit, offset, scope, terms) {
      const { first, last } = idRange(lang, scope);
      if (first === null || last === null) return { totalItems: 0, hits: [] };
      if (terms) {
        // Made at the first search: a connection that never searches never reads the vocabulary.
        searchCost ??= createSearchCost(db);
        const cost = searchCost(terms);
        if (cost > MAX_SEARCH_COST) return { totalItems: 0, hits: [], refused: { cost, limit: MAX_SEARCH_COST } };
      }
      const totalItems = countStatement.get(match, first, last)?.total ?? 0;
      const hits = totalItems > offset ? searchStatement.all(match, first, last, limit, offset) : [];
      return { totalItems, hits };
    },
  };
}

/**
 * The value for `key`, read once: later calls answer from `cache`, an absent row included. Only
 * for keys of a closed, small set (languages, books, chapters of one build), so the map stays bounded.
 */
function remembered<Key, Value>(cache: Map<Key, Value>, key: Key, read: () => Value): Value {
  if (cache.has(key)) return cache.get(key) as Value;
  const value = read();
  cache.set(key, value);
  return value;
}
