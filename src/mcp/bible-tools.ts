// The Bible's MCP tools: each a thin call into an endpoint of the Bible's table (src/bible/endpoints.ts), with its text written for a model.
import { z } from 'zod';
import { LANGS } from '../../build/contract/books.ts';
import { MAX_PAGE_SIZE } from '../../build/contract/paging.ts';
import versionManifest from '../../data/bible-versions.json' with { type: 'json' };
import { SEARCH_SYNTAX } from '../bible/search-query.ts';
import { queryValue, type ToolDefinition } from './tool.ts';

/** The five versions, as a model reads them: `en` King James Version (1769), … */
export const VERSIONS_TEXT = versionManifest.versions.map((version) => `\`${version.lang}\` ${version.name}`).join(', ');

const lang = z
  .enum(LANGS as [string, ...string[]])
  .describe(
    `The language, and with it the one version of that language: ${VERSIONS_TEXT}. References and book names are read as readers of this language write them, and answers are in it.`,
  );

const page = z.number().int().min(0).optional().describe('Zero-based page number (default 0); a page past the end is empty.');
const size = z.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe(`Results per page, 1 to ${MAX_PAGE_SIZE} (default 10).`);

const REFERENCE_CONVENTIONS =
  'Write the reference as a reader of `lang` would: book names or abbreviations of that language (`John`, `Jn`, `Jean`, `Juan`, `João`, `Johannes`) or USFM codes (`JHN`, `1CO`) in any language; chapter and verse separated by `:` or `.` in every language (`John 3:16`, `Jean 3.16`), and by `,` in French, Spanish, Portuguese and Dutch (`Jn 3,16`). Ranges with `-` (`Gen 1:1-3`, `John 3:16-4:2`), whole chapters (`Ps 23`, `1 Cor 13`), several passages with `;` (`Gen 1:1-3; Ps 23`), verse lists with `,` after `:` (`John 3:16,18`). A reference the language could read two ways (`John 3,16` in English) or an open end (`ff`, `ss`) is refused, not guessed: the error says where, rewrite it.';

export const bibleTools: readonly ToolDefinition[] = [
  {
    name: 'get_bible_passage',
    title: 'Bible passage by reference',
    description: `The text of one or more Bible passages named by a reference, in one of five languages (${VERSIONS_TEXT}). Returns the normalised reference as that language's publishers write it (\`John 3:16\`, \`Jean 3.16\`), the version code, and for each passage its book, first and last verse and the verses (chapter, verse number, text, and section headings where the version has them). ${REFERENCE_CONVENTIONS} An end past the chapter or book is clamped; a start past it, or too many verses at once, is an error saying so. Numbering is each version's own (Psalm titles and a few chapter breaks differ between versions).`,
    inputSchema: {
      ref: z.string().min(1).max(200).describe('The passage(s), for example `John 3:16`, `Jn 3,16-18` (French), `Gen 1:1-3; Ps 23`.'),
      lang,
    },
    keyed: false,
    call: ({ ref, lang }, { bible }) => bible('getPassage', { query: { ref: queryValue(ref), lang: queryValue(lang) } }),
  },
  {
    name: 'search_bible',
    title: 'Search the Bible',
    description: `Full-text search in the version of one language, case- and accent-insensitive. \`q\` takes ${SEARCH_SYNTAX}. A \`q\` that reads as a reference of the language (\`Jn 3:16\`) returns those verses first (\`match: reference\`), then the verses containing its words (\`match: words\`, with the offsets of the matched words). Results are in canonical order (book, chapter, verse), paged: \`items\`, \`page\`, \`size\`, \`totalItems\` (exact), \`totalPages\`. Filters: one book, one testament. Search in the language of the words: \`love\` in \`en\`, \`amour\` in \`fr\`.`,
    inputSchema: {
      q: z.string().min(1).max(200).describe('Words to find, for example `"good shepherd"`, `faith hope -fear`, `bapti*`.'),
      lang,
      book: z
        .string()
        .optional()
        .describe('Only this book: its abbreviation in `lang` (list_bible_books gives them) or its USFM code (`JHN`, `PSA`).'),
      testament: z.enum(['OT', 'NT']).optional().describe('Only the Old (`OT`) or the New (`NT`) Testament.'),
      page,
      size,
    },
    keyed: false,
    call: ({ q, lang, book, testament, page, size }, { bible }) =>
      bible('searchBible', {
        query: {
          q: queryValue(q),
          lang: queryValue(lang),
          book: queryValue(book),
          testament: queryValue(testament),
          page: queryValue(page),
          size: queryValue(size),
        },
      }),
  },
  {
    name: 'get_parallel_passage',
    title: 'The same passage in several versions, side by side',
    description: `One passage in two to five languages (${VERSIONS_TEXT}), aligned verse by verse. \`ref\` is read in the FIRST language of \`langs\`: its reference conventions and its version's verse numbering. The other versions' verses are found through a versification mapping, never by number alone (KJV Exodus 8:1 is the French Segond's Exode 7:26; Psalm titles are verse 1 in some versions). Returns \`references\` (the passage as each version numbers it) and \`rows\`: each row holds a verse of the first language and, per other language, the verses that hold the same text in that version's own numbering; an empty list means that version has no counterpart. ${REFERENCE_CONVENTIONS}`,
    inputSchema: {
      ref: z
        .string()
        .min(1)
        .max(200)
        .describe('The passage, written as a reader of the first language would: `Ex 8:1`, `Jn 3,16-18` (first language French).'),
      langs: z
        .array(z.enum(LANGS as [string, ...string[]]))
        .min(1)
        .max(LANGS.length)
        .describe('The languages, the first one reading `ref`, for example `["en", "fr", "nl"]`; each at most once.'),
    },
    keyed: false,
    call: ({ ref, langs }, { bible }) =>
      bible('getParallel', { query: { ref: queryValue(ref), langs: queryValue((langs as string[]).join(',')) } }),
  },
  {
    name: 'get_verse_of_the_day',
    title: 'Verse of the day',
    description: `The verse of the day in the version of \`lang\` (${VERSIONS_TEXT}): a well-known passage from a list of 366, the same passage in every language on a given day (\`shared\` gives it in the shared KJV-based numbering; \`reference\` and the verses are in the version's own numbering). \`date\` is a day as YYYY-MM-DD, today in UTC when left out; a day has the same passage every year.`,
    inputSchema: {
      lang,
      date: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional()
        .describe('The day, YYYY-MM-DD (default: today in UTC).'),
    },
    keyed: false,
    call: ({ lang, date }, { bible }) => bible('getVerseOfTheDay', { query: { lang: queryValue(lang), date: queryValue(date) } }),
  },
  {
    name: 'list_bible_versions',
    title: 'Bible versions',
    description:
      "The versions this server has, one per language: language, code, name, year, licence and attribution (show the attribution when you quote a version whose licence asks for it: the Bíblia Livre's CC BY), and book, chapter and verse counts.",
    inputSchema: {},
    keyed: false,
    call: (_args, { bible }) => bible('listBibleVersions'),
  },
  {
    name: 'list_bible_books',
    title: 'Bible books of a language',
    description:
      "The 66 books of the version of `lang` in canonical order: each book's USFM code, name and abbreviation in that language, testament and chapter count. Use the names or abbreviations in references and in search_bible's `book`.",
    inputSchema: { lang },
    keyed: false,
    call: ({ lang }, { bible }) => bible('listBibleBooks', { query: { lang: queryValue(lang) } }),
  },
];
