// The service's problem catalogue: its own problem types (church data, API keys, its database, readiness) beside the Bible's (build/contract/problems.ts).
import { PROBLEMS_PAGE_PATH } from '../../build/contract/http-policy.ts';
import { makeProblem, PROBLEM_TYPES, type Problem, type ProblemType } from '../../build/contract/problems.ts';

/**
 * The service's own problem types, keyed by the name of their constructor family: what no Bible
 * request is answered with, so the build and the static hosts need none of them.
 */
export const SERVICE_PROBLEM_TYPES = {
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
} as const satisfies Record<string, ProblemType>;

/**
 * Every problem type the service answers, the Bible's and its own, in the order the docs page
 * (/docs/problems) lists them: by status, then as a reader meets them.
 */
export const ALL_PROBLEM_TYPES: readonly ProblemType[] = [
  PROBLEM_TYPES.invalidParameter,
  PROBLEM_TYPES.unknownLanguage,
  PROBLEM_TYPES.malformedRequest,
  SERVICE_PROBLEM_TYPES.apiKeyMissing,
  SERVICE_PROBLEM_TYPES.apiKeyMalformed,
  SERVICE_PROBLEM_TYPES.apiKeyUnknown,
  SERVICE_PROBLEM_TYPES.churchNotFound,
  SERVICE_PROBLEM_TYPES.albumNotFound,
  PROBLEM_TYPES.bibleBookNotFound,
  PROBLEM_TYPES.bibleChapterNotFound,
  PROBLEM_TYPES.bibleVerseNotFound,
  PROBLEM_TYPES.bibleVersesMissing,
  PROBLEM_TYPES.pathNotFound,
  PROBLEM_TYPES.methodNotAllowed,
  SERVICE_PROBLEM_TYPES.keyRateLimited,
  SERVICE_PROBLEM_TYPES.tooManyInvalidKeys,
  PROBLEM_TYPES.bibleRateLimited,
  PROBLEM_TYPES.internalError,
  PROBLEM_TYPES.bibleNotBuilt,
  PROBLEM_TYPES.searchBusy,
  SERVICE_PROBLEM_TYPES.databaseUnavailable,
  SERVICE_PROBLEM_TYPES.notReady,
  PROBLEM_TYPES.bibleRebuilding,
];

/**
 * The named constructors of the service's own problems.
 *
 * @example throw new ApiError(serviceProblems.churchNotFound())
 */
export const serviceProblems = {
  /** 401: no Authorization header. */
  apiKeyMissing(keyPrefix: string): Problem {
    return makeProblem(
      SERVICE_PROBLEM_TYPES.apiKeyMissing,
      `This endpoint needs an API key: send the header "Authorization: Bearer ${keyPrefix}…".`,
      {
        headers: { 'WWW-Authenticate': 'Bearer' },
      },
    );
  },

  /** 401: an Authorization header of another scheme than Bearer; no key was given the way the API takes it. */
  authorizationNotBearer(keyPrefix: string): Problem {
    return makeProblem(
      SERVICE_PROBLEM_TYPES.apiKeyMissing,
      `The Authorization header must use the Bearer scheme: "Authorization: Bearer ${keyPrefix}…".`,
      {
        headers: { 'WWW-Authenticate': 'Bearer' },
      },
    );
  },

  /** 401: a Bearer token that is not a well-formed key, checked before any lookup. */
  apiKeyMalformed(keyPrefix: string): Problem {
    return makeProblem(
      SERVICE_PROBLEM_TYPES.apiKeyMalformed,
      `The API key in the Authorization header is malformed: a key is "${keyPrefix}" followed by 39 letters and digits, and its checksum must match. Check it was copied whole.`,
      { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } },
    );
  },

  /** 401: a well-formed key that is not active. */
  apiKeyUnknown(): Problem {
    return makeProblem(SERVICE_PROBLEM_TYPES.apiKeyUnknown, 'The API key is unknown or has been revoked.', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    });
  },

  /**
   * 404 for an unknown slug and a non-public church alike. The detail does not echo the slug:
   * the body is the same bytes for every such request, so the two cannot be told apart.
   */
  churchNotFound(): Problem {
    return makeProblem(SERVICE_PROBLEM_TYPES.churchNotFound, 'No public church has this slug.');
  },

  /** 404: no public album of this church has this id. */
  albumNotFound(): Problem {
    return makeProblem(SERVICE_PROBLEM_TYPES.albumNotFound, 'This church has no public album with this albumId.', { parameter: 'albumId' });
  },

  /** 400: a library `type` filter outside the allowed types. */
  unknownLibraryType(allowed: readonly string[]): Problem {
    return makeProblem(PROBLEM_TYPES.invalidParameter, `type must be one of ${allowed.join(', ')} (case-insensitive).`, {
      parameter: 'type',
    });
  },

  /** 429 of the per-key limit; the limiter sets Retry-After and the RateLimit headers itself. */
  keyRateLimited(limit: number, retryAfterSeconds: number | string): Problem {
    return makeProblem(
      SERVICE_PROBLEM_TYPES.keyRateLimited,
      `More than ${limit} requests in a minute with this API key; retry after ${retryAfterSeconds} seconds.`,
    );
  },

  /** 429 of the per-address throttle of invalid keys. */
  tooManyInvalidKeys(limit: number, retryAfterSeconds: number): Problem {
    return makeProblem(
      SERVICE_PROBLEM_TYPES.tooManyInvalidKeys,
      `More than ${limit} requests in a minute from this address carried a missing or invalid API key; retry after ${retryAfterSeconds} seconds.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  },

  /** 503: the church and account database is down, unreachable or too slow (src/db/storage-unavailable.ts). */
  databaseUnavailable(retryAfterSeconds: number): Problem {
    return makeProblem(SERVICE_PROBLEM_TYPES.databaseUnavailable, 'The database did not answer in time; retry in a moment.', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  },

  /** 503 of /readyz: the checks that failed, each with its reason. */
  notReady(failing: readonly { name: string; reason: string }[]): Problem {
    const list = failing.map(({ name, reason }) => `${name} (${reason.replace(/\.$/, '')})`).join('; ');
    return makeProblem(SERVICE_PROBLEM_TYPES.notReady, `Failing checks: ${list}.`);
  },
};

/**
 * A regular expression that the `type` of every problem the service answers matches, and nothing
 * else: for the OpenAPI document's Problem schema.
 *
 * @example new RegExp(problemTypeUriPattern('https://api.example.org')).test('https://api.example.org/docs/problems#church-not-found') // true
 */
export function problemTypeUriPattern(publicBaseUrl: string): string {
  const slugs = ALL_PROBLEM_TYPES.map((type) => type.slug);
  return `^${escapeRegExp(`${publicBaseUrl}${PROBLEMS_PAGE_PATH}#`)}(?:${slugs.map(escapeRegExp).join('|')})$`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
