// The OpenAPI 3.1 document: the contract of every endpoint, and the decisions taken where the spec is silent.
import {
  ALLOW_HEADER,
  BIBLE_CACHE_CONTROL,
  BIBLE_CORS_HEADERS,
  CHURCH_CACHE_CONTROL,
  PROBLEM_CONTENT_TYPE,
} from '../../build/contract/http-policy.ts';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string, headers: Json = {}) => ({
  description,
  headers,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('Problem') } },
});
const json = (description: string, schema: Json, headers: Json = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema } },
});
const pageOf = (item: Json) => ({
  type: 'object',
  required: ['items', 'page', 'size', 'totalItems', 'totalPages'],
  properties: {
    items: { type: 'array', items: item },
    page: { type: 'integer', minimum: 0, description: 'Zero-based page number, as requested.' },
    size: { type: 'integer', minimum: 1, maximum: 50 },
    totalItems: { type: 'integer', minimum: 0 },
    totalPages: { type: 'integer', minimum: 0 },
  },
});

const langParam = {
  name: 'lang',
  in: 'query',
  required: false,
  description: 'Language of the version: fr (LSG), en (KJV), es (RVR), pt (BLIVRE), nl (STV). Default fr. Any other value answers 400.',
  schema: { type: 'string', enum: ['fr', 'en', 'es', 'pt', 'nl'], default: 'fr' },
};
const pageParam = {
  name: 'page',
  in: 'query',
  required: false,
  description:
    'Zero-based page number, 0 to 1,000,000, plain digits without leading zeros. A page past the end answers 200 with empty items. Anything else: 400 naming page.',
  schema: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
};
const sizeParam = {
  name: 'size',
  in: 'query',
  required: false,
  description: 'Items per page, 1 to 50, plain digits without leading zeros. Zero, negative, over 50 or non-integer: 400 naming size.',
  schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
};
const slugParam = {
  name: 'slug',
  in: 'path',
  required: true,
  description: 'The church slug, as in the address of its public page.',
  schema: { type: 'string' },
};
const pathInt = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description: `${description} Plain decimal digits without leading zeros, so each passage has one URL for caches (\`01\`, \`1.5\`, \`0\`, \`-1\`: 400 naming the parameter).`,
  schema: { type: 'integer', minimum: 1 },
});
const abbrParam = {
  name: 'abbr',
  in: 'path',
  required: true,
  description:
    'Book abbreviation of the requested language (as listed by /books for that lang), case-insensitive; the USFM code (GEN … REV) is accepted in every language. Unknown: 404.',
  schema: { type: 'string' },
};

const rateLimitHeaders = {
  RateLimit: { description: 'Remaining quota in the current window (IETF draft standard header).', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The quota policy: 120 requests per 60-second window per key.', schema: { type: 'string' } },
};
const cacheHeaders = {
  ETag: { description: 'Strong validator; send it back in If-None-Match for a 304.', schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string' } },
};

/** What any operation may answer when the service fails in a way it did not foresee: still a problem, never caused by the request. */
const unforeseenFailure = problem('An unforeseen failure of the service, not caused by the request; retry later.');

const bibleErrors = {
  '304': { description: 'Not modified (If-None-Match matched the ETag).' },
  '500': unforeseenFailure,
  '503': problem(
    'The Bible has not been built on this server (`npm run build:bible`), or its tree and database come from different builds.',
    { 'Retry-After': { schema: { type: 'integer' } } },
  ),
};
const churchErrors = {
  '304': { description: 'Not modified (If-None-Match matched the ETag).' },
  '401': problem('Key missing, malformed, unknown or revoked.', { 'WWW-Authenticate': { schema: { type: 'string', example: 'Bearer' } } }),
  '404': problem('No such church, or its profile is not public: the two answers are byte-identical.'),
  '500': unforeseenFailure,
  '429': problem('More than 120 requests within a minute with this key (or too many invalid keys from one address).', {
    'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
    ...rateLimitHeaders,
  }),
};

function churchGet(summary: string, description: string, ok: Json, parameters: Json[] = []) {
  return {
    get: {
      tags: ['Church'],
      summary,
      description,
      security: [{ apiKey: [] }],
      parameters: [slugParam, ...parameters],
      responses: {
        '200': { ...ok, headers: { ...cacheHeaders, ...rateLimitHeaders } },
        '400': problem('A parameter is malformed or out of bounds; `parameter` names it.'),
        ...churchErrors,
      },
    },
  };
}

function bibleGet(summary: string, description: string, ok: Json, parameters: Json[], extra: Json = {}) {
  return {
    get: {
      tags: ['Bible'],
      summary,
      description,
      security: [],
      parameters,
      responses: {
        '200': {
          ...ok,
          headers: {
            ...cacheHeaders,
            'Access-Control-Allow-Origin': { schema: { type: 'string', const: BIBLE_CORS_HEADERS['Access-Control-Allow-Origin'] } },
          },
        },
        ...extra,
        ...bibleErrors,
      },
    },
  };
}

/** Builds the document once; served at /api/openapi.json. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Church Data and Bible API',
      version: '1.0.0',
      summary: 'Public, read-only, free: church data behind personal API keys, and a Bible in five languages without a key.',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Church', description: 'Public data of churches whose profile is public. Needs `Authorization: Bearer sk_live_…`.' },
      { name: 'Bible', description: 'Five public-domain or openly licensed versions. No key. Also published as static JSON for CDNs.' },
    ],
    paths: {
      '/api/public/v1/churches/{slug}': churchGet(
        'Church profile',
        'The full profile of one public church.',
        json('Church profile', ref('Church')),
      ),
      '/api/public/v1/churches/{slug}/events': churchGet(
        'Upcoming events',
        "Published, public events that have not ended yet in the church's own time zone, sorted by start then name; at most 50, no paging. An event without an end counts as ending at its start.",
        json('Events', { type: 'array', maxItems: 50, items: ref('Event') }),
      ),
      '/api/public/v1/churches/{slug}/posts': churchGet(
        'Announcements',
        'Public announcements, newest first, paged.',
        json('A page of posts', pageOf(ref('Post'))),
        [pageParam, sizeParam],
      ),
      '/api/public/v1/churches/{slug}/live': churchGet(
        'Live status',
        'Whether the church is live now, on video or radio. Not live: `isLive` false. No station at all: `stationName` and `listenPage` are null.',
        json('Live status', ref('LiveStatus')),
      ),
      '/api/public/v1/churches/{slug}/library': churchGet(
        'Library',
        'Books and PDFs, paged, optionally filtered by type.',
        json('A page of library items', pageOf(ref('LibraryItem'))),
        [
          {
            name: 'type',
            in: 'query',
            required: false,
            description: 'Item type, case-insensitive. Any other value answers 400 listing the allowed ones.',
            schema: ref('LibraryItemType'),
          },
          pageParam,
          { ...sizeParam },
        ],
      ),
      '/api/public/v1/churches/{slug}/store': churchGet(
        'Store',
        'Products visible on the church\'s public page. A product with variants carries its lowest price as a "starting at" price.',
        json('Products', { type: 'array', items: ref('Product') }),
      ),
      '/api/public/v1/churches/{slug}/gallery': churchGet(
        'Photo albums',
        'Public photo albums.',
        json('Albums', { type: 'array', items: ref('Album') }),
      ),
      '/api/public/v1/churches/{slug}/gallery/{albumId}/photos': churchGet(
        'Photos of an album',
        'The photos of one public album of this church, in album order. An album of another church, or one that is not public, answers 404.',
        json('Photos', { type: 'array', items: ref('Photo') }),
        [{ name: 'albumId', in: 'path', required: true, schema: { type: 'string' } }],
      ),
      '/api/v1/bible/versions': bibleGet(
        'Versions',
        'The five versions, with licence, attribution and counts.',
        json('Versions', ref('VersionList')),
        [],
      ),
      '/api/v1/bible/books': bibleGet(
        'Books',
        'The 66 books of the Protestant canon in canonical order, with the abbreviations of that language and chapter counts computed from the text.',
        json('Books', ref('BookList')),
        [langParam],
        {
          '400': problem('Unknown lang.'),
        },
      ),
      '/api/v1/bible/{abbr}/{chapter}': bibleGet(
        'Chapter',
        'A whole chapter.',
        json('Chapter', ref('Passage')),
        [abbrParam, pathInt('chapter', 'Chapter number from 1. Outside the book: 404.'), langParam],
        {
          '400': problem('Malformed chapter or unknown lang; `parameter` names it.'),
          '404': problem('Unknown abbreviation, or chapter outside the book.'),
        },
      ),
      '/api/v1/bible/{abbr}/{chapter}/{from}/{to}': bibleGet(
        'Verse range',
        'Verses `from` to `to` of one chapter. Both are integers >= 1 with from <= to (else 400). `from` past the last verse: 404. `to` past the last verse is clamped: `from` and `to` in the body say which verses the answer holds. Not prerendered on the static tree (nginx and _redirects rules proxy it to this service).',
        json('Passage', ref('Passage')),
        [
          abbrParam,
          pathInt('chapter', 'Chapter number from 1.'),
          pathInt('from', 'First verse.'),
          pathInt('to', 'Last verse (clamped to the chapter).'),
          langParam,
        ],
        {
          '400': problem('Malformed number, from > to, or unknown lang.'),
          '404': problem('Unknown abbreviation, chapter outside the book, or from past the last verse.'),
          '429': problem('Per-address limit of the dynamic Bible endpoints (configurable, off when 0).'),
        },
      ),
      '/api/v1/bible/search': bibleGet(
        'Search',
        'Full-text search in the version of `lang`: case- and accent-insensitive, words ANDed, "quoted phrases" matched as phrases. Results in canonical order (book, chapter, verse), paged.',
        json('A page of matching verses', pageOf(ref('SearchHit'))),
        [
          {
            name: 'q',
            in: 'query',
            required: true,
            description: 'Search text, 1 to 200 characters, with at least one word. Missing, blank or longer: 400.',
            schema: { type: 'string', minLength: 1, maxLength: 200 },
          },
          langParam,
          pageParam,
          sizeParam,
        ],
        {
          '400': problem('Missing, blank or over-long q; bad page, size or lang.'),
          '429': problem('Per-address limit of the dynamic Bible endpoints.'),
        },
      ),
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal key, `sk_live_` + 33 base62 characters + a 6-character checksum. Shown once at creation; the service keeps only an HMAC fingerprint. Use it from a server, never from a browser.',
        },
      },
      schemas: SCHEMAS,
    },
  };
}

const DESCRIPTION = `A read-only HTTP API. Every method other than GET and HEAD answers 405 with \`Allow: ${ALLOW_HEADER}\`.

**Errors** are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`: \`type\`, \`title\`, \`status\`, \`detail\`, and \`parameter\` when a parameter is at fault). Bad input answers 400 naming the parameter, never 5xx.

**Paging** (posts, library, search): \`{ items, page, size, totalItems, totalPages }\`, \`page\` zero-based, \`size\` 1 to 50.

**Church endpoints** need \`Authorization: Bearer sk_live_…\`; 120 requests per minute per key, with \`RateLimit\`/\`RateLimit-Policy\` headers and \`Retry-After\` on 429. Every request with a key counts, whatever its status. Responses are \`Cache-Control: ${CHURCH_CACHE_CONTROL}\` with a strong ETag; no CORS headers (keys do not belong in browsers). A church whose profile is not public answers exactly like an unknown one. A key is checked for its format and checksum before any lookup; a missing key or another scheme answers 401 with \`WWW-Authenticate: Bearer\`, a malformed, unknown or revoked key with \`WWW-Authenticate: Bearer error="invalid_token"\`. An address that sends too many invalid keys (30 a minute by default) gets 429 for the rest of the minute.

**Bible endpoints** need no key, carry \`Access-Control-Allow-Origin: ${BIBLE_CORS_HEADERS['Access-Control-Allow-Origin']}\`, a strong ETag (per representation: br and gzip bodies have their own) and \`Cache-Control: ${BIBLE_CACHE_CONTROL}\`. Versions, books and chapters are served precompressed (br, then gzip) by Accept-Encoding. Ranges and search may carry a per-address limit (\`BIBLE_RATE_LIMIT_PER_MINUTE\`, default 600, 0 turns it off). Until the Bible is built on a server, they answer 503 with \`Retry-After\`. \`lang\` defaults to \`fr\`. Versions, books and chapters are also published as static JSON (\`npm run build:bible\`) for a CDN, with generated nginx and \`_redirects\` rules that map these URLs onto the files.`;

const SCHEMAS: Json = {
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail'],
    properties: {
      type: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      parameter: { type: 'string', description: 'The query or path parameter at fault, when there is one.' },
    },
  },
  Church: {
    type: 'object',
    required: ['slug', 'name', 'bio', 'denomination', 'logoUrl', 'coverImageUrl', 'city', 'country', 'language', 'website', 'publicPage'],
    properties: {
      slug: { type: 'string' },
      name: { type: 'string' },
      bio: { type: 'string' },
      denomination: { type: 'string' },
      logoUrl: { type: ['string', 'null'], format: 'uri' },
      coverImageUrl: { type: ['string', 'null'], format: 'uri' },
      city: { type: 'string' },
      country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' },
      language: { type: 'string', description: 'Language code, e.g. "fr".' },
      website: { type: ['string', 'null'], format: 'uri' },
      publicPage: { type: 'string', format: 'uri' },
    },
  },
  Event: {
    type: 'object',
    required: ['name', 'slug', 'description', 'startDate', 'endDate', 'location', 'coverImageUrl', 'isFree', 'registrationPage'],
    properties: {
      name: { type: 'string' },
      slug: { type: 'string' },
      description: { type: 'string' },
      startDate: {
        type: 'string',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$',
        description: "Local date-time in the church's time zone, no seconds.",
      },
      endDate: { type: ['string', 'null'], pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$' },
      location: { type: 'string' },
      coverImageUrl: { type: ['string', 'null'], format: 'uri' },
      isFree: { type: 'boolean' },
      registrationPage: { type: 'string', format: 'uri' },
    },
  },
  LiveStatus: {
    type: 'object',
    required: ['isLive', 'isVideo', 'stationName', 'listenPage'],
    properties: {
      isLive: { type: 'boolean' },
      isVideo: { type: 'boolean' },
      stationName: { type: ['string', 'null'], description: 'Null when the church has no station.' },
      listenPage: { type: ['string', 'null'], format: 'uri', description: 'Null when the church has no station.' },
    },
  },
  Price: {
    type: 'object',
    required: ['amount', 'currency'],
    description:
      'A price for display: `amount` is a decimal string with the currency\'s minor digits ("12.50" EUR, "1500" JPY), so no client meets floating-point rounding.',
    properties: {
      amount: { type: 'string', pattern: '^\\d+(\\.\\d+)?$' },
      currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' },
    },
  },
  Post: {
    type: 'object',
    required: ['slug', 'title', 'body', 'imageUrl', 'publishedAt', 'postPage'],
    description: 'A public announcement. Posts are listed newest first.',
    properties: {
      slug: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string', description: 'Plain text; paragraphs separated by blank lines.' },
      imageUrl: { type: ['string', 'null'], format: 'uri' },
      publishedAt: { type: 'string', format: 'date-time', description: 'UTC instant, `YYYY-MM-DDTHH:MM:SSZ`.' },
      postPage: { type: 'string', format: 'uri' },
    },
  },
  LibraryItemType: {
    type: 'string',
    enum: ['PDF', 'BOOK', 'AUDIO'],
    description: 'PDF: a document to read or download; BOOK: a printed book or e-book; AUDIO: a recording.',
  },
  LibraryItem: {
    type: 'object',
    required: ['slug', 'type', 'title', 'author', 'description', 'coverImageUrl', 'isFree', 'price', 'itemPage'],
    properties: {
      slug: { type: 'string' },
      type: ref('LibraryItemType'),
      title: { type: 'string' },
      author: { type: 'string' },
      description: { type: 'string' },
      coverImageUrl: { type: ['string', 'null'], format: 'uri' },
      isFree: { type: 'boolean', description: 'True when the item can be read or heard without paying; `price` is then null.' },
      price: { oneOf: [ref('Price'), { type: 'null' }] },
      itemPage: { type: 'string', format: 'uri', description: 'Where to read, listen or buy.' },
    },
  },
  ProductVariant: { type: 'object', required: ['name', 'price'], properties: { name: { type: 'string' }, price: ref('Price') } },
  Product: {
    type: 'object',
    required: ['slug', 'name', 'description', 'imageUrl', 'price', 'priceIsStartingAt', 'variants', 'productPage'],
    description:
      'A product visible on the church\'s public page. With variants, `price` is the lowest variant price and `priceIsStartingAt` is true ("from 12.00 EUR").',
    properties: {
      slug: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      imageUrl: { type: ['string', 'null'], format: 'uri' },
      price: ref('Price'),
      priceIsStartingAt: { type: 'boolean' },
      variants: { type: 'array', items: ref('ProductVariant'), description: 'Empty for a product without variants.' },
      productPage: { type: 'string', format: 'uri' },
    },
  },
  Album: {
    type: 'object',
    required: ['albumId', 'title', 'description', 'date', 'photoCount', 'coverUrl', 'albumPage'],
    properties: {
      albumId: {
        type: 'string',
        pattern: '^[a-z0-9-]+$',
        description: 'Identifier of the album within the church, used in the photos path.',
      },
      title: { type: 'string' },
      description: { type: 'string' },
      date: { type: ['string', 'null'], format: 'date' },
      photoCount: { type: 'integer', minimum: 0 },
      coverUrl: { type: ['string', 'null'], format: 'uri', description: 'The album cover, else its first photo, else null.' },
      albumPage: { type: 'string', format: 'uri' },
    },
  },
  Photo: {
    type: 'object',
    required: ['url', 'thumbnailUrl', 'caption', 'width', 'height'],
    properties: {
      url: { type: 'string', format: 'uri' },
      thumbnailUrl: { type: ['string', 'null'], format: 'uri' },
      caption: { type: 'string' },
      width: { type: ['integer', 'null'] },
      height: { type: ['integer', 'null'] },
    },
  },
  Version: {
    type: 'object',
    required: ['code', 'lang', 'name', 'languageName', 'year', 'licence', 'attribution', 'books', 'chapters', 'verses'],
    properties: {
      code: { type: 'string', enum: ['LSG', 'KJV', 'RVR', 'BLIVRE', 'STV'] },
      lang: { type: 'string', enum: ['fr', 'en', 'es', 'pt', 'nl'] },
      name: { type: 'string' },
      languageName: { type: 'string' },
      year: { type: 'integer' },
      licence: { type: 'string' },
      attribution: { type: 'string', description: 'Show it where the text is shown (required for BLIVRE, CC BY 3.0 BR).' },
      books: { type: 'integer' },
      chapters: { type: 'integer' },
      verses: { type: 'integer' },
    },
  },
  VersionList: { type: 'object', required: ['versions'], properties: { versions: { type: 'array', items: ref('Version') } } },
  Book: {
    type: 'object',
    required: ['usfm', 'abbr', 'name', 'testament', 'chapters'],
    properties: {
      usfm: { type: 'string', description: 'Language-independent USFM code, GEN … REV; accepted as {abbr} in every language.' },
      abbr: { type: 'string', pattern: '^[A-Za-z0-9]+$', description: 'Abbreviation in this language; unique within it.' },
      name: { type: 'string' },
      testament: { type: 'string', enum: ['OT', 'NT'] },
      chapters: { type: 'integer' },
    },
  },
  BookList: {
    type: 'object',
    required: ['lang', 'version', 'books'],
    properties: {
      lang: { type: 'string' },
      version: { type: 'string' },
      books: {
        type: 'array',
        maxItems: 66,
        items: ref('Book'),
        description: 'The books of the canon that the version holds, in canonical order: all 66 for the five published versions.',
      },
    },
  },
  BookRef: {
    type: 'object',
    required: ['usfm', 'abbr', 'name'],
    properties: {
      usfm: { type: 'string' },
      abbr: { type: 'string' },
      name: { type: 'string' },
      testament: { type: 'string', enum: ['OT', 'NT'] },
    },
  },
  Verse: {
    type: 'object',
    required: ['verse', 'text'],
    properties: {
      verse: { type: 'integer' },
      text: { type: 'string', description: "Plain scripture text: no Strong's numbers, notes, cross-references or headings." },
      heading: { type: 'string', description: 'Section heading that stands before this verse, when the source has one.' },
      through: { type: 'integer', description: 'When the source joins verses (e.g. 1-2), the last verse this text covers.' },
      notes: { type: 'array', items: { type: 'string' }, description: 'Footnotes of the source, as plain text.' },
    },
  },
  Passage: {
    type: 'object',
    required: ['lang', 'version', 'book', 'chapter', 'from', 'to', 'verses'],
    properties: {
      lang: { type: 'string' },
      version: { type: 'string' },
      book: ref('BookRef'),
      chapter: { type: 'integer' },
      from: { type: 'integer', description: 'First verse held.' },
      to: { type: 'integer', description: 'Last verse held (a requested `to` past the chapter is clamped).' },
      verses: { type: 'array', items: ref('Verse') },
    },
  },
  SearchHit: {
    type: 'object',
    required: ['book', 'chapter', 'verse', 'text'],
    properties: { book: ref('BookRef'), chapter: { type: 'integer' }, verse: { type: 'integer' }, text: { type: 'string' } },
  },
};
