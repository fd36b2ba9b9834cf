// fast-check arbitraries of raw HTTP requests: hostile ones (odd methods, paths, values, bytes, headers) and schema-valid ones.
import fc from 'fast-check';

/** A request as bytes, with what the test needs to judge its answer. */
export interface GeneratedRequest {
  method: string;
  /** The request target as sent (may hold bytes that are not UTF-8). */
  target: Buffer;
  bytes: Buffer;
  /**
   * Broken at the protocol level (raw bytes in the target or a header, a bad header line, an odd
   * version or method token): Node's parser may refuse it, and may reset the connection before
   * its 400 is read.
   */
  malformed: boolean;
}

/** What the service under test holds: a key that works and names that exist. */
export interface KnownNames {
  key: string;
}

const SLUGS = ['grace-paris', 'igreja-esperanca-sp', 'harbour-light-auckland', 'iglesia-betel-la', 'stille-kapel-utrecht'];
const CHURCH_RESOURCES = ['', '/events', '/posts', '/live', '/library', '/store', '/gallery', '/gallery/x/photos'];
const LANGS = ['fr', 'en', 'es', 'pt', 'nl'];
const ABBRS = ['Gn', 'GEN', 'gen', 'Jn', 'JHN', 'John', 'Ps', 'PSA', 'Sal', 'Ex', 'REV'];

/** Integers and near-integers at the edges of what the parameters take. */
const boundaryNumber = fc.constantFrom(
  '0',
  '1',
  '2',
  '3',
  '16',
  '17',
  '50',
  '51',
  '-1',
  '01',
  '1.5',
  '1e3',
  '0x10',
  ' 1',
  '1 ',
  '+1',
  '9007199254740991',
  '9007199254740992',
  '99999999999999999999',
  '1000000',
  '1000001',
  'NaN',
  'Infinity',
  '',
);

/** Bytes as percent-escapes, valid UTF-8 or not (overlong, lone continuation, truncated, NUL). */
const percentBytes = fc.oneof(
  fc.uint8Array({ maxLength: 12 }).map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
  fc.constantFrom('%ff%fe', '%C0%AF', '%E0%A4%A', '%E0%A4', '%00', '%', '%%', '%zz', '%F4%90%80%80', '%ED%A0%80', '%C3'),
);

/** A value for a query or path parameter: plausible, boundary, hostile, long. */
const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...LANGS, ...ABBRS, 'terre', 'god', 'grace') },
  { weight: 4, arbitrary: boundaryNumber },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponent) },
  { weight: 3, arbitrary: percentBytes },
  { weight: 2, arbitrary: fc.webSegment() },
  {
    weight: 1,
    arbitrary: fc.constantFrom('NEAR(a b)', '"a', 'a*', '-a', ':', '^', '""', '()', "'; DROP TABLE verses; --").map(encodeURIComponent),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 70 }).map((count) => Array(count).fill('de').join('+')) },
  { weight: 1, arbitrary: fc.integer({ min: 190, max: 3000 }).map((length) => 'a'.repeat(length)) },
);

const queryName = fc.constantFrom(
  'q',
  'lang',
  'page',
  'size',
  'type',
  'from',
  'q[]',
  'q[a]',
  'lang[]',
  'x',
  '',
  '__proto__',
  'constructor',
);

const query = fc
  .array(fc.tuple(queryName, fc.option(value, { nil: undefined })), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([name, v]) => (v === undefined ? name : `${name}=${v}`)).join('&')}`));

/** A path shaped like the API's, with its parameters drawn from `value`. */
const apiPath = fc.oneof(
  { weight: 2, arbitrary: fc.constant('/api/v1/bible/versions') },
  { weight: 2, arbitrary: fc.constant('/api/v1/bible/books') },
  { weight: 6, arbitrary: fc.constant('/api/v1/bible/search') },
  { weight: 4, arbitrary: fc.tuple(value, value).map(([abbr, chapter]) => `/api/v1/bible/${abbr}/${chapter}`) },
  { weight: 4, arbitrary: fc.tuple(value, value, value, value).map((parts) => `/api/v1/bible/${parts.join('/')}`) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.oneof(fc.constantFrom(...SLUGS), value), fc.constantFrom(...CHURCH_RESOURCES))
      .map(([slug, resource]) => `/api/public/v1/churches/${slug}${resource}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('/', '/docs', '/docs/problems', '/api/openapi.json', '/docs/assets/nothing.js', '/portal/') },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(value, fc.constantFrom('..', '.', '', 'api', 'v1', 'bible')), { maxLength: 6 })
      .map((s) => `/${s.join('/')}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/API/V1/BIBLE/VERSIONS',
      '/api/v1/bible/versions/',
      '//api/v1/bible/versions',
      '/api/v1/bible/%2e%2e/versions',
    ),
  },
);

/** The request target: a path and query, sometimes with raw bytes that are not UTF-8, or an absolute/asterisk form. */
const target: fc.Arbitrary<{ bytes: Buffer; malformed: boolean }> = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(apiPath, query).map(([path, q]) => ({ bytes: Buffer.from(path + q, 'latin1'), malformed: false })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(apiPath, fc.uint8Array({ minLength: 1, maxLength: 8 }))
      .map(([path, bytes]) => ({ bytes: Buffer.concat([Buffer.from(path), Buffer.from(bytes)]), malformed: true })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('*', 'http://127.0.0.1/api/v1/bible/versions', 'example.org:443', '', '?', '/?&&&=&')
      .map((t) => ({ bytes: Buffer.from(t), malformed: true })),
  },
);

/** Not method tokens Node knows: its parser refuses them. */
const ODD_METHODS = ['get', 'Get', 'GETT', 'BREW', 'FOO', 'G ET', '', 'GET\u0000'];

/** Methods: mostly GET and HEAD, then every other registered one, some unknown ones and misspellings. */
const method = fc.oneof(
  { weight: 10, arbitrary: fc.constant('GET') },
  { weight: 2, arbitrary: fc.constant('HEAD') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'PROPFIND',
      'PROPPATCH',
      'MKCOL',
      'COPY',
      'MOVE',
      'LOCK',
      'UNLOCK',
      'SEARCH',
      'M-SEARCH',
      'NOTIFY',
      'SUBSCRIBE',
      'PURGE',
      'LINK',
      'UNLINK',
      'REPORT',
      'QUERY',
      'SOURCE',
      'ACL',
      'BIND',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
);

/** Headers a client may send, well-formed or not. */
const header = fc.oneof(
  fc
    .constantFrom('br', 'gzip', 'br;q=0, gzip;q=0', 'identity;q=0', '*;q=0', 'gzip;q=abc', ',,,', 'x'.repeat(2000))
    .map((v) => `Accept-Encoding: ${v}`),
  fc.constantFrom('"abc"', '*', 'W/"x"', '"', '', ' , , ').map((v) => `If-None-Match: ${v}`),
  fc
    .constantFrom(
      'Bearer',
      'Bearer ',
      'Bearer sk_live_short',
      'Basic dXNlcjpwYXNz',
      'bearer KEY',
      'Bearer KEY',
      'Bearer KEY KEY',
      'Token KEY',
      `Bearer ${'A'.repeat(5000)}`,
    )
    .map((v) => `Authorization: ${v}`),
  fc.constantFrom('1.2.3.4', 'garbage', '::1, 10.0.0.1', '', '999.999.999.999').map((v) => `X-Forwarded-For: ${v}`),
  fc.constantFrom('application/xml', 'text/html', '*/*', 'application/problem+json', ';;;').map((v) => `Accept: ${v}`),
  fc.constantFrom('bytes=0-10', 'bytes=-1', 'items=1', 'bytes=9999999-').map((v) => `Range: ${v}`),
  fc.constantFrom('https://evil.example', 'null', '').map((v) => `Origin: ${v}`),
  fc.constantFrom('0', '5', 'abc', '-1', '99999999999').map((v) => `Content-Length: ${v}`),
  fc.constantFrom('application/json', 'multipart/form-data; boundary=x', 'text/plain; charset=utf-16').map((v) => `Content-Type: ${v}`),
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
      fc.oneof(
        { weight: 9, arbitrary: fc.stringMatching(/^[ -~]{0,40}$/) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
      ),
    )
    .map(([name, v]) => `${name}: ${v.replace(/[\r\n]/g, ' ')}`),
);

/** A raw byte sequence that is not a header line at all. */
const brokenHeader = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 20 })
    .map((bytes) => Buffer.concat([Buffer.from('X-Bytes: '), Buffer.from(bytes.filter((b) => b !== 10 && b !== 13))])),
  fc
    .constantFrom('No colon here', ': no name', 'Bad Name: x', 'X-Fold: a\r\n folded', 'Host: a\r\nHost: b')
    .map((line) => Buffer.from(line)),
);

/**
 * Hostile requests, each a complete HTTP/1.1 request with `Connection: close`; `KEY` in a
 * header is replaced by a working key, so some requests get past authentication.
 */
export function hostileRequest(known: KnownNames): fc.Arbitrary<GeneratedRequest> {
  return fc
    .record({
      method,
      target,
      version: fc.oneof(
        { weight: 20, arbitrary: fc.constant('HTTP/1.1') },
        { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', 'http/1.1', '') },
      ),
      headers: fc.array(header, { maxLength: 4 }),
      broken: fc.oneof({ weight: 19, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: brokenHeader }),
      body: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) }),
    })
    .map(({ method, target, version, headers, broken, body }) => {
      const lines = ['Host: 127.0.0.1', ...headers.map((line) => line.replaceAll('KEY', known.key)), 'Connection: close'];
      if (body !== undefined && !headers.some((line) => line.startsWith('Content-Length'))) lines.push(`Content-Length: ${body.length}`);
      const head = Buffer.concat([
        Buffer.from(`${method} `, 'latin1'),
        target.bytes,
        Buffer.from(` ${version}\r\n`, 'latin1'),
        ...lines.map((line) => Buffer.from(`${line}\r\n`, 'latin1')),
        ...(broken ? [broken, Buffer.from('\r\n')] : []),
        Buffer.from('\r\n'),
      ]);
      const malformed =
        target.malformed || broken !== undefined || version !== 'HTTP/1.1' || ODD_METHODS.includes(method) || headers.some(isOddHeader);
      return { method, target: target.bytes, bytes: body === undefined ? head : Buffer.concat([head, Buffer.from(body)]), malformed };
    });
}

/** A GET the OpenAPI document allows: every parameter within its schema; church endpoints with the working key. */
export function schemaValidRequest(known: KnownNames): fc.Arbitrary<{ path: string; headers: Record<string, string> }> {
  const lang = fc.option(fc.constantFrom(...LANGS), { nil: undefined });
  const page = fc.option(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1_000_000 })), { nil: undefined });
  const size = fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined });
  const positive = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2 ** 31 }));
  const text = fc.oneof(
    fc.constantFrom('terre', 'god', 'grace', 'Éternel', '"God created"', 'de la', 'a'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
  );
  const params = (pairs: Record<string, string | number | undefined>) => {
    const entries = Object.entries(pairs).filter(([, v]) => v !== undefined) as [string, string | number][];
    return entries.length === 0 ? '' : `?${entries.map(([name, v]) => `${name}=${encodeURIComponent(String(v))}`).join('&')}`;
  };
  const keyed = { authorization: `Bearer ${known.key}` };
  const slug = fc.oneof(fc.constantFrom(...SLUGS), fc.stringMatching(/^[a-z0-9-]{1,30}$/));
  return fc.oneof(
    fc.constant({ path: '/api/v1/bible/versions', headers: {} }),
    lang.map((l) => ({ path: `/api/v1/bible/books${params({ lang: l })}`, headers: {} })),
    fc
      .tuple(fc.oneof(fc.constantFrom(...ABBRS), fc.stringMatching(/^[A-Za-z0-9]{1,12}$/)), positive, lang)
      .map(([abbr, chapter, l]) => ({ path: `/api/v1/bible/${abbr}/${chapter}${params({ lang: l })}`, headers: {} })),
    fc.tuple(fc.constantFrom(...ABBRS), positive, positive, positive, lang).map(([abbr, chapter, from, to, l]) => ({
      path: `/api/v1/bible/${abbr}/${chapter}/${from}/${to}${params({ lang: l })}`,
      headers: {},
    })),
    fc
      .tuple(text, lang, page, size)
      .map(([q, l, p, s]) => ({ path: `/api/v1/bible/search${params({ q, lang: l, page: p, size: s })}`, headers: {} })),
    fc
      .tuple(slug, fc.constantFrom('', '/events', '/live', '/store', '/gallery'))
      .map(([s, resource]) => ({ path: `/api/public/v1/churches/${s}${resource}`, headers: keyed })),
    fc
      .tuple(slug, fc.constantFrom('/posts', '/library'), page, size)
      .map(([s, resource, p, sz]) => ({ path: `/api/public/v1/churches/${s}${resource}${params({ page: p, size: sz })}`, headers: keyed })),
    fc
      .tuple(slug, fc.stringMatching(/^[a-z0-9-]{1,20}$/))
      .map(([s, album]) => ({ path: `/api/public/v1/churches/${s}/gallery/${album}/photos`, headers: keyed })),
  );
}

/** A generated header line Node's parser may refuse: a bad Content-Length or control characters. */
function isOddHeader(line: string): boolean {
  return /^Content-Length: (?!\d+$)/.test(line) || [...line].some((char) => char !== '\t' && (char < ' ' || char === '\u007f'));
}
