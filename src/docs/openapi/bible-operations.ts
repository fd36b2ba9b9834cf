// The Bible operations (endpoints 9-13): no key, CORS, long public caching, 503 until built; every status each can answer.
import type { TSchema } from '@sinclair/typebox';
import { BIBLE_CACHE_CONTROL } from '../../../build/contract/http-policy.ts';
import { staticPaths } from '../../../build/contract/layout.ts';
import { type Problem, problems } from '../../../build/contract/problems.ts';
import {
  BookListSchema,
  DownloadSchema,
  PassageListSchema,
  PassageSchema,
  SearchHitPageSchema,
  VersionListSchema,
} from '../../../build/contract/response-schemas.ts';
import { parseLang, parsePositiveInteger, parseSearch } from '../../bible/params.ts';
import { parseRef } from '../../bible/passage.ts';
import { bibleLimitPolicyName } from '../../limits/bible-limit.ts';
import { RATE_LIMIT_WINDOW_MS } from '../../limits/key-limit.ts';
import {
  booksExample,
  chapterExample,
  downloadExample,
  passageExample,
  rangeExamples,
  searchExample,
  versionsExample,
} from './bible-examples.ts';
import { bibleCorsHeaders, cacheHeaders, rateLimitHeaders, retryAfterHeader } from './headers.ts';
import {
  abbrParameter,
  bookFilterParameter,
  langParameter,
  pageParameter,
  positionParameter,
  queryParameter,
  referenceParameter,
  sizeParameter,
  testamentFilterParameter,
} from './parameters.ts';
import { problemResponse, thrownProblem } from './problem-responses.ts';
import type { DocumentParts, Json } from './types.ts';

interface BibleOperation {
  operationId: string;
  summary: string;
  description: string;
  parameters: Json[];
  body: TSchema;
  /** One example, or several by name. */
  example: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
  invalid?: Problem[];
  notFound?: Problem[];
  /** Served from the static tree (versions, books, chapters), precompressed; else from the database, behind the per-address limit. */
  servedFrom: 'tree' | 'database';
}

/** Paths and operations of endpoints 9-13. */
export function biblePaths(parts: DocumentParts): Json {
  const path = (operation: BibleOperation) => ({ get: bibleOperation(parts, operation) });
  const unknownLang = thrownProblem(() => parseLang('de'));
  const badChapter = thrownProblem(() => parsePositiveInteger('chapter', '01'));
  const decode = problems.malformedRequest(400, "Failed to decode param '%E0%A4%A'");
  const unknownBook = problems.unknownBibleBook('fr', 'Genesis');
  // One example per type and parameter; an empty chapter (chapterWithoutVerses) has the same type as this one.
  const noChapter = [problems.chapterOutsideBook('Genèse', 51, 50)];
  const ranges = rangeExamples();
  return {
    '/api/v1/bible/versions': path({
      operationId: 'listBibleVersions',
      summary: 'Versions',
      description:
        "The versions of this Bible, one per language, with licence, attribution, counts, and the URL, size and SHA-256 of each one's download (the whole version in one file). Takes no parameter.",
      parameters: [],
      body: VersionListSchema,
      example: versionsExample(),
      servedFrom: 'tree',
    }),
    '/api/v1/bible/books': path({
      operationId: 'listBibleBooks',
      summary: 'Books',
      description:
        'The books of the version of `lang` (the 66 books of the Protestant canon), in canonical order, with the abbreviations of that language and chapter counts from the text. The example shows the first two.',
      parameters: [langParameter(parts)],
      body: BookListSchema,
      example: booksExample(),
      invalid: [unknownLang],
      servedFrom: 'tree',
    }),
    '/api/v1/bible/download': path({
      operationId: 'getBibleDownload',
      summary: 'Whole version (download)',
      description:
        'The version of `lang` whole, in one file, for an app that works offline: the version with its counts, the books list, and every chapter exactly as GET /api/v1/bible/{abbr}/{chapter} answers it (navigation and attribution included). About 5-6 MB, 1.2-1.4 MB with brotli. `versions` lists its URL, size and SHA-256, so one request tells an app whether its copy is current. A static file of the tree, precompressed like the others. The example is abridged: the first book, and two verses of the first chapter.',
      parameters: [langParameter(parts)],
      body: DownloadSchema,
      example: downloadExample(),
      invalid: [unknownLang],
      servedFrom: 'tree',
    }),
    '/api/v1/bible/{abbr}/{chapter}': path({
      operationId: 'getChapter',
      summary: 'Chapter',
      description: 'A whole chapter (the example: Psalm 117 in French).',
      parameters: [
        abbrParameter(),
        positionParameter('chapter', 'Chapter number; past the last chapter of the book: 404.', 117),
        langParameter(parts),
      ],
      body: PassageSchema,
      example: chapterExample(),
      invalid: [badChapter, unknownLang, decode],
      notFound: [unknownBook, ...noChapter],
      servedFrom: 'tree',
    }),
    '/api/v1/bible/{abbr}/{chapter}/{from}/{to}': path({
      operationId: 'getVerseRange',
      summary: 'Verse range',
      description:
        'Verses `from` to `to` of one chapter, in the shape of a chapter. `from` past the last verse: 404; `to` past it is clamped, and `from` and `to` in the body say which verses the answer holds. A verse the version leaves out is absent (a range of only such verses: 404). Not prerendered in the static tree (the generated nginx and _redirects rules send it to this service).',
      parameters: [
        abbrParameter(),
        positionParameter('chapter', 'Chapter number.', 3),
        positionParameter('from', 'First verse.', 16),
        positionParameter('to', 'Last verse, from `from` on; clamped to the chapter.', 16),
        langParameter(parts),
      ],
      body: PassageSchema,
      example: undefined,
      examples: {
        'john-3-16-en': { summary: 'GET /api/v1/bible/John/3/16/16?lang=en', value: ranges.john3v16 },
        'genesis-1-1-fr': { summary: 'GET /api/v1/bible/Gn/1/1/1 (a verse with the heading before it)', value: ranges.genesis1v1 },
      },
      invalid: [badChapter, problems.reversedVerseRange(17, 16), unknownLang, decode],
      notFound: [unknownBook, ...noChapter, problems.verseOutsideChapter('Genèse', 1, 32, 31), problems.versesMissing('Salmos', 46, 3, 3)],
      servedFrom: 'database',
    }),
    '/api/v1/bible/{abbr}/{chapter}/{verse}': path({
      operationId: 'getVerse',
      summary: 'One verse',
      description:
        'One verse: the same answer, byte for byte, as the range `{verse}/{verse}`, in the shape of a chapter. Past the last verse: 404. Not prerendered in the static tree (the generated nginx and _redirects rules send it to this service).',
      parameters: [
        abbrParameter(),
        positionParameter('chapter', 'Chapter number.', 3),
        positionParameter('verse', 'Verse number.', 16),
        langParameter(parts),
      ],
      body: PassageSchema,
      example: ranges.john3v16,
      invalid: [badChapter, thrownProblem(() => parsePositiveInteger('verse', '01')), unknownLang, decode],
      notFound: [unknownBook, ...noChapter, problems.verseOutsideChapter('Genèse', 1, 32, 31), problems.versesMissing('Salmos', 46, 3, 3)],
      servedFrom: 'database',
    }),
    '/api/v1/bible/passage': path({
      operationId: 'getPassage',
      summary: 'Passages',
      description:
        'The verses of one or more passages named by `ref` (ranges across chapters, whole chapters, lists), grouped by passage in the order named, each with its reference normalised in the language as its Bible publishers write it (full book name; `:` between chapter and verse in English and Dutch, `.` in French, Spanish and Portuguese: `John 3:16, 18`, `Jean 3.16 ; 4.2`); `reference` writes the whole list, naming each book once. An end past the chapter or book is clamped; `from` and `to` say which verses each passage holds.',
      parameters: [referenceParameter(parts.config.biblePassageMaxVerses), langParameter(parts)],
      body: PassageListSchema,
      example: passageExample(),
      // One example per type and parameter: a ref the parser cannot read (missing and too many verses are described on ref).
      invalid: [thrownProblem(() => parseRef('Jn 3:', 'en')), unknownLang],
      servedFrom: 'database',
    }),
    '/api/v1/bible/search': path({
      operationId: 'searchBible',
      summary: 'Search',
      description:
        'Full-text search in the version of `lang`, case- and accent-insensitive, with the operators `q` lists. A `q` that reads as references answers with those passages first (`match: reference`); then the verses matching its words (`match: words`), each naming the matched words by offset. Both in canonical order (book, chapter, verse), paged together, so pages are stable and `totalItems` is exact. Optional filters: one book, one testament.',
      parameters: [
        queryParameter(),
        langParameter(parts),
        bookFilterParameter(),
        testamentFilterParameter(parts),
        pageParameter(),
        sizeParameter(),
      ],
      body: SearchHitPageSchema,
      example: searchExample(),
      invalid: [
        thrownProblem(() => parseSearch({})),
        thrownProblem(() => parseSearch({ q: 'god', book: 'Hezekiah' })),
        thrownProblem(() => parseSearch({ q: 'god', testament: 'AT' })),
        unknownLang,
        thrownProblem(() => parseSearch({ q: 'grace', size: '0' })),
      ],
      servedFrom: 'database',
    }),
  };
}

function bibleOperation(parts: DocumentParts, operation: BibleOperation): Json {
  const limit = parts.config.bibleRateLimitPerMinute;
  const limited = operation.servedFrom === 'database' && limit > 0;
  const cors = bibleCorsHeaders();
  const limitHeaders = limited ? rateLimitHeaders(limit, bibleLimitPolicyName(limit)) : {};
  const errorHeaders = { ...cors, ...limitHeaders };
  const cache = { ...cacheHeaders(BIBLE_CACHE_CONTROL), ...errorHeaders, ...(operation.servedFrom === 'tree' ? encodingHeaders() : {}) };
  const media = operation.examples === undefined ? { example: operation.example } : { examples: operation.examples };
  const responses: Json = {
    '200': {
      description: operation.summary,
      headers: cache,
      content: { 'application/json': { schema: parts.components.ref(operation.body), ...media } },
    },
    '304': { description: 'Not modified: If-None-Match matched the ETag.', headers: cache },
  };
  if (operation.invalid) {
    responses['400'] = problemResponse(
      parts,
      'A parameter is malformed or out of bounds; `parameter` names it.',
      operation.invalid,
      errorHeaders,
    );
  }
  if (operation.notFound) {
    responses['404'] = problemResponse(
      parts,
      'No such book, chapter or verses in this version; `parameter` names which.',
      operation.notFound,
      errorHeaders,
    );
  }
  if (limited) {
    responses['429'] = problemResponse(
      parts,
      `More than ${limit} range and search requests within a minute from this address.`,
      [problems.bibleRateLimited(limit, RATE_LIMIT_WINDOW_MS / 1000)],
      { ...retryAfterHeader('Seconds until the window resets.'), ...errorHeaders },
    );
  }
  responses['500'] = problemResponse(parts, 'The service failed; the failure is logged.', [problems.internalError()], errorHeaders);
  responses['503'] = problemResponse(
    parts,
    'This server has no usable Bible build (not built yet, or its tree and database come from different builds)' +
      (operation.servedFrom === 'tree' ? ', or a new build is being swapped in.' : '.') +
      ' Church endpoints keep working.' +
      (operation.operationId === 'searchBible'
        ? ' Also when the search workers are all busy or a search runs past its time budget (`search-busy`): retry after `Retry-After`.'
        : ''),
    [
      problems.bibleNotBuilt(`The Bible has not been built: ${staticPaths.stamp} is missing.`, 60),
      ...(operation.servedFrom === 'tree' ? [problems.bibleRebuilding()] : []),
      ...(operation.operationId === 'searchBible' ? [problems.searchBusy('queue-full', 1)] : []),
    ],
    { ...retryAfterHeader('Seconds to wait before asking again.'), ...errorHeaders },
  );
  return {
    tags: ['Bible'],
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    security: [],
    parameters: operation.parameters,
    responses,
  };
}

/** A file of the tree is sent in the best stored encoding the client accepts. */
function encodingHeaders(): Json {
  return {
    Vary: { schema: { type: 'string', const: 'Accept-Encoding' } },
    'Content-Encoding': {
      description: 'When the client accepts it: the precompressed file.',
      schema: { type: 'string', enum: ['br', 'gzip'] },
    },
  };
}
