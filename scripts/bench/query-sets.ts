// The benchmark's query sets, drawn from the corpus with a seeded generator: searches of every kind per language, and ranges.
import type { Lang } from '../../build/contract/books.ts';
import type { RawRequest } from './raw-client.ts';

/** One book of a language's version, as its books table holds it. */
export interface CorpusBook {
  usfm: string;
  name: string;
  /** The language's ASCII abbreviation, as the range paths take it. */
  abbr: string;
}

export interface CorpusVerse {
  usfm: string;
  chapter: number;
  verse: number;
  text: string;
}

/** One language's version: its books and its verses in canonical order. */
export interface LanguageCorpus {
  lang: Lang;
  books: readonly CorpusBook[];
  verses: readonly CorpusVerse[];
}

/** What a search asks: one word of a frequency band, two words of a verse, a quoted phrase, or a reference. */
export type SearchKind = 'word-rare' | 'word-uncommon' | 'word-common' | 'word-very-common' | 'pair' | 'phrase' | 'reference';

export interface SearchQuery {
  lang: Lang;
  kind: SearchKind;
  q: string;
}

export interface RangeQuery {
  lang: Lang;
  path: string;
}

/**
 * Frequency bands of single words, by the number of times a word (folded: case and accents off)
 * occurs in the version: from words found once or twice to the language's commonest, whose
 * searches count tens of thousands of verses.
 */
export const WORD_BANDS: readonly { kind: SearchKind; min: number; max: number }[] = [
  { kind: 'word-rare', min: 1, max: 2 },
  { kind: 'word-uncommon', min: 3, max: 30 },
  { kind: 'word-common', min: 31, max: 500 },
  { kind: 'word-very-common', min: 501, max: Number.POSITIVE_INFINITY },
];

/** Shares of a language's searches per kind; the rest of the set is filled with pairs and phrases. */
const SHARES: Readonly<Record<SearchKind, number>> = {
  'word-rare': 0.1,
  'word-uncommon': 0.1,
  'word-common': 0.1,
  'word-very-common': 0.1,
  pair: 0.25,
  phrase: 0.2,
  reference: 0.15,
};

/** How each language writes chapter and verse ("Jean 3.16", "John 3:16"): its readers' usual separator. */
export const VERSE_SEPARATOR: Readonly<Record<Lang, string>> = { fr: '.', en: ':', es: ':', pt: ':', nl: ':' };

/** A bare OR is the search's operator, not a word: a query holding one would ask something else. */
const OPERATOR_WORD = /(^|\s)OR(\s|$)/;

/** Longest search the service accepts (src/bible/params.ts MAX_QUERY_LENGTH). */
const MAX_Q = 200;

/**
 * `count` distinct searches in `corpus`'s language, the same for the same corpus and seed: single
 * words from each frequency band, pairs of words of one verse, quoted phrases of 2 to 5 words from
 * a verse, and references ("Jean 3.16", "Jn 3:16-18") in the language's conventions.
 *
 * @example searchQueries(frenchCorpus, 1000, 1).slice(0, 2) // [{ lang: 'fr', kind: 'word-rare', q: '…' }, …]
 */
export function searchQueries(corpus: LanguageCorpus, count: number, seed: number): SearchQuery[] {
  const random = seededRandom(seed ^ hashString(corpus.lang));
  const seen = new Set<string>();
  const queries: SearchQuery[] = [];
  const add = (kind: SearchKind, q: string | undefined): boolean => {
    if (q === undefined || q.length > MAX_Q || OPERATOR_WORD.test(q) || seen.has(q.toLowerCase())) return false;
    seen.add(q.toLowerCase());
    queries.push({ lang: corpus.lang, kind, q });
    return true;
  };
  const frequencies = wordFrequencies(corpus.verses);
  for (const band of WORD_BANDS) {
    const words = frequencies.filter((word) => word.count >= band.min && word.count <= band.max);
    shuffle(words, random);
    const wanted = Math.round(count * SHARES[band.kind]);
    for (let taken = 0, index = 0; taken < wanted && index < words.length; index++) if (add(band.kind, words[index]!.word)) taken++;
  }
  const makers: [SearchKind, () => string | undefined][] = [
    ['pair', () => wordPair(pick(corpus.verses, random), random)],
    ['phrase', () => phrase(pick(corpus.verses, random), random)],
    ['reference', () => reference(corpus, random)],
  ];
  for (const [kind, make] of makers) fill(Math.round(count * SHARES[kind]), () => add(kind, make()));
  // Bands that ran short (a small corpus has few very common words) leave room for more pairs and phrases.
  fill(count - queries.length, () => (random() < 0.5 ? add('pair', makers[0]![1]()) : add('phrase', makers[1]![1]())));
  return queries.slice(0, count);
}

/**
 * `count` distinct ranges spread evenly over the corpora's languages, each from a verse of the
 * version to at most 8 verses further, never past its chapter's end: paths of endpoint 12.
 *
 * @example rangeQueries([english], 2, 1) // [{ lang: 'en', path: '/api/v1/bible/Ps/23/1/4?lang=en' }, …]
 */
export function rangeQueries(corpora: readonly LanguageCorpus[], count: number, seed: number): RangeQuery[] {
  const random = seededRandom(seed);
  const seen = new Set<string>();
  const ranges: RangeQuery[] = [];
  corpora.forEach((corpus, position) => {
    const wanted = Math.floor(count / corpora.length) + (position < count % corpora.length ? 1 : 0);
    const lastVerse = lastVerses(corpus.verses);
    const abbr = new Map(corpus.books.map((book) => [book.usfm, book.abbr]));
    fill(wanted, () => {
      const start = pick(corpus.verses, random);
      const last = lastVerse.get(`${start.usfm} ${start.chapter}`)!;
      const to = Math.min(last, start.verse + Math.floor(random() * 9));
      const path = `/api/v1/bible/${abbr.get(start.usfm)}/${start.chapter}/${start.verse}/${to}?lang=${corpus.lang}`;
      if (seen.has(path)) return false;
      seen.add(path);
      ranges.push({ lang: corpus.lang, path });
      return true;
    });
  });
  return ranges;
}

/** The search's path of endpoint 13. */
export function searchPath(query: Pick<SearchQuery, 'lang' | 'q'>): string {
  return `/api/v1/bible/search?q=${encodeURIComponent(query.q)}&lang=${query.lang}`;
}

/**
 * The same items in an order of the seed's choosing (a new array): a run sends its set mixed, so
 * one language or one kind never comes in a block.
 */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  shuffle(copy, seededRandom(seed));
  return copy;
}

/** A word as written (its first spelling in the version) and how often its folded form occurs. */
export interface WordFrequency {
  word: string;
  count: number;
}

/** The words of `verses` with their counts, commonest first (ties in order of first appearance). */
export function wordFrequencies(verses: readonly CorpusVerse[]): WordFrequency[] {
  const byFolded = new Map<string, WordFrequency>();
  // Folding (NFD, marks off) costs more than counting: each spelling is folded once.
  const folding = new Map<string, string>();
  for (const verse of verses) {
    for (const match of verse.text.matchAll(WORD)) {
      let folded = folding.get(match[0]);
      if (folded === undefined) {
        folded = fold(match[0]);
        folding.set(match[0], folded);
      }
      const entry = byFolded.get(folded);
      if (entry) entry.count++;
      else byFolded.set(folded, { word: match[0], count: 1 });
    }
  }
  return [...byFolded.values()].sort((a, b) => b.count - a.count);
}

/** A word as the search's tokenizer sees one: letters and digits (an apostrophe or a hyphen splits). */
const WORD = /[\p{L}\p{N}]+/gu;

/** Tries `make` until it has added `wanted` items, giving up after many misses (a small corpus repeats itself). */
function fill(wanted: number, make: () => boolean): void {
  let misses = 0;
  for (let added = 0; added < wanted && misses < wanted * 20 + 100; ) {
    if (make()) added++;
    else misses++;
  }
}

function wordPair(verse: CorpusVerse, random: () => number): string | undefined {
  const words = [...new Map([...verse.text.matchAll(WORD)].map((match) => [fold(match[0]), match[0]])).values()].filter(
    (word) => word.length >= 3,
  );
  if (words.length < 2) return undefined;
  const first = Math.floor(random() * words.length);
  const second = (first + 1 + Math.floor(random() * (words.length - 1))) % words.length;
  return `${words[first]} ${words[second]}`;
}

/** 2 to 5 consecutive words of the verse as written between their first and last letter, quoted. */
function phrase(verse: CorpusVerse, random: () => number): string | undefined {
  const words = [...verse.text.matchAll(WORD)];
  const length = 2 + Math.floor(random() * 4);
  if (words.length < length) return undefined;
  const first = Math.floor(random() * (words.length - length + 1));
  const start = words[first]!.index!;
  const lastWord = words[first + length - 1]!;
  const text = verse.text.slice(start, lastWord.index! + lastWord[0].length);
  return text.includes('"') ? undefined : `"${text}"`;
}

/** A verse or a short range of the version, by the book's full name or its abbreviation. */
function reference(corpus: LanguageCorpus, random: () => number): string | undefined {
  const verse = pick(corpus.verses, random);
  const book = corpus.books.find((candidate) => candidate.usfm === verse.usfm);
  if (!book) return undefined;
  const name = random() < 0.5 ? book.name : book.abbr;
  const location = `${verse.chapter}${VERSE_SEPARATOR[corpus.lang]}${verse.verse}`;
  return random() < 0.7 ? `${name} ${location}` : `${name} ${location}-${verse.verse + 1 + Math.floor(random() * 5)}`;
}

function lastVerses(verses: readonly CorpusVerse[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const verse of verses) {
    const key = `${verse.usfm} ${verse.chapter}`;
    last.set(key, Math.max(last.get(key) ?? 0, verse.verse));
  }
  return last;
}

function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
}

/** mulberry32: a small, fast generator whose sequence depends only on the seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashString(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return hash >>> 0;
}

/** The second and third languages a parallel request of `lang` asks for: the next two of the five, in order. */
function otherLangs(lang: Lang): Lang[] {
  const all: Lang[] = ['fr', 'en', 'es', 'pt', 'nl'];
  const at = all.indexOf(lang);
  return [all[(at + 1) % all.length]!, all[(at + 2) % all.length]!];
}

/**
 * /parallel paths from the ranges: each range's passage (at most 9 verses) in its language and the
 * next two, written `Abbr chapter:from-to` (`:` reads in every language).
 *
 * @example parallelPaths([{ lang: 'en', path: '/api/v1/bible/Ps/23/1/4?lang=en' }])[0] // '/api/v1/bible/parallel?ref=Ps%2023%3A1-4&langs=en,es,pt'
 */
export function parallelPaths(ranges: readonly RangeQuery[]): string[] {
  return ranges.map(({ lang, path }) => {
    const [, abbr, chapter, from, to] = /^\/api\/v1\/bible\/([^/]+)\/([0-9]+)\/([0-9]+)\/([0-9]+)\?/.exec(path)!;
    const ref = `${abbr} ${chapter}:${from}-${to}`;
    return `/api/v1/bible/parallel?ref=${encodeURIComponent(ref)}&langs=${[lang, ...otherLangs(lang)].join(',')}`;
  });
}

/**
 * /references paths: per text, about 1,000 characters of the language's verses with four of the
 * ranges' references written into them, as a page quoting Scripture has them.
 */
export function referenceTextPaths(
  corpora: readonly LanguageCorpus[],
  ranges: readonly RangeQuery[],
  count: number,
  seed: number,
): string[] {
  const random = seededRandom(seed);
  const byLang = new Map(corpora.map((corpus) => [corpus.lang, corpus]));
  const refs = rangeReferences(ranges);
  const paths: string[] = [];
  for (let index = 0; index < count && refs.length > 0; index++) {
    const { lang } = refs[index % refs.length]!;
    const corpus = byLang.get(lang);
    const own = refs.filter((ref) => ref.lang === lang);
    if (!corpus) continue;
    let text = '';
    for (let part = 0; part < 4; part++) {
      text += `${pick(corpus.verses, random).text} (${pick(own, random).ref}) `;
      if (text.length > 1000) break;
    }
    paths.push(`/api/v1/bible/references?lang=${lang}&text=${encodeURIComponent(text.slice(0, 1000))}`);
  }
  return paths;
}

/** Each range as a reference its language reads (`Jn 3:16-18`, `Jn 3.16-18` in French). */
export function rangeReferences(ranges: readonly RangeQuery[]): { lang: Lang; ref: string }[] {
  return ranges.map(({ lang, path }) => {
    const [, abbr, chapter, from, to] = /^\/api\/v1\/bible\/([^/]+)\/([0-9]+)\/([0-9]+)\/([0-9]+)\?/.exec(path)!;
    return { lang, ref: `${abbr} ${chapter}${VERSE_SEPARATOR[lang]}${from}-${to}` };
  });
}

/**
 * MCP tool calls (POST /mcp, JSON-RPC `tools/call`) of get_bible_passage, one per range, as an
 * assistant sends them: stateless, each call alone, no `initialize` before it.
 */
export function mcpPassageCalls(ranges: readonly RangeQuery[]): RawRequest[] {
  return rangeReferences(ranges).map(({ lang, ref }, index) => ({
    method: 'POST',
    path: '/mcp',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: index + 1,
      method: 'tools/call',
      params: { name: 'get_bible_passage', arguments: { ref: decodeURIComponent(ref), lang } },
    }),
  }));
}

/** /verse-of-the-day paths: every day of 2028 (a leap year) in every language. */
export function verseOfTheDayPaths(): string[] {
  const paths: string[] = [];
  for (let day = 0; day < 366; day++) {
    const date = new Date(Date.UTC(2028, 0, 1 + day)).toISOString().slice(0, 10);
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl']) paths.push(`/api/v1/bible/verse-of-the-day?lang=${lang}&date=${date}`);
  }
  return paths;
}
