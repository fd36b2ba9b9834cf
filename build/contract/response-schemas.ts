// The bodies of the Bible endpoints 9-13 as schemas: their TypeScript types, the OpenAPI components and the tests' checks come from here.
import { type Static, Type } from '@sinclair/typebox';
import { CANON, LANGS, type Testament } from './books.ts';
import { PageSchema } from './paging.ts';
import { Nullable, StringEnum } from './schema-shorthands.ts';

/** The language of a version; each language has exactly one. */
export const LangSchema = StringEnum(LANGS, {
  $id: 'Lang',
  description: 'Language of a Bible version: fr (LSG), en (KJV), es (RVR), pt (BLIVRE), nl (STV).',
});

export const TestamentSchema = StringEnum<Testament>(['OT', 'NT'], { $id: 'Testament', description: 'Old or New Testament.' });

/** How a version describes itself; the version manifest (data/bible-versions.json) holds the same fields. */
export const VersionDescriptionSchema = Type.Object({
  code: Type.String({ pattern: '^[A-Z]+$', description: 'Version code.', examples: ['LSG'] }),
  lang: LangSchema,
  name: Type.String({ minLength: 1, examples: ['Louis Segond 1910'] }),
  languageName: Type.String({ minLength: 1, description: 'The language, named in itself.', examples: ['Français'] }),
  year: Type.Integer({ description: 'Year of the text.', examples: [1910] }),
  licence: Type.String({ minLength: 1, examples: ['Public domain'] }),
  attribution: Type.String({
    minLength: 1,
    description: 'Show it where the text is shown (the Bíblia Livre, CC BY 3.0 BR, requires it).',
  }),
});

/** Counts computed from the built text. */
const counts = {
  books: Type.Integer({ minimum: 0, maximum: CANON.length, examples: [66] }),
  chapters: Type.Integer({ minimum: 0, examples: [1189] }),
  verses: Type.Integer({ minimum: 0, description: 'Verse entries of the version.', examples: [31170] }),
};

/** Where a version's download lies, and how to check it once fetched. */
export const DownloadLinkSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^/',
      description:
        'The Download body of this version: a path on the host this list came from (resolve it against the URL of the list). Sent with Content-Encoding br or gzip to clients that accept it.',
      examples: ['/api/v1/bible/download?lang=fr'],
    }),
    bytes: Type.Integer({
      minimum: 1,
      description: 'Size of the uncompressed file in bytes (after decoding any Content-Encoding).',
      examples: [7_000_000],
    }),
    sha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'SHA-256 of the uncompressed file (after decoding any Content-Encoding), lower-case hex: check the file with it; it changes exactly when the file does.',
    }),
  },
  {
    $id: 'DownloadLink',
    additionalProperties: false,
    description: 'The whole version in one file, for offline use: one request instead of one per chapter.',
  },
);

/** One entry of endpoint 9; the key order is the response's. */
export const VersionSchema = Type.Object(
  { ...VersionDescriptionSchema.properties, ...counts, download: DownloadLinkSchema },
  { $id: 'Version', additionalProperties: false, description: 'A version, with licence, attribution, counts and its download.' },
);

/** Body of endpoint 9 (versions). */
export const VersionListSchema = Type.Object(
  { versions: Type.Array(VersionSchema, { maxItems: LANGS.length }) },
  { $id: 'VersionList', additionalProperties: false },
);

const bookRefProperties = {
  usfm: Type.String({
    pattern: '^[0-9A-Z]{3}$',
    description: 'Language-independent USFM code, GEN … REV; accepted as {abbr} in every language.',
    examples: ['GEN'],
  }),
  abbr: Type.String({
    pattern: '^[A-Za-z0-9]+$',
    description: 'Abbreviation in this language, unique within it; {abbr} in paths.',
    examples: ['Gn'],
  }),
  name: Type.String({ minLength: 1, description: 'Name in this language.', examples: ['Genèse'] }),
  testament: TestamentSchema,
};

/** A canonical book as responses name it in one language. */
export const BookRefSchema = Type.Object(bookRefProperties, { $id: 'BookRef', additionalProperties: false });

/** One entry of endpoint 10: a book, how many chapters the version has of it and how many verses each holds. */
export const BookSchema = Type.Object(
  {
    ...bookRefProperties,
    chapters: Type.Integer({ minimum: 1, description: 'Chapters of the book in this version.', examples: [50] }),
    verseCounts: Type.Array(Type.Integer({ minimum: 0 }), {
      minItems: 1,
      description:
        'The last verse number of each chapter (index 0 is chapter 1), for a verse picker; 0 for a chapter the source leaves empty.',
      examples: [[31, 25, 24]],
    }),
  },
  { $id: 'Book', additionalProperties: false },
);

/** Body of endpoint 10 (books of the version in one language). */
export const BookListSchema = Type.Object(
  {
    lang: LangSchema,
    version: Type.String({ description: 'Version code.', examples: ['LSG'] }),
    books: Type.Array(BookSchema, {
      maxItems: CANON.length,
      description: 'The books of the canon the version has (all 66), in canonical order.',
    }),
  },
  { $id: 'BookList', additionalProperties: false },
);

/** A poetry line of a verse: where it starts in `text` and how far it is indented. */
export const PoetryLineSchema = Type.Object(
  {
    at: Type.Integer({ minimum: 0, description: 'Offset in `text` (UTF-16 code units) where the line starts.', examples: [0] }),
    indent: Type.Integer({ minimum: 1, description: 'Indent level: 1 for `\\q1`, 2 for `\\q2`.', examples: [1] }),
  },
  { $id: 'PoetryLine', additionalProperties: false },
);

/** A part of a verse's text: `text.slice(start, end)`. */
export const SpanSchema = Type.Object(
  {
    start: Type.Integer({ minimum: 0, description: 'Offset of its first character in `text` (UTF-16 code units).', examples: [0] }),
    end: Type.Integer({ minimum: 1, description: 'Offset just past its last character (exclusive).', examples: [12] }),
  },
  { $id: 'Span', additionalProperties: false, description: 'A part of the verse text: text.slice(start, end).' },
);

/** One verse as the chapter and range responses carry it; the key order is the response's. */
export const VerseSchema = Type.Object(
  {
    verse: Type.Integer({ minimum: 1, examples: [1] }),
    text: Type.String({
      description: "Plain scripture text: no Strong's numbers, notes, cross-references or headings.",
      examples: ['Au commencement, Dieu créa les cieux et la terre.'],
    }),
    heading: Type.Optional(
      Type.String({ description: 'Section heading(s) standing before this verse, joined by " / "; only when the source has one.' }),
    ),
    notes: Type.Optional(
      Type.Array(Type.String(), { minItems: 1, description: 'Footnotes of the source, as plain text; only when there are some.' }),
    ),
    paragraphs: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0 }), {
        minItems: 1,
        description:
          'Offsets in `text` (UTF-16 code units) where a paragraph starts, 0 when the verse opens one; only when the source marks paragraphs here (USFM `\\p`, SWORD `x-p` milestones).',
        examples: [[0]],
      }),
    ),
    poetry: Type.Optional(
      Type.Array(PoetryLineSchema, {
        minItems: 1,
        description: 'Poetry lines that start in this verse (USFM `\\q1`/`\\q2`, SWORD `<l>`); only when there are some.',
      }),
    ),
    wordsOfJesus: Type.Optional(
      Type.Array(SpanSchema, {
        minItems: 1,
        description:
          'Words of Jesus as spans of `text` (USFM `\\wj`, SWORD `<q who="Jesus">`), for red-letter display; only when the verse has some.',
      }),
    ),
  },
  { $id: 'Verse', additionalProperties: false },
);

/** A neighbouring chapter, for previous/next links; `null` in its place at either end of the version. */
export const ChapterLinkSchema = Type.Object(
  {
    usfm: bookRefProperties.usfm,
    abbr: bookRefProperties.abbr,
    chapter: Type.Integer({ minimum: 1, examples: [2] }),
  },
  { $id: 'ChapterLink', additionalProperties: false, description: 'A chapter of this version, named for a link: /{abbr}/{chapter}.' },
);

/** Body of endpoints 11 and 12: a whole chapter, or the verses `from` to `to` of it. */
export const PassageSchema = Type.Object(
  {
    lang: LangSchema,
    version: Type.String({ description: 'Version code.', examples: ['LSG'] }),
    book: BookRefSchema,
    chapter: Type.Integer({ minimum: 1, examples: [1] }),
    from: Type.Integer({ minimum: 1, description: 'First verse held.', examples: [1] }),
    to: Type.Integer({ minimum: 1, description: 'Last verse held (a requested `to` past the chapter is clamped).', examples: [31] }),
    verseCount: Type.Integer({
      minimum: 1,
      description: 'The last verse number of the whole chapter, whatever slice this response holds.',
      examples: [31],
    }),
    previous: Nullable(ChapterLinkSchema, {
      description: 'The chapter before (the last of the previous book at a book’s start); null before the first chapter of the version.',
    }),
    next: Nullable(ChapterLinkSchema, {
      description: 'The chapter after (the first of the next book at a book’s end); null after the last chapter of the version.',
    }),
    attribution: Type.String({
      minLength: 1,
      description: 'The version’s attribution, to show with the text (the Bíblia Livre, CC BY 3.0 BR, requires it).',
    }),
    verses: Type.Array(VerseSchema, { minItems: 1, description: 'In order; a verse the version leaves out is absent.' }),
  },
  { $id: 'Passage', additionalProperties: false },
);

/** The version a download holds: a versions entry without the download link. */
export const DownloadVersionSchema = Type.Object(
  { ...VersionDescriptionSchema.properties, ...counts },
  { $id: 'DownloadVersion', additionalProperties: false, description: 'The version the file holds, with licence, attribution and counts.' },
);

/** Body of /download: one version whole, in the shapes of the books and chapter responses. */
export const DownloadSchema = Type.Object(
  {
    version: DownloadVersionSchema,
    books: Type.Array(BookSchema, {
      maxItems: CANON.length,
      description: 'Exactly the `books` of GET /api/v1/bible/books for this language.',
    }),
    chapters: Type.Array(PassageSchema, {
      description:
        'Every chapter that has verses, in canonical order, each exactly the body GET /api/v1/bible/{abbr}/{chapter} answers (navigation and attribution included).',
    }),
  },
  { $id: 'Download', additionalProperties: false },
);

/** A chapter and a verse: the bounds of a passage. */
export const VersePointSchema = Type.Object(
  { chapter: Type.Integer({ minimum: 1, examples: [3] }), verse: Type.Integer({ minimum: 1, examples: [16] }) },
  { $id: 'VersePoint', additionalProperties: false },
);

/** A verse of a passage, which may cross chapters: the verse and its chapter. */
export const PassageVerseSchema = Type.Object(
  { chapter: Type.Integer({ minimum: 1, examples: [3] }), ...VerseSchema.properties },
  { $id: 'PassageVerse', additionalProperties: false },
);

/** One passage of /passage: where it is, and its verses. */
export const PassageSectionSchema = Type.Object(
  {
    reference: Type.String({
      description:
        'The passage normalised in the language: full book name, chapter:verse, the verses held ("Jean 3:16-4:2", "Psaumes 23").',
      examples: ['John 3:16-17'],
    }),
    book: BookRefSchema,
    from: VersePointSchema,
    to: VersePointSchema,
    verses: Type.Array(PassageVerseSchema, { minItems: 1, description: 'In order; a verse the version leaves out is absent.' }),
  },
  { $id: 'PassageSection', additionalProperties: false },
);

/** Body of /passage: the passages `ref` names, in the order named. */
export const PassageListSchema = Type.Object(
  {
    lang: LangSchema,
    version: Type.String({ description: 'Version code.', examples: ['KJV'] }),
    reference: Type.String({ description: 'The passages\' references, joined by "; ".', examples: ['John 3:16-17'] }),
    passages: Type.Array(PassageSectionSchema, { minItems: 1 }),
  },
  { $id: 'PassageList', additionalProperties: false },
);

/** One language's part of a row of /parallel: the verses that hold what the row's verses hold, in that version's numbering. */
const ParallelCellSchema = Type.Array(PassageVerseSchema, {
  description: 'In this version’s own numbering and order; empty when this version has no verse holding what the row holds.',
});

/** A row of /parallel: the verses of each language that hold the same text, found through the versification mapping. */
export const ParallelRowSchema = Type.Object(Object.fromEntries(LANGS.map((lang) => [lang, Type.Optional(ParallelCellSchema)])), {
  $id: 'ParallelRow',
  additionalProperties: false,
  description:
    'One group of aligned verses, a property per language asked for: a verse of the first language and its counterparts, or several verses when one version joins what another splits.',
  examples: [
    {
      en: [{ chapter: 8, verse: 1, text: 'And the LORD spake unto Moses, Go unto Pharaoh…' }],
      fr: [{ chapter: 7, verse: 26, text: 'L’Éternel dit à Moïse: Va vers Pharaon…' }],
    },
  ],
});

/** One passage of /parallel, in every language asked for. */
export const ParallelPassageSchema = Type.Object(
  {
    references: Type.Object(Object.fromEntries(LANGS.map((lang) => [lang, Type.Optional(Nullable(Type.String()))])), {
      additionalProperties: false,
      description:
        'The passage each version holds, normalised in its language ("Exode 7.26" for KJV "Exodus 8:1"); null when a version holds none of it.',
    }),
    book: BookRefSchema,
    rows: Type.Array(ParallelRowSchema, { minItems: 1 }),
  },
  { $id: 'ParallelPassage', additionalProperties: false },
);

/** Body of /parallel: the passages `ref` names in the first language, aligned verse by verse with the others. */
export const ParallelSchema = Type.Object(
  {
    langs: Type.Array(LangSchema, { minItems: 1, description: 'The languages asked for, in order; `ref` was read in the first.' }),
    reference: Type.String({ description: 'The passages as the first language writes them.', examples: ['Exodus 8:1'] }),
    versions: Type.Array(
      Type.Object(
        { lang: LangSchema, version: Type.String({ examples: ['LSG'] }), attribution: Type.String({ minLength: 1 }) },
        { additionalProperties: false },
      ),
      { description: 'Each language’s version, in the order of `langs`: show the attribution with the text.' },
    ),
    passages: Type.Array(ParallelPassageSchema, { minItems: 1 }),
  },
  { $id: 'Parallel', additionalProperties: false },
);

/** A reference found in a text by /references. */
export const FoundReferenceSchema = Type.Object(
  {
    start: Type.Integer({
      minimum: 0,
      description: 'Where it starts in `text`, in UTF-16 code units (JavaScript string indexes).',
      examples: [6],
    }),
    end: Type.Integer({ minimum: 0, description: 'Where it ends: `text.slice(start, end)` is the reference as written.', examples: [13] }),
    text: Type.String({ description: 'The reference as written.', examples: ['Jn 3,16'] }),
    reference: Type.String({ description: 'Normalised in the language, as /passage writes it.', examples: ['Jean 3.16'] }),
    book: BookRefSchema,
    from: VersePointSchema,
    to: VersePointSchema,
  },
  { $id: 'FoundReference', additionalProperties: false },
);

/** Body of /references: the passages found in a text, in order. */
export const FoundReferenceListSchema = Type.Object(
  {
    lang: LangSchema,
    version: Type.String({ description: 'Version code: the verses of `from` and `to` are its.', examples: ['LSG'] }),
    references: Type.Array(FoundReferenceSchema),
  },
  { $id: 'FoundReferenceList', additionalProperties: false },
);

/** A day of the year, the same every year: MM-DD (02-29 included). */
export const DayOfYearSchema = Type.String({
  pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
  description: 'Month and day, MM-DD: the same passage every year on this day (02-29 in leap years).',
  examples: ['03-01'],
});

/**
 * Body of the verse of the day in one language: the day's passage in the shared numbering, and the
 * verses that hold it in this version (found through the versification mapping, so every language
 * has the same passage on a day). The build writes one per language and day; the service sends the same bytes.
 */
export const VerseOfTheDaySchema = Type.Object(
  {
    day: DayOfYearSchema,
    lang: LangSchema,
    version: Type.String({ description: 'Version code.', examples: ['LSG'] }),
    shared: Type.String({
      description:
        'The passage in the shared numbering (KJV verse numbers, USFM book code), the same in every language on this day; `reference` and the verses are in this version’s own numbering.',
      examples: ['EXO 8:1'],
    }),
    ...PassageSectionSchema.properties,
    attribution: Type.String({
      minLength: 1,
      description: 'The version’s attribution, to show with the text (the Bíblia Livre, CC BY 3.0 BR, requires it).',
    }),
  },
  { $id: 'VerseOfTheDay', additionalProperties: false },
);

/** A word of a hit that matched q: where it stands in `text`. */
export const WordMatchSchema = Type.Object(
  {
    offset: Type.Integer({ minimum: 0, description: 'Start in `text`, in UTF-16 code units (JavaScript string indices).' }),
    length: Type.Integer({ minimum: 1, description: 'Length in UTF-16 code units; a matched phrase is one span.' }),
  },
  { $id: 'WordMatch', additionalProperties: false },
);

/** One hit of endpoint 13. */
export const SearchHitSchema = Type.Object(
  {
    match: StringEnum(['reference', 'words'] as const, {
      description: '`reference`: a verse of the passage q names (these come first); `words`: a verse whose text matches the words of q.',
    }),
    reference: Type.Optional(
      Type.String({ description: 'Reference matches only: the passage q names, normalised in the language.', examples: ['John 3:16'] }),
    ),
    book: BookRefSchema,
    chapter: Type.Integer({ minimum: 1, examples: [3] }),
    verse: Type.Integer({ minimum: 1, examples: [16] }),
    text: Type.String({ description: 'The whole verse.' }),
    matches: Type.Array(WordMatchSchema, { description: 'The words of `text` that matched, in order; empty for a reference match.' }),
  },
  { $id: 'SearchHit', additionalProperties: false },
);

/** Body of endpoint 13: hits in canonical order (book, chapter, verse), paged. */
export const SearchHitPageSchema = PageSchema(SearchHitSchema, {
  $id: 'SearchHitPage',
  description: 'Matching verses in canonical order.',
});

export type VersionDescription = Static<typeof VersionDescriptionSchema>;
export type DownloadLink = Static<typeof DownloadLinkSchema>;
export type VersionListEntry = Static<typeof VersionSchema>;
export type VersionsResponse = Static<typeof VersionListSchema>;
export type BookRef = Static<typeof BookRefSchema>;
export type BookListEntry = Static<typeof BookSchema>;
export type BooksResponse = Static<typeof BookListSchema>;
export type PoetryLine = Static<typeof PoetryLineSchema>;
export type Span = Static<typeof SpanSchema>;
export type VerseResponse = Static<typeof VerseSchema>;
export type ChapterLink = Static<typeof ChapterLinkSchema>;
export type ChapterResponse = Static<typeof PassageSchema>;
export type DownloadVersion = Static<typeof DownloadVersionSchema>;
export type DownloadBody = Static<typeof DownloadSchema>;
export type VersePoint = Static<typeof VersePointSchema>;
export type PassageVerse = Static<typeof PassageVerseSchema>;
export type PassageSection = Static<typeof PassageSectionSchema>;
export type PassageResponse = Static<typeof PassageListSchema>;
export type VerseOfTheDayResponse = Static<typeof VerseOfTheDaySchema>;
export type ParallelResponse = Static<typeof ParallelSchema>;
export type FoundReferenceListResponse = Static<typeof FoundReferenceListSchema>;
export type ParallelPassage = Static<typeof ParallelPassageSchema>;
export type WordMatch = Static<typeof WordMatchSchema>;
export type SearchHit = Static<typeof SearchHitSchema>;
export type SearchHitPage = Static<typeof SearchHitPageSchema>;
