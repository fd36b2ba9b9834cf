// The Bible's problem types: every error a Bible request is answered with, by the service or the generated host files, each made by a named constructor.
import { ALLOW_HEADER, ALLOWED_METHODS, PROBLEMS_PAGE_PATH } from './http-policy.ts';
import type { ProblemBody } from './problem-body.ts';

export type { ProblemBody };

/** A kind of problem, as the docs page lists it under its anchor. */
export interface ProblemType {
  /** Stable identifier, the fragment of the type URI (`/docs/problems#<slug>`); never renamed. */
  slug: string;
  /** The status every occurrence answers with (malformed-request: the HTTP layer's own 4xx). */
  status: number;
  /** Short and specific, the same for every occurrence ("Unknown Bible book"). */
  title: string;
  /** What a client should do when it receives one; shown on the docs page. */
  advice: string;
}

declare const fromCatalogue: unique symbol;

/**
 * One occurrence of a problem: a plain value, no HTTP framework. Only the named constructors
 * of a catalogue make one (`problems` here, `serviceProblems` in src/http/problems.ts; the brand
 * keeps hand-written literals out), so every error the API answers has a documented type.
 */
export interface Problem {
  readonly status: number;
  /** The slug of its ProblemType; problemBody turns it into the type URI. */
  readonly type: string;
  readonly title: string;
  /** Explains this occurrence; names the parameter when there is one. */
  readonly detail: string;
  /** The query or path parameter at fault, when there is one. */
  readonly parameter?: string;
  /** Response headers that belong to the problem (WWW-Authenticate, Allow, Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly [fromCatalogue]: true;
}

/**
 * The Bible's problem types, keyed by the name of their constructor family. The service's own
 * (church data, API keys, its database, readiness) are in src/http/problems.ts, which lists every
 * type for the docs page.
 */
export const PROBLEM_TYPES = {
  invalidParameter: {
    slug: 'invalid-parameter',
    status: 400,
    title: 'Invalid parameter',
    advice:
      'A query or path parameter is missing, malformed, repeated or out of bounds; `parameter` names it and `detail` says which values it takes. Correct it; sending the same request again gives the same answer.',
  },
  unknownLanguage: {
    slug: 'unknown-language',
    status: 400,
    title: 'Unknown Bible language',
    advice: '`lang` is not one of the languages this Bible has; `detail` lists them. Leave `lang` out for the default language.',
  },
  malformedRequest: {
    slug: 'malformed-request',
    status: 400,
    title: 'Malformed request',
    advice:
      "The request could not be read at all (for example a path with a broken percent-encoding). The status is the HTTP layer's own 4xx. Fix how the request is built.",
  },
  bibleBookNotFound: {
    slug: 'bible-book-not-found',
    status: 404,
    title: 'Unknown Bible book',
    advice:
      'The `abbr` is neither an abbreviation of the requested language nor a USFM code (GEN … REV). `GET /api/v1/bible/books?lang=…` lists the abbreviations.',
  },
  bibleChapterNotFound: {
    slug: 'bible-chapter-not-found',
    status: 404,
    title: 'Unknown Bible chapter',
    advice: "The book has no such chapter in this version. `GET /api/v1/bible/books?lang=…` gives each book's chapter count.",
  },
  bibleVerseNotFound: {
    slug: 'bible-verse-not-found',
    status: 404,
    title: 'Verse past the end of the chapter',
    advice:
      "`from` is past the chapter's last verse, which `detail` gives. (A `to` past the end is not an error: the range is clamped and the answer says which verses it holds.)",
  },
  bibleVersesMissing: {
    slug: 'bible-verses-missing',
    status: 404,
    title: 'Verses missing from this version',
    advice:
      "The chapter goes on past the range, but this version's source has none of the verses asked for (a few versions leave out verses that others number; `detail` names them). Ask for a wider range or the whole chapter.",
  },
  pathNotFound: {
    slug: 'path-not-found',
    status: 404,
    title: 'No such path',
    advice:
      'Nothing is served at this path. Paths are matched as written (lower case, no trailing slash); the OpenAPI document at /api/openapi.json lists them.',
  },
  methodNotAllowed: {
    slug: 'method-not-allowed',
    status: 405,
    title: 'Method not allowed',
    advice: `The API is read-only: use ${ALLOWED_METHODS.join(' or ')} (the \`Allow\` header lists them).`,
  },
  bibleRateLimited: {
    slug: 'bible-rate-limited',
    status: 429,
    title: 'Bible rate limit exceeded',
    advice:
      "This address sent more range or search requests in a minute than the Bible's per-address limit. Wait the seconds of `Retry-After`. Versions, books and chapters have no limit.",
  },
  internalError: {
    slug: 'internal-error',
    status: 500,
    title: 'Internal server error',
    advice: 'The service failed on its side and logged it. Retry later; if it persists, report it with the time of the request.',
  },
  bibleNotBuilt: {
    slug: 'bible-not-built',
    status: 503,
    title: 'Bible not built',
    advice:
      'This server has no usable Bible build (not built yet, or its parts come from different builds); church endpoints still work. Retry after `Retry-After`. Operators: `detail` says how to build it.',
  },
  searchBusy: {
    slug: 'search-busy',
    status: 503,
    title: 'Search busy',
    advice:
      'Every search worker of this server is busy and its queue is full, or the search ran past its time budget. Retry after `Retry-After`; other endpoints are not affected. A search that keeps running out of time may need fewer common words.',
  },
  bibleRebuilding: {
    slug: 'bible-rebuilding',
    status: 503,
    title: 'Bible build being swapped',
    advice: 'A new Bible build is being put in place on this server. Retry after `Retry-After` (a few seconds).',
  },
} as const satisfies Record<string, ProblemType>;

/** How the operator makes the Bible artifacts; quoted in every bible-not-built detail. */
export const BIBLE_BUILD_HINT = 'Build it with `BIBLE_SOURCES_DIR=<folder with the version sources> npm run build:bible`.';

/**
 * The named constructors of the Bible's problems.
 *
 * @example throw new ApiError(problems.invalidParameter('size', 'size must be …'))
 */
export const problems = {
  /** 400 for a query or path parameter that is missing, malformed, repeated or out of bounds. */
  invalidParameter(parameter: string, detail: string): Problem {
    return makeProblem(PROBLEM_TYPES.invalidParameter, detail, { parameter });
  },

  /** 400: a range whose first verse comes after its last. */
  reversedVerseRange(from: number, to: number): Problem {
    return makeProblem(PROBLEM_TYPES.invalidParameter, `from (${from}) must not be greater than to (${to}).`, { parameter: 'from' });
  },

  /** 400 for a `lang` the Bible does not have. `given` describes the value when it is known (not on a static host). */
  unknownLanguage(allowed: readonly string[], given?: string): Problem {
    const got = given === undefined ? '' : `; got ${given}`;
    return makeProblem(PROBLEM_TYPES.unknownLanguage, `lang must be one of ${allowed.join(', ')} (default ${allowed[0]})${got}.`, {
      parameter: 'lang',
    });
  },

  /** A 4xx the HTTP layer raised before any route (e.g. a path that cannot be percent-decoded). */
  malformedRequest(status: number, message: string): Problem {
    return makeProblem(PROBLEM_TYPES.malformedRequest, message, { status });
  },

  /** 404 for an `{abbr}` that is no book of `lang`. `given` is the value when known (not on a static host). */
  unknownBibleBook(lang: string, given?: string): Problem {
    const subject = given === undefined ? 'This abbreviation' : `abbr "${given}"`;
    return makeProblem(
      PROBLEM_TYPES.bibleBookNotFound,
      `${subject} is not a book in lang ${lang}: use an abbreviation listed by /api/v1/bible/books?lang=${lang}, or a USFM code such as GEN or JHN.`,
      { parameter: 'abbr' },
    );
  },

  /** 404: a chapter number beyond the book's last chapter. */
  chapterOutsideBook(book: string, chapter: number, chapters: number): Problem {
    return makeProblem(
      PROBLEM_TYPES.bibleChapterNotFound,
      `chapter ${chapter} is outside ${book}, which has ${chapters} chapter${chapters === 1 ? '' : 's'}.`,
      {
        parameter: 'chapter',
      },
    );
  },

  /** 404: a chapter inside the book that this version's source leaves empty. */
  chapterWithoutVerses(book: string, chapter: number): Problem {
    return makeProblem(PROBLEM_TYPES.bibleChapterNotFound, `chapter ${chapter} of ${book} has no verses in this version.`, {
      parameter: 'chapter',
    });
  },

  /** 404 of a static host, which knows only that no chapter file exists for the request. */
  chapterNotInBook(lang: string): Problem {
    return makeProblem(
      PROBLEM_TYPES.bibleChapterNotFound,
      `This book has no such chapter in lang ${lang}; GET /api/v1/bible/books?lang=${lang} gives each book's chapter count.`,
      { parameter: 'chapter' },
    );
  },

  /** 404: a range starting after the chapter's last verse. */
  verseOutsideChapter(book: string, chapter: number, from: number, last: number): Problem {
    return makeProblem(PROBLEM_TYPES.bibleVerseNotFound, `from (${from}) is past the last verse of ${book} ${chapter}, which is ${last}.`, {
      parameter: 'from',
    });
  },

  /** 404: a range inside the chapter of which the version has no verse. */
  versesMissing(book: string, chapter: number, from: number, to: number): Problem {
    const verses = from === to ? `verse ${from}` : `any of verses ${from} to ${to}`;
    return makeProblem(PROBLEM_TYPES.bibleVersesMissing, `${book} ${chapter} has no ${verses} in this version.`, { parameter: 'from' });
  },

  /** 404 for a path that matches no route. */
  pathNotFound(path: string): Problem {
    return makeProblem(PROBLEM_TYPES.pathNotFound, `No resource at ${path}.`);
  },

  /** 405 with Allow. `method` is the refused one when known (not on a static host). */
  methodNotAllowed(method?: string): Problem {
    const allowed = ALLOWED_METHODS.join(' or ');
    const detail =
      method === undefined
        ? `This API is read-only: only ${ALLOWED_METHODS.join(' and ')} are allowed.`
        : `This API is read-only: ${method} is not allowed; use ${allowed}.`;
    return makeProblem(PROBLEM_TYPES.methodNotAllowed, detail, { headers: { Allow: ALLOW_HEADER } });
  },

  /** 429 of the per-address limit on Bible ranges and search; the limiter sets Retry-After itself. */
  bibleRateLimited(limit: number, retryAfterSeconds: number | string): Problem {
    return makeProblem(
      PROBLEM_TYPES.bibleRateLimited,
      `More than ${limit} requests in a minute from this address to this endpoint; retry after ${retryAfterSeconds} seconds.`,
    );
  },

  /** 500: anything unexpected; the cause is logged, never sent. */
  internalError(): Problem {
    return makeProblem(PROBLEM_TYPES.internalError, 'The server could not answer this request. It has been logged.');
  },

  /** 503: no usable build; `reason` says why, the build hint says what to do. */
  bibleNotBuilt(reason: string, retryAfterSeconds: number): Problem {
    return makeProblem(PROBLEM_TYPES.bibleNotBuilt, `${reason} ${BIBLE_BUILD_HINT}`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },

  /** 503: the search workers are all busy with a full queue, or this search ran past its time budget. */
  searchBusy(reason: 'queue-full' | 'over-budget', retryAfterSeconds: number): Problem {
    const detail =
      reason === 'queue-full'
        ? 'Every search worker is busy and the search queue is full; retry in a moment.'
        : 'This search ran past the time budget of one search; retry in a moment, or search with fewer common words.';
    return makeProblem(PROBLEM_TYPES.searchBusy, detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  },

  /** 503 while a rebuild swaps the tree under the open database. */
  bibleRebuilding(): Problem {
    return makeProblem(PROBLEM_TYPES.bibleRebuilding, 'The Bible is being rebuilt on this server; retry in a moment.', {
      headers: { 'Retry-After': '2' },
    });
  },
};

/**
 * The `type` URI of a problem type: its anchor on the service's docs page.
 *
 * @example problemTypeUri('https://api.example.org', 'church-not-found') // 'https://api.example.org/docs/problems#church-not-found'
 */
export function problemTypeUri(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl}${PROBLEMS_PAGE_PATH}#${slug}`;
}

/** The JSON body of a problem: type (as a URI), title, status, detail, and the parameter when there is one. */
export function problemBody(problem: Problem, publicBaseUrl: string): ProblemBody {
  const body: ProblemBody = {
    type: problemTypeUri(publicBaseUrl, problem.type),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
  };
  if (problem.parameter !== undefined) body.parameter = problem.parameter;
  return body;
}

/**
 * Makes a Problem of `type`: for the named constructors of a catalogue only, this one's and the
 * service's own (src/http/problems.ts), so that every problem answered has a documented type.
 */
export function makeProblem(
  type: ProblemType,
  detail: string,
  extra: { parameter?: string; headers?: Record<string, string>; status?: number } = {},
): Problem {
  const problem: ProblemBody & { headers?: Readonly<Record<string, string>> } = {
    status: extra.status ?? type.status,
    type: type.slug,
    title: type.title,
    detail,
  };
  if (extra.parameter !== undefined) problem.parameter = extra.parameter;
  if (extra.headers !== undefined) problem.headers = Object.freeze(extra.headers);
  // The one place a Problem is made: the brand exists only in the type.
  return Object.freeze(problem) as unknown as Problem;
}
