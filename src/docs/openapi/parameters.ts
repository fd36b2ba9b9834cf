// The parameters of the operations, with the bounds the service enforces (a value outside them answers 400 naming the parameter).
import { LANGS } from '../../../build/contract/books.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '../../../build/contract/paging.ts';
import { LangSchema } from '../../../build/contract/response-schemas.ts';
import { MAX_QUERY_LENGTH } from '../../bible/params.ts';
import { LibraryItemTypeSchema } from '../../church/responses.ts';
import type { DocumentParts, Json } from './types.ts';

const CANONICAL = 'plain decimal digits without sign or leading zeros, so that each resource has one URL for caches';

/** `{slug}` of every church path. */
export function slugParameter(): Json {
  return {
    name: 'slug',
    in: 'path',
    required: true,
    description:
      "The church's slug, as in the address of its public page. An unknown slug, and a church whose profile is not public, answer the same 404.",
    schema: { type: 'string' },
    example: 'grace-paris',
  };
}

export function albumIdParameter(): Json {
  return {
    name: 'albumId',
    in: 'path',
    required: true,
    description: 'An `albumId` of the gallery endpoint. An album of another church, or one that is not public, answers 404.',
    schema: { type: 'string' },
    example: 'paques-2026',
  };
}

/** `page` of every paged list. */
export function pageParameter(): Json {
  return {
    name: 'page',
    in: 'query',
    required: false,
    description: `Zero-based page number, 0 to ${MAX_PAGE.toLocaleString('en')}, in ${CANONICAL}. A page past the end answers 200 with empty \`items\`.`,
    schema: { type: 'integer', minimum: 0, maximum: MAX_PAGE, default: 0 },
  };
}

/** `size` of every paged list. */
export function sizeParameter(): Json {
  return {
    name: 'size',
    in: 'query',
    required: false,
    description: `Items per page, 1 to ${MAX_PAGE_SIZE}, in ${CANONICAL}.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  };
}

/** The library's `type` filter. */
export function libraryTypeParameter(parts: DocumentParts): Json {
  return {
    name: 'type',
    in: 'query',
    required: false,
    description: 'Only items of this type; matched case-insensitively.',
    schema: parts.components.ref(LibraryItemTypeSchema),
  };
}

/** `lang` of every Bible operation but the versions list; its first value is the default. */
export function langParameter(parts: DocumentParts): Json {
  return {
    name: 'lang',
    in: 'query',
    required: false,
    description: `The language, and with it the version (GET /api/v1/bible/versions lists them); \`${LANGS[0]}\` when left out.`,
    schema: { ...parts.components.ref(LangSchema), default: LANGS[0] },
  };
}

/** `{abbr}` of the chapter and range paths. */
export function abbrParameter(): Json {
  return {
    name: 'abbr',
    in: 'path',
    required: true,
    description:
      'A book abbreviation of the requested language, as GET /api/v1/bible/books lists it for that `lang`, case-insensitive; the USFM code (GEN … REV) works in every language.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9]+$' },
    example: 'Gn',
  };
}

/** `{chapter}`, `{from}`, `{to}`: integers from 1. */
export function positionParameter(name: 'chapter' | 'from' | 'to', description: string, example: number): Json {
  return {
    name,
    in: 'path',
    required: true,
    description: `${description} Written in ${CANONICAL} (\`01\`, \`1.5\` and \`0\` answer 400).`,
    schema: { type: 'integer', minimum: 1 },
    example,
  };
}

/** `q` of the search. */
export function queryParameter(): Json {
  return {
    name: 'q',
    in: 'query',
    required: true,
    description: `The words to find, all of them (AND), case- and accent-insensitive; "quoted phrases" match as phrases. 1 to ${MAX_QUERY_LENGTH} characters with at least one letter or digit.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH },
    example: '"only begotten son"',
  };
}
