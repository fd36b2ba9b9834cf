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
