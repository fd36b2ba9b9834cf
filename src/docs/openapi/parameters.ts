// The parameters of the operations, with the bounds the service enforces (a value outside them answers 400 naming the parameter).

import { LANGS } from '../../../build/contract/books.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '../../../build/contract/paging.ts';
import { LangSchema, TestamentSchema } from '../../../build/contract/response-schemas.ts';
import { MAX_QUERY_LENGTH, MAX_REF_LENGTH } from '../../bible/params.ts';
import { MAX_SEARCH_COST } from '../../bible/search-cost.ts';
import { MAX_PHRASE_WORDS, MAX_SEARCH_TERMS, MAX_SEARCH_WORDS, SEARCH_SYNTAX } from '../../bible/search-query.ts';
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
    description: `The language, and with it the version (GET /api/v1/bible/versions lists them); \`${LANGS[0]}\` when left out. Read in any letter case (\`EN\` is \`en\`); the values listed are the canonical ones, which answers and links use.`,
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

/** `{chapter}`, `{from}`, `{to}`, `{verse}`: integers from 1. */
export function positionParameter(name: 'chapter' | 'from' | 'to' | 'verse', description: string, example: number): Json {
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
    description: `What to find, case- and accent-insensitive: ${SEARCH_SYNTAX}. Anything else (NEAR, AND, parentheses…) is searched as text. A repeated word or phrase counts once; at most ${MAX_SEARCH_TERMS} distinct terms, ${MAX_PHRASE_WORDS} words in one phrase and ${MAX_SEARCH_WORDS} words in all, so that no query can cost more than a bounded amount (beyond: 400 naming q). Before it runs, a search's cost is estimated from the index (the verses its words are in; a phrase reads its rarest word once per word, OR adds its alternatives, a prefix* all the words it expands to): over ${MAX_SEARCH_COST.toLocaleString('en-US')} it is refused with a 400 naming q (very common words repeated in a phrase, many very common words joined by OR, a two-letter prefix of very common words). Every single word is under that limit. A q that reads as Bible references in the language (\`Jn 3:16-18\`, \`1 Cor 13\`, \`Gen 1:1-3; Ps 23\`, as /passage reads \`ref\`) answers with those verses first, marked \`match: reference\`, then the verses matching its words. 1 to ${MAX_QUERY_LENGTH} characters with at least one letter or digit.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH },
    example: '"only begotten son"',
  };
}

/** `book` filter of the search. */
export function bookFilterParameter(): Json {
  return {
    name: 'book',
    in: 'query',
    required: false,
    description:
      'Only this book: its abbreviation in `lang` (GET /api/v1/bible/books) or its USFM code, case-insensitive. Unknown: 400 naming book.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9]+$' },
    example: 'JHN',
  };
}

/** `testament` filter of the search. */
export function testamentFilterParameter(parts: DocumentParts): Json {
  return {
    name: 'testament',
    in: 'query',
    required: false,
    description: 'Only the Old (OT) or the New (NT) Testament. Anything else: 400 naming testament.',
    schema: parts.components.ref(TestamentSchema),
  };
}

/** `ref` of /passage. */
export function referenceParameter(maxVerses: number): Json {
  return {
    name: 'ref',
    in: 'query',
    required: true,
    description: `One or more passages as readers of \`lang\` write them (docs/references.md), in its book names and abbreviations (with or without a final dot, numbered books as \`1 Jn\`, \`1Jn\`, \`I Jean\`, \`1er Jean\`, \`First John\`) or USFM codes, case- and accent-insensitive. Between chapter and verse \`:\` or \`.\` in every language (\`John 3:16\`, \`Jean 3.16\`), and \`,\` in French, Spanish, Portuguese and Dutch (\`Jn 3,16\`, one verse). After \`:\` or \`.\`, \`,\` lists verses (\`John 3:16,18\`, two verses); after \`,\`, \`.\` lists them (\`Mc 3,2-7.12\`). Ranges with \`-\` or \`–\` (\`Gn 1,1-3\`, \`John 3:16-4:2\`, \`Ps 23-24\` chapters), passages with \`;\` (\`Gen 1:1-3; Ps 23\`; after \`;\` a lone number is a chapter), whole chapters (\`1 Cor 13\`), in a book of one chapter a lone number is a verse (\`Jude 3\`); part letters are read as the whole verse (\`14a\`), \`s\`/\`f\` as the next verse. In English \`,\` after a chapter lists chapters (\`Ps 23, 24\`). A reference its language could read two ways (\`John 3,16\` in English, \`Jn 3,16, 4,2\`, \`ss\`/\`ff\` with no end) is refused rather than guessed. At most ${MAX_REF_LENGTH} characters and ${maxVerses} verses in all (\`BIBLE_PASSAGE_MAX_VERSES\`). What cannot be read or told apart, a chapter or verse the version lacks, or too many verses: 400 naming ref, the detail saying what and where (1-based character).`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_REF_LENGTH },
    example: 'Jn 3:16-17',
  };
}
