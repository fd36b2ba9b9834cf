// The Bible's endpoint table: each endpoint once (path, parameters, limit, answer, documentation); the dispatcher, the OpenAPI document and the host rules are made from it.
import { BIBLE_PREFIX, bibleRoutes } from '../../build/contract/bible-routes.ts';
import { BIBLE_CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import {
  BookListSchema,
  DownloadSchema,
  FoundReferenceListSchema,
  ParallelSchema,
  PassageListSchema,
  PassageSchema,
  SearchHitPageSchema,
  VerseOfTheDaySchema,
  VersionListSchema,
} from '../../build/contract/response-schemas.ts';
import type { Clock } from '../clock.ts';
import { prepareJson } from '../http/cache.ts';
import { type CachePolicy, type EndpointTable, endpointOf } from '../http/endpoint.ts';
import { pageParameter, sizeParameter } from '../http/paging.ts';
import { problemThrownBy } from '../http/problem.ts';
import { readChapterFile } from './chapter.ts';
import { BIBLE_CORS } from './cors.ts';
import {
  booksExample,
  chapterExample,
  downloadExample,
  parallelExample,
  passageExample,
  rangeExamples,
  referencesExample,
  searchExample,
  verseOfTheDayExample,
  versionsExample,
} from './examples.ts';
import { langsParameter, PARALLEL_MAX_VERSES, parallelRefParameter, readParallel } from './parallel.ts';
import {
  abbrParameter,
  bookAliasRedirect,
  bookFilterParameter,
  langParameter,
  parsePositiveInteger,
  positionParameter,
  refParameter,
  searchTextParameter,
  testamentParameter,
} from './params.ts';
import { parseRef, readPassages } from './passage.ts';
import { readRange } from './range.ts';
import { findReferencesIn, MAX_REFERENCE_TEXT, referenceTextParameter } from './references.ts';
import { searchBible } from './search.ts';
import type { BibleBuild, BibleSource } from './source.ts';
import { requireFile } from './static-files.ts';
import { dateParameter, verseOfTheDay } from './verse-of-the-day.ts';

/** What the Bible's answers are made from. */
export interface BibleDependencies {
  bible: BibleSource;
  /** The most verses one /passage request answers (BIBLE_PASSAGE_MAX_VERSES). */
  passageMaxVerses: number;
  /** What "today" is for the verse of the day (the app's clock). */
  clock: Clock;
}

const endpoint = endpointOf<BibleDependencies, BibleBuild>();

/** Long and public: the endpoints' answers and the search index files alike (build/contract/http-policy.ts says why). */
export const BIBLE_CACHE: CachePolicy = { cacheControl: BIBLE_CACHE_CONTROL, etag: true };

/**
 * The verse of the day: without `date` its answer changes at midnight UTC, so it may be kept only a
 * few minutes (revalidated by its ETag); a client that wants a day for long asks the day's file.
 */
export const VERSE_OF_THE_DAY_CACHE: CachePolicy = { cacheControl: 'public, max-age=300', etag: true };

const unknownLanguage = problemThrownBy(() => langParameter.read('de', {}));
const leadingZero = problemThrownBy(() => parsePositiveInteger('chapter', '01'));
const unknownBook = problems.unknownBibleBook('fr', 'Genesis');
// One example per type and parameter; an empty chapter (chapterWithoutVerses) has the same type as this one.
const chapterOutside = problems.chapterOutsideBook('Genèse', 51, 50);
const versesOutside = [problems.verseOutsideChapter('Genèse', 1, 32, 31), problems.versesMissing('Salmos', 46, 3, 3)];

const NO_BUILD = 'This server has no usable Bible build (not built yet, or its tree and database come from different builds)';
const CHURCH_KEEPS_WORKING = ' Church endpoints keep working.';
/** The 503 of the files of the tree, which a build swapped in under them makes too. */
const TREE_UNAVAILABLE = { 503: `${NO_BUILD}, or a new build is being swapped in.${CHURCH_KEEPS_WORKING}` };

const chapterNumber = positionParameter('chapter', 'Chapter number.', 3);

/** The 301 of the paths with `{abbr}`: another name of the book (src/bible/params.ts, bookAliasRedirect). */
const BOOK_ALIAS_REDIRECT =
  "The path names the book by another of its names in `lang` (`Jn`, `1 John`, `Juan`, `Genèse`): `Location` is the same URL with the language's abbreviation and `?lang=`. Permanent, and cached as long as the answers.";

export const bibleEndpoints: EndpointTable<BibleDependencies, BibleBuild> = {
  tag: 'Bible',
  prefix: BIBLE_PREFIX,
  cors: BIBLE_CORS,
  cache: BIBLE_CACHE,
  // Every answer needs the build first: without one (503), no parameter is read.
  load: (_params, { bible }) => bible.current(),
  problems: [problems.bibleNotBuilt(`The Bible has not been built: ${staticPaths.stamp} is missing.`, 60)],
  responses: {
    404: 'No such book, chapter or verses in this version; `parameter` names which.',
    503: `${NO_BUILD}.${CHURCH_KEEPS_WORKING}`,
  },
  endpoints: [
    endpoint({
      path: bibleRoutes.versions.path,
      query: [],
      answer: ({ loaded }) => requireFile(loaded.files.get(staticPaths.versions), staticPaths.versions),
      operation: {
        operationId: 'listBibleVersions',
        summary: 'Versions',
        description:
          "The versions of this Bible, one per language, with licence, attribution, counts, and the URL, size and SHA-256 of each one's download (the whole version in one file). Takes no parameter.",
        body: VersionListSchema,
        example: versionsExample(),
        problems: [problems.bibleRebuilding()],
        responses: TREE_UNAVAILABLE,
        precompressed: true,
      },
    }),
    endpoint({
      path: bibleRoutes.books.path,
      query: [langParameter],
      answer: ({ loaded, query }) => requireFile(loaded.files.get(staticPaths.books(query.lang)), staticPaths.books(query.lang)),
      operation: {
        operationId: 'listBibleBooks',
        summary: 'Books',
        description:
          'The books of the version of `lang` (the 66 books of the Protestant canon), in canonical order, with the abbreviations of that language and chapter counts from the text. The example shows the first two.',
        body: BookListSchema,
        example: booksExample(),
        problems: [unknownLanguage, problems.bibleRebuilding()],
        responses: TREE_UNAVAILABLE,
        precompressed: true,
      },
    }),
    // The whole version in one file (5-6 MB): streamed from disk, not held in memory like the small files.
    endpoint({
      path: bibleRoutes.download.path,
      query: [langParameter],
      answer: async ({ loaded, query }) =>
        requireFile(await loaded.files.open(staticPaths.download(query.lang)), staticPaths.download(query.lang)),
      operation: {
        operationId: 'getBibleDownload',
        summary: 'Whole version (download)',
        description:
          'The version of `lang` whole, in one file, for an app that works offline: the version with its counts, the books list, and every chapter exactly as GET /api/v1/bible/{abbr}/{chapter} answers it (navigation and attribution included). About 5-6 MB, 1.2-1.4 MB with brotli. `versions` lists its URL, size and SHA-256, so one request tells an app whether its copy is current. A static file of the tree, precompressed like the others. The example is abridged: the first book, and two verses of the first chapter.',
        body: DownloadSchema,
        example: downloadExample(),
        problems: [unknownLanguage, problems.bibleRebuilding()],
        responses: TREE_UNAVAILABLE,
        precompressed: true,
      },
    }),
    endpoint({
      path: bibleRoutes.chapter.path,
      params: [abbrParameter, positionParameter('chapter', 'Chapter number; past the last chapter of the book: 404.', 117)],
      query: [langParameter],
      answer: ({ loaded, query, params }) =>
        bookAliasRedirect(loaded.queries, query.lang, bibleRoutes.chapter.path, params) ??
        readChapterFile(loaded, query.lang, params.abbr, params.chapter),
      operation: {
        operationId: 'getChapter',
        summary: 'Chapter',
        description: 'A whole chapter (the example: Psalm 117 in French).',
        body: PassageSchema,
        example: chapterExample(),
        problems: [leadingZero, unknownLanguage, unknownBook, chapterOutside, problems.bibleRebuilding()],
        responses: TREE_UNAVAILABLE,
        precompressed: true,
        redirect: BOOK_ALIAS_REDIRECT,
      },
    }),
    endpoint({
      path: bibleRoutes.range.path,
      params: [
        abbrParameter,
        chapterNumber,
        positionParameter('from', 'First verse.', 16),
        positionParameter('to', 'Last verse, from `from` on; clamped to the chapter.', 16),
      ],
      query: [langParameter],
      limit: 'address',
      answer: ({ loaded, query, params }) =>
        bookAliasRedirect(loaded.queries, query.lang, bibleRoutes.range.path, params) ??
        readRange(loaded.queries, loaded.answers, query.lang, params.abbr, params.chapter, ['from', params.from], ['to', params.to]),
      operation: {
        operationId: 'getVerseRange',
        summary: 'Verse range',
        description:
          'Verses `from` to `to` of one chapter, in the shape of a chapter. `from` past the last verse: 404; `to` past it is clamped, and `from` and `to` in the body say which verses the answer holds. A verse the version leaves out is absent (a range of only such verses: 404). Not prerendered in the static tree (the generated nginx and _redirects rules send it to this service).',
        body: PassageSchema,
        examples: {
          'john-3-16-en': { summary: 'GET /api/v1/bible/John/3/16/16?lang=en', value: rangeExamples().john3v16 },
          'genesis-1-1-fr': {
            summary: 'GET /api/v1/bible/Gn/1/1/1 (a verse with the heading before it)',
            value: rangeExamples().genesis1v1,
          },
        },
        problems: [leadingZero, problems.reversedVerseRange(17, 16), unknownLanguage, unknownBook, chapterOutside, ...versesOutside],
        redirect: BOOK_ALIAS_REDIRECT,
      },
    }),
    // One verse by URL answers exactly like the range {verse}/{verse}.
    endpoint({
      path: bibleRoutes.verse.path,
      params: [abbrParameter, chapterNumber, positionParameter('verse', 'Verse number.', 16)],
      query: [langParameter],
      limit: 'address',
      answer: ({ loaded, query, params }) =>
        bookAliasRedirect(loaded.queries, query.lang, bibleRoutes.verse.path, params) ??
        readRange(
          loaded.queries,
          loaded.answers,
          query.lang,
          params.abbr,
          params.chapter,
          ['verse', params.verse],
          ['verse', params.verse],
        ),
      operation: {
        operationId: 'getVerse',
        summary: 'One verse',
        description:
          'One verse: the same answer, byte for byte, as the range `{verse}/{verse}`, in the shape of a chapter. Past the last verse: 404. Not prerendered in the static tree (the generated nginx and _redirects rules send it to this service).',
        body: PassageSchema,
        example: rangeExamples().john3v16,
        problems: [
          leadingZero,
          problemThrownBy(() => parsePositiveInteger('verse', '01')),
          unknownLanguage,
          unknownBook,
          chapterOutside,
          ...versesOutside,
        ],
        redirect: BOOK_ALIAS_REDIRECT,
      },
    }),
    endpoint({
      path: bibleRoutes.passage.path,
      query: [langParameter, refParameter],
      limit: 'address',
      answer: ({ loaded, query }, { passageMaxVerses }) =>
        prepareJson(readPassages(loaded.queries, query.lang, query.ref, passageMaxVerses)),
      operation: {
        operationId: 'getPassage',
        summary: 'Passages',
        description:
          'The verses of one or more passages named by `ref` (ranges across chapters, whole chapters, lists), grouped by passage in the order named, each with its reference normalised in the language as its Bible publishers write it (full book name; `:` between chapter and verse in English and Dutch, `.` in French, Spanish and Portuguese: `John 3:16, 18`, `Jean 3.16 ; 4.2`); `reference` writes the whole list, naming each book once. An end past the chapter or book is clamped; `from` and `to` say which verses each passage holds.',
        body: PassageListSchema,
        example: passageExample(),
        // One example per type and parameter: a ref the parser cannot read (missing and too many verses are described on ref).
        problems: [problemThrownBy(() => parseRef('Jn 3:', 'en')), unknownLanguage],
      },
    }),
    endpoint({
      path: bibleRoutes.search.path,
      query: [langParameter, searchTextParameter, bookFilterParameter, testamentParameter, pageParameter, sizeParameter],
      limit: 'address',
      answer({ loaded, query }) {
        const params = { ...query.q, lang: query.lang, book: query.book, testament: query.testament, page: query.page, size: query.size };
        const key = `search ${params.lang} ${params.book ?? ''} ${params.testament ?? ''} ${params.page} ${params.size} ${params.q}`;
        // References on this thread (indexed lookups); the word search on a worker: its cost depends on the text asked for.
        return loaded.answers.rememberAsync(key, () => searchBible(loaded.queries, loaded.pool, params));
      },
      operation: {
        operationId: 'searchBible',
        summary: 'Search',
        description:
          'Full-text search in the version of `lang`, case- and accent-insensitive, with the operators `q` lists. A `q` that reads as references answers with those passages first (`match: reference`); then the verses matching its words (`match: words`), each naming the matched words by offset. Both in canonical order (book, chapter, verse), paged together, so pages are stable and `totalItems` is exact. Optional filters: one book, one testament.',
        body: SearchHitPageSchema,
        example: searchExample(),
        problems: [
          problemThrownBy(() => searchTextParameter.read(undefined, {})),
          problemThrownBy(() => bookFilterParameter.read('Hezekiah', { lang: 'fr' })),
          problemThrownBy(() => testamentParameter.read('AT', {})),
          unknownLanguage,
          problemThrownBy(() => sizeParameter.read('0', {})),
          problems.searchBusy('queue-full', 1),
        ],
        responses: {
          503: `${NO_BUILD}.${CHURCH_KEEPS_WORKING} Also when the search workers are all busy or a search runs past its time budget (\`search-busy\`): retry after \`Retry-After\`.`,
        },
      },
    }),
    endpoint({
      path: bibleRoutes.parallel.path,
      query: [langsParameter, parallelRefParameter],
      limit: 'address',
      answer: ({ loaded, query }, { passageMaxVerses }) =>
        prepareJson(readParallel(loaded.queries, query.langs, query.ref, Math.min(passageMaxVerses, PARALLEL_MAX_VERSES))),
      operation: {
        operationId: 'getParallel',
        summary: 'Parallel versions',
        description:
          "The passages of `ref` in each language of `langs`, aligned verse by verse. `ref` is read in the first language: its reference conventions and its version's verse numbering. Each other version's verses are found through the versification mapping (docs/versification.md: the verses that hold the same pivot verse), never by number alone: KJV Exodus 8:1 is LSG Exode 7:26, KJV Jonah 1:17 is RVR Jonás 2:1. Each row holds a verse of the first language and, per other language, the verses holding what it holds, in that version's own numbering; an empty list says that version has no counterpart; where one version joins what another splits, the row holds several verses. `references` gives the passage as each version numbers it. Not served by static hosts (their rules proxy it to the service); a static client can align with the verse maps `/api/v1/bible/{lang}/verse-map.json` of the tree.",
        body: ParallelSchema,
        example: parallelExample(),
        problems: [problemThrownBy(() => langsParameter.read('en,de', {})), problemThrownBy(() => parseRef('Ex 8:', 'en'))],
      },
    }),
    endpoint({
      path: bibleRoutes.references.path,
      query: [langParameter, referenceTextParameter],
      limit: 'address',
      answer: ({ loaded, query }) => prepareJson(findReferencesIn(loaded.queries, query.lang, query.text)),
      operation: {
        operationId: 'findBibleReferences',
        summary: 'References in a text',
        description: `Every Bible reference in \`text\` (up to ${MAX_REFERENCE_TEXT.toLocaleString('en-US')} characters) as readers of \`lang\` write them (docs/references.md), in order: where it stands (\`start\`, \`end\`, UTF-16 offsets: \`text.slice(start, end)\`), its reference normalised in the language, and the verses it holds in the version (\`from\`, \`to\`; an end past the chapter is clamped). A reference starts with a book's name or abbreviation written with a capital or after its number (\`Jn\`, \`1 Jean\`, \`1Jn\`; \`is 5\` in English is not Isaiah), followed by a number; a list (\`Jn 3,16 et Ps 23\`, \`John 3:16, 18\`) gives one item per passage. A reference to a chapter or verse the version lacks is left out. The work is linear in the text (docs/references.md, "References in free text"). Not served by static hosts (their rules proxy it to the service).`,
        body: FoundReferenceListSchema,
        example: referencesExample(),
        problems: [problemThrownBy(() => referenceTextParameter.read('x'.repeat(MAX_REFERENCE_TEXT + 1), {})), unknownLanguage],
      },
    }),
    endpoint({
      path: bibleRoutes.verseOfTheDay.path,
      query: [langParameter, dateParameter],
      cache: VERSE_OF_THE_DAY_CACHE,
      answer: ({ loaded, query }, { clock }) => verseOfTheDay(loaded, query.lang, query.date, clock),
      operation: {
        operationId: 'getVerseOfTheDay',
        summary: 'Verse of the day',
        description:
          "The passage of a day (`date`, today in UTC when left out) from a list of 366 well-known passages (data/verse-of-the-day.json), in the version of `lang`: the same passage in every language on a day (`shared`, in the shared numbering; `reference` and the verses in the version's own, found through the versification mapping: docs/versification.md). A day has the same passage every year (29 February included). The body is, byte for byte, the build's file `/api/v1/bible/verse-of-the-day/{lang}/{MM-DD}.json`, which a static host serves as it is (a static host cannot know today's date, so this URL is proxied to the service); the year's days are also an RSS feed per language, `/api/v1/bible/verse-of-the-day/{lang}.rss`. Kept 5 minutes by caches, since without `date` the answer changes at midnight UTC.",
        body: VerseOfTheDaySchema,
        example: verseOfTheDayExample(),
        problems: [problemThrownBy(() => dateParameter.read('2023-02-29', {})), unknownLanguage, problems.bibleRebuilding()],
        responses: TREE_UNAVAILABLE,
      },
    }),
  ],
};
