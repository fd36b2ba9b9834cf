// The query sets: the same for the same corpus and seed, distinct, of every kind, and each one a request the service answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGS, type Lang } from '../../../build/contract/books.ts';
import { adversarialSearches } from '../../../scripts/bench/adversarial-searches.ts';
import { readCorpora } from '../../../scripts/bench/corpus.ts';
import {
  type CorpusVerse,
  type LanguageCorpus,
  mcpPassageCalls,
  rangeQueries,
  searchPath,
  searchQueries,
  shuffled,
  WORD_BANDS,
  wordFrequencies,
} from '../../../scripts/bench/query-sets.ts';
import { ftsQuery } from '../../../src/bible/search-query.ts';
import { type BibleFixture, buildBibleFixture } from '../../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../../helpers/test-server.ts';

/**
 * A made-up version big enough for every band: 3,000 verses of 12 words drawn from 3,000 words
 * with Zipf's frequencies (the commonest thousands of times, the rarest once or never), 3 books.
 */
function zipfCorpus(lang: Lang): LanguageCorpus {
  const vocabulary = Array.from({ length: 3000 }, (_, rank) => `w${rank.toString(36)}é`);
  const weights = vocabulary.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let state = 7;
  const random = () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  const word = () => {
    let target = random() * total;
    for (let rank = 0; rank < weights.length; rank++) if ((target -= weights[rank]!) <= 0) return vocabulary[rank]!;
    return vocabulary[0]!;
  };
  const books = [
    { usfm: 'GEN', name: 'Genèse', abbr: 'Gn' },
    { usfm: 'PSA', name: 'Psaumes', abbr: 'Ps' },
    { usfm: 'JHN', name: 'Jean', abbr: 'Jn' },
  ];
  const verses: CorpusVerse[] = [];
  for (const book of books) {
    for (let chapter = 1; chapter <= 40; chapter++) {
      for (let verse = 1; verse <= 25; verse++) {
        verses.push({ usfm: book.usfm, chapter, verse, text: `${Array.from({ length: 12 }, word).join(' ')}.` });
      }
    }
  }
  return { lang, books, verses };
}

describe('searchQueries', () => {
  const corpus = zipfCorpus('fr');

  it('draws the same searches from the same corpus and seed, and others from another seed', () => {
    expect(searchQueries(corpus, 300, 1)).toEqual(searchQueries(corpus, 300, 1));
    expect(searchQueries(corpus, 300, 2)).not.toEqual(searchQueries(corpus, 300, 1));
  });

  it('makes 1,000 distinct searches of every kind', () => {
    const queries = searchQueries(corpus, 1000, 1);
    expect(queries).toHaveLength(1000);
    expect(new Set(queries.map((query) => query.q.toLowerCase())).size).toBe(1000);
    const kinds = new Set(queries.map((query) => query.kind));
    expect([...kinds].sort()).toEqual(['pair', 'phrase', 'reference', ...WORD_BANDS.map((band) => band.kind)].sort());
  });

  it('takes single words from their frequency band', () => {
    const counts = new Map(wordFrequencies(corpus.verses).map((entry) => [entry.word, entry.count]));
    for (const query of searchQueries(corpus, 1000, 1)) {
      const band = WORD_BANDS.find((candidate) => candidate.kind === query.kind);
      if (!band) continue;
      const count = counts.get(query.q)!;
      expect(count).toBeGreaterThanOrEqual(band.min);
      expect(count).toBeLessThanOrEqual(band.max);
    }
  });

  it('writes references in the language’s convention and phrases in quotes, every search within the service’s bounds', () => {
    const queries = searchQueries(corpus, 1000, 1);
    for (const query of queries.filter((candidate) => candidate.kind === 'reference')) {
      expect(query.q).toMatch(/^(Genèse|Gn|Psaumes|Ps|Jean|Jn) \d+\.\d+(-\d+)?$/);
    }
    for (const query of queries.filter((candidate) => candidate.kind === 'phrase')) expect(query.q).toMatch(/^"[^"]+"$/);
    for (const query of queries) expect(ftsQuery(query.q)).toBeDefined();
  });
});

describe('wordFrequencies', () => {
  it('counts a word in any case and accents as one, under its first spelling', () => {
    const verses = [{ usfm: 'GEN', chapter: 1, verse: 1, text: "L'Éternel dit: éternel, ETERNEL!" }];
    expect(wordFrequencies(verses)).toEqual([
      { word: 'Éternel', count: 3 },
      { word: 'L', count: 1 },
      { word: 'dit', count: 1 },
    ]);
  });
});

describe('shuffled', () => {
  it('mixes the same items in an order that depends only on the seed', () => {
    const items = Array.from({ length: 50 }, (_, index) => index);
    expect(shuffled(items, 3)).toEqual(shuffled(items, 3));
    expect(shuffled(items, 3)).not.toEqual(items);
    expect([...shuffled(items, 3)].sort((a, b) => a - b)).toEqual(items);
  });
});

describe('the query sets over a built Bible', () => {
  let bible: BibleFixture | undefined;
  let server: TestServer | undefined;
  let corpora: LanguageCorpus[] = [];

  beforeAll(async () => {
    bible = await buildBibleFixture();
    server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', LOG_LEVEL: 'silent', BIBLE_RATE_LIMIT_PER_MINUTE: '0' });
    corpora = readCorpora(bible.databasePath);
  });
  afterAll(async () => {
    await server?.close();
    bible?.remove();
  });

  it('reads every language of the database', () => {
    expect(corpora.map((corpus) => corpus.lang)).toEqual(LANGS);
    for (const corpus of corpora) {
      expect(corpus.verses.length).toBeGreaterThan(0);
      expect(corpus.books.map((book) => book.usfm)).toContain('JHN');
    }
  });

  it('makes ranges the service answers, spread over the languages, each distinct and inside its chapter', async () => {
    const ranges = rangeQueries(corpora, 40, 5);
    expect(ranges).toEqual(rangeQueries(corpora, 40, 5));
    expect(new Set(ranges.map((range) => range.path)).size).toBe(ranges.length);
    expect(new Set(ranges.map((range) => range.lang))).toEqual(new Set(LANGS));
    for (const range of ranges) {
      const response = await fetch(`${server!.url}${range.path}`);
      expect({ path: range.path, status: response.status }).toEqual({ path: range.path, status: 200 });
    }
  });

  it('makes MCP passage calls the service answers, each alone without initialize, with the range it names', async () => {
    const ranges = rangeQueries(corpora, 10, 5);
    const calls = mcpPassageCalls(ranges);
    expect(calls).toHaveLength(ranges.length);
    for (const call of calls) {
      const response = await fetch(`${server!.url}${call.path}`, {
        method: call.method,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: call.body,
      });
      const answer = (await response.json()) as { result?: { isError?: boolean; structuredContent?: { passages?: unknown[] } } };
      expect({ call: call.body, status: response.status, isError: answer.result?.isError ?? false }).toEqual({
        call: call.body,
        status: 200,
        isError: false,
      });
      expect(answer.result?.structuredContent?.passages).toHaveLength(1);
    }
  });

  it('makes searches and adversarial searches the service answers', async () => {
    const searches = [...corpora.flatMap((corpus) => searchQueries(corpus, 12, 5)), ...adversarialSearches(corpora)];
    for (const search of searches) {
      const response = await fetch(`${server!.url}${searchPath(search)}`);
      expect({ q: search.q, status: response.status }).toEqual({ q: search.q, status: 200 });
    }
  });
});
