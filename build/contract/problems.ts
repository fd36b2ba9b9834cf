// The one catalogue of problem types: every error the service or the generated host files answer, each made by a named constructor.
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
 * One occurrence of a problem: a plain value, no HTTP framework. Only the constructors of
 * `problems` make one (the brand keeps hand-written literals out), so every error the API
 * answers has a documented type.
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

/** Every problem type, keyed by the name of its constructor family; the docs page lists them in this order. */
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
  apiKeyMissing: {
    slug: 'api-key-missing',
    status: 401,
    title: 'Missing API key',
    advice:
      'Church endpoints need a key: send `Authorization: Bearer sk_live_…` (no other scheme). Call them from your server, never from a browser.',
  },
  apiKeyMalformed: {
    slug: 'api-key-malformed',
    status: 401,
    title: 'Malformed API key',
    advice:
      'The key does not have the shape of a key, or its checksum does not match: it was probably cut or mistyped. Copy it again whole; it was checked without any lookup.',
  },
  apiKeyUnknown: {
    slug: 'api-key-unknown',
    status: 401,
    title: 'Unknown or revoked API key',
    advice: 'The key is well formed but not active: it was revoked, or never issued here. Create a new key; do not retry with this one.',
  },
  churchNotFound: {
    slug: 'church-not-found',
    status: 404,
    title: 'Unknown church',
    advice:
      "No church with a public profile has this slug. A church that exists but is not public answers the same, on purpose. Check the slug against the church's public page.",
  },
  albumNotFound: {
    slug: 'album-not-found',
    status: 404,
    title: 'Unknown photo album',
    advice: 'This church has no public album with this `albumId`; the gallery endpoint lists its albums.',
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
  keyRateLimited: {
    slug: 'key-rate-limited',
    status: 429,
    title: 'API key rate limit exceeded',
    advice:
      'This key sent more requests in a minute than its limit (the `RateLimit-Policy` header). Wait the seconds of `Retry-After`, then spread requests out or cache answers (they carry ETags).',
  },
  tooManyInvalidKeys: {
    slug: 'too-many-invalid-keys',
    status: 429,
    title: 'Too many invalid API keys',
    advice:
      'Too many requests from this address carried a missing or invalid key; its requests with a missing or invalid key are refused until `Retry-After` has passed (a valid key from it is still served). Fix the key before retrying.',
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
  databaseUnavailable: {
    slug: 'database-unavailable',
    status: 503,
    title: 'Database unavailable',
    advice:
      'The service cannot reach its database right now, or the database did not answer in time; nothing was changed. Retry after `Retry-After`. The Bible endpoints do not use this database and keep working.',
  },
  notReady: {
    slug: 'not-ready',
    status: 503,
    title: 'Service not ready',
    advice:
      'Answered by `GET /readyz` only: a check this instance needs failed (its database, its Bible build, or its Redis when it has one); `detail` names each failing check and why. Load balancers: send traffic elsewhere until it answers 200. Operators: fix what `detail` names.',
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
 * The named constructors: the only way to make a Problem.
 *
 * @example throw new ApiError(problems.invalidParameter('size', 'size must be …'))
 */
export const problems = {
  /** 400 for a query or path parameter that is missing, malformed, repeated or out of bounds. */
  invalidParameter(parameter: string, detail: string): Problem {
    return make(PROBLEM_TYPES.invalidParameter, detail, { parameter });
  },

  /** 400: a range whose first verse comes after its last. */
  reversedVerseRange(from: number, to: number): Problem {
    return make(PROBLEM_TYPES.invalidParameter, `from (${from}) must not be greater than to (${to}).`, { parameter: 'from' });
  },

  /** 400: a library `type` filter outside the allowed types. */
  unknownLibraryType(allowed: readonly string[]): Problem {
    return make(PROBLEM_TYPES.invalidParameter, `type must be one of ${allowed.join(', ')} (case-insensitive).`, { parameter: 'type' });
  },

  /** 400 for a `lang` the Bible does not have. `given` describes the value when it is known (not on a static host). */
  unknownLanguage(allowed: readonly string[], given?: string): Problem {
    const got = given === undefined ? '' : `; got ${given}`;
    return make(PROBLEM_TYPES.unknownLanguage, `lang must be one of ${allowed.join(', ')} (default ${allowed[0]})${got}.`, {
      parameter: 'lang',
    });
  },

  /** A 4xx the HTTP layer raised before any route (e.g. a path that cannot be percent-decoded). */
  malformedRequest(status: number, message: string): Problem {
    return make(PROBLEM_TYPES.malformedRequest, message, { status });
  },

  /** 401: no Authorization header. */
  apiKeyMissing(keyPrefix: string): Problem {
    return make(PROBLEM_TYPES.apiKeyMissing, `This endpoint needs an API key: send the header "Authorization: Bearer ${keyPrefix}…".`, {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  },

  /** 401: an Authorization header of another scheme than Bearer; no key was given the way the API takes it. */
  authorizationNotBearer(keyPrefix: string): Problem {
    return make(
      PROBLEM_TYPES.apiKeyMissing,
      `The Authorization header must use the Bearer scheme: "Authorization: Bearer ${keyPrefix}…".`,
      {
        headers: { 'WWW-Authenticate': 'Bearer' },
      },
    );
  },

  /** 401: a Bearer token that is not a well-formed key, checked before any lookup. */
  apiKeyMalformed(keyPrefix: string): Problem {
    return make(
      PROBLEM_TYPES.apiKeyMalformed,
      `The API key in the Authorization header is malformed: a key is "${keyPrefix}" followed by 39 letters and digits, and its checksum must match. Check it was copied whole.`,
      { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } },
    );
  },

  /** 401: a well-formed key that is not active. */
  apiKeyUnknown(): Problem {
    return make(PROBLEM_TYPES.apiKeyUnknown, 'The API key is unknown or has been revoked.', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  },

  /**
   * 404 for an unknown slug and a non-public church alike. The detail does not echo the slug:
   * the body is the same bytes for every such request, so the two cannot be told apart.
   */
  churchNotFound(): Problem {
    return make(PROBLEM_TYPES.churchNotFound, 'No public church has this slug.');
  },

  /** 404: no public album of this church has this id. */
  albumNotFound(): Problem {
    return make(PROBLEM_TYPES.albumNotFound, 'This church has no public album with this albumId.', { parameter: 'albumId' });
  },

  /** 404 for an `{abbr}` that is no book of `lang`. `given` is the value when known (not on a static host). */
  unknownBibleBook(lang: string, given?: string): Problem {
    const subject = given === undefined ? 'This abbreviation' : `abbr "${given}"`;
    return make(
      PROBLEM_TYPES.bibleBookNotFound,
      `${subject} is not a book in lang ${lang}: use an abbreviation listed by /api/v1/bible/books?lang=${lang}, or a USFM code such as GEN or JHN.`,
      { parameter: 'abbr' },
    );
  },

  /** 404: a chapter number beyond the book's last chapter. */
  chapterOutsideBook(book: string, chapter: number, chapters: number): Problem {
    return make(
      PROBLEM_TYPES.bibleChapterNotFound,
      `chapter ${chapter} is outside ${book}, which has ${chapters} chapter${chapters === 1 ? '' : 's'}.`,
      {
        parameter: 'chapter',
      },
    );
  },

  /** 404: a chapter inside the book that this version's source leaves empty. */
  chapterWithoutVerses(book: string, chapter: number): Problem {
    return make(PROBLEM_TYPES.bibleChapterNotFound, `chapter ${chapter} of ${book} has no verses in this version.`, {
      parameter: 'chapter',
    });
  },

  /** 404 of a static host, which knows only that no chapter file exists for the request. */
  chapterNotInBook(lang: string): Problem {
    return make(
      PROBLEM_TYPES.bibleChapterNotFound,
      `This book has no such chapter in lang ${lang}; GET /api/v1/bible/books?lang=${lang} gives each book's chapter count.`,
      { parameter: 'chapter' },
    );
  },

  /** 404: a range starting after the chapter's last verse. */
  verseOutsideChapter(book: string, chapter: number, from: number, last: number): Problem {
    return make(PROBLEM_TYPES.bibleVerseNotFound, `from (${from}) is past the last verse of ${book} ${chapter}, which is ${last}.`, {
      parameter: 'from',
    });
  },

  /** 404: a range inside the chapter of which the version has no verse. */
  versesMissing(book: string, chapter: number, from: number, to: number): Problem {
    const verses = from === to ? `verse ${from}` : `any of verses ${from} to ${to}`;
    return make(PROBLEM_TYPES.bibleVersesMissing, `${book} ${chapter} has no ${verses} in this version.`, { parameter: 'from' });
  },

  /** 404 for a path that matches no route. */
  pathNotFound(path: string): Problem {
    return make(PROBLEM_TYPES.pathNotFound, `No resource at ${path}.`);
  },

  /** 405 with Allow. `method` is the refused one when known (not on a static host). */
  methodNotAllowed(method?: string): Problem {
    const allowed = ALLOWED_METHODS.join(' or ');
    const detail =
      method === undefined
        ? `This API is read-only: only ${ALLOWED_METHODS.join(' and ')} are allowed.`
        : `This API is read-only: ${method} is not allowed; use ${allowed}.`;
    return make(PROBLEM_TYPES.methodNotAllowed, detail, { headers: { Allow: ALLOW_HEADER } });
  },

  /** 429 of the per-key limit; the limiter sets Retry-After and the RateLimit headers itself. */
  keyRateLimited(limit: number, retryAfterSeconds: number | string): Problem {
    return make(
      PROBLEM_TYPES.keyRateLimited,
      `More than ${limit} requests in a minute with this API key; retry after ${retryAfterSeconds} seconds.`,
    );
  },

  /** 429 of the per-address throttle of invalid keys. */
  tooManyInvalidKeys(limit: number, retryAfterSeconds: number): Problem {
    return make(
      PROBLEM_TYPES.tooManyInvalidKeys,
      `More than ${limit} requests in a minute from this address carried a missing or invalid API key; retry after ${retryAfterSeconds} seconds.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  },

  /** 429 of the per-address limit on Bible ranges and search; the limiter sets Retry-After itself. */
  bibleRateLimited(limit: number, retryAfterSeconds: number | string): Problem {
    return make(
      PROBLEM_TYPES.bibleRateLimited,
      `More than ${limit} requests in a minute from this address to this endpoint; retry after ${retryAfterSeconds} seconds.`,
    );
  },

  /** 500: anything unexpected; the cause is logged, never sent. */
  internalError(): Problem {
    return make(PROBLEM_TYPES.internalError, 'The server could not answer this request. It has been logged.');
  },

  /** 503: no usable build; `reason` says why, the build hint says what to do. */
  bibleNotBuilt(reason: string, retryAfterSeconds: number): Problem {
    return make(PROBLEM_TYPES.bibleNotBuilt, `${reason} ${BIBLE_BUILD_HINT}`, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  },

  /** 503: the search workers are all busy with a full queue, or this search ran past its time budget. */
  searchBusy(reason: 'queue-full' | 'over-budget', retryAfterSeconds: number): Problem {
    const detail =
      reason === 'queue-full'
        ? 'Every search worker is busy and the search queue is full; retry in a moment.'
        : 'This search ran past the time budget of one search; retry in a moment, or search with fewer common words.';
    return make(PROBLEM_TYPES.searchBusy, detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  },

  /** 503: the church and account database is down, unreachable or too slow (src/db/storage-unavailable.ts). */
  databaseUnavailable(retryAfterSeconds: number): Problem {
    return make(PROBLEM_TYPES.databaseUnavailable, 'The database did not answer in time; retry in a moment.', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },

  /** 503 of /readyz: the checks that failed, each with its reason. */
  notReady(failing: readonly { name: string; reason: string }[]): Problem {
    const list = failing.map(({ name, reason }) => `${name} (${reason.replace(/\.$/, '')})`).join('; ');
    return make(PROBLEM_TYPES.notReady, `Failing checks: ${list}.`);
  },

  /** 503 while a rebuild swaps the tree under the open database. */
  bibleRebuilding(): Problem {
    return make(PROBLEM_TYPES.bibleRebuilding, 'The Bible is being rebuilt on this server; retry in a moment.', {
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

/**
 * A regular expression that the `type` of every problem this catalogue makes matches, and nothing
 * else: for the OpenAPI document's Problem schema.
 *
 * @example new RegExp(problemTypeUriPattern('https://api.example.org')).test('https://api.example.org/docs/problems#church-not-found') // true
 */
export function problemTypeUriPattern(publicBaseUrl: string): string {
  const slugs = Object.values(PROBLEM_TYPES).map((type) => type.slug);
  return `^${escapeRegExp(`${publicBaseUrl}${PROBLEMS_PAGE_PATH}#`)}(?:${slugs.map(escapeRegExp).join('|')})$`;
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

function make(
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
