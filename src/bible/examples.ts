// Real answers of the Bible endpoints for the document's examples: the versions of data/bible-versions.json, real verses of real builds.

import { bookByUsfm, type CanonBook, type Lang } from '../../build/contract/books.ts';
import { downloadUrl } from '../../build/contract/layout.ts';
import type {
  BooksResponse,
  ChapterLink,
  ChapterResponse,
  DownloadBody,
  DownloadLink,
  FoundReferenceListResponse,
  ParallelResponse,
  PassageResponse,
  SearchHitPage,
  VerseOfTheDayResponse,
  VersionDescription,
  VersionsResponse,
  WordMatch,
} from '../../build/contract/response-schemas.ts';
import {
  bookRef,
  booksResponse,
  type ChapterNavigation,
  chapterResponse,
  downloadVersion,
  verseOfTheDayResponse,
  versionsResponse,
} from '../../build/contract/responses.ts';
import versionManifest from '../../data/bible-versions.json' with { type: 'json' };

/** Counts of a full build of the pinned sources (docs/bible-build.md, "Versification"); test/bible/real-build.test.ts compares. */
const BUILT_COUNTS: Record<Lang, { books: number; chapters: number; verses: number }> = {
  fr: { books: 66, chapters: 1189, verses: 31_170 },
  en: { books: 66, chapters: 1189, verses: 31_102 },
  es: { books: 66, chapters: 1189, verses: 31_084 },
  pt: { books: 66, chapters: 1189, verses: 31_102 },
  nl: { books: 66, chapters: 1189, verses: 31_100 },
};

/**
 * The downloads of a full build of the pinned sources: size and SHA-256 of each uncompressed file.
 * They change with any change to the text or its shape; test/bible/real-build.test.ts compares.
 */
const BUILT_DOWNLOADS: Record<Lang, Omit<DownloadLink, 'url'>> = {
  fr: { bytes: 6_259_867, sha256: 'ebe2137967e6fed9368176cd8fc104c57f6de5eb8b065fb686954924fa43286c' },
  en: { bytes: 5_700_458, sha256: '473154d87af3f22f444e8466461be8e5e243676efd8dfa6aece1c4eb68f76eaf' },
  es: { bytes: 5_048_696, sha256: '29b09ec3f72bb68a17be3f44af6bb2d80978d524dbdefc2d05ce4c94daf36283' },
  pt: { bytes: 5_133_480, sha256: '0233da0becbe99735d1190f5b0488f17087e764887c36bba1c3b03a085509482' },
  nl: { bytes: 5_450_136, sha256: 'db45151a2634f1deb401030ebb62851f45a2b5d7d232e99f672e516c33f82fb2' },
};

const JOHN_3_16_KJV =
  'For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.';

const JOHN_3_17_KJV = 'For God sent not his Son into the world to condemn the world; but that the world through him might be saved.';

/** Verses per chapter of the KJV's first two books, as a full build counts them. */
const KJV_VERSE_COUNTS = {
  GEN: [
    31, 25, 24, 26, 32, 22, 24, 22, 29, 32, 32, 20, 18, 24, 21, 16, 27, 33, 38, 18, 34, 24, 20, 67, 34, 35, 46, 22, 35, 43, 55, 32, 20, 31,
    29, 43, 36, 30, 23, 23, 57, 38, 34, 34, 28, 34, 31, 22, 33, 26,
  ],
  EXO: [
    22, 25, 22, 31, 23, 30, 25, 32, 35, 29, 10, 51, 22, 31, 27, 36, 16, 27, 25, 26, 36, 31, 33, 18, 40, 37, 21, 43, 46, 38, 18, 35, 23, 35,
    35, 38, 29, 31, 43, 38,
  ],
};

/** GET /api/v1/bible/versions of a full build. */
export function versionsExample(): VersionsResponse {
  const versions = (versionManifest.versions as VersionDescription[]).map((info) => ({
    info,
    counts: { lang: info.lang, code: info.code, ...BUILT_COUNTS[info.lang] },
    download: { url: downloadUrl(info.lang), ...BUILT_DOWNLOADS[info.lang] },
  }));
  return versionsResponse(versions);
}

/**
 * GET /api/v1/bible/download?lang=en, abridged: the whole file holds 66 books and 1,189 chapters;
 * the example keeps the first book and the first two verses of the first chapter.
 */
export function downloadExample(): DownloadBody {
  const info = (versionManifest.versions as VersionDescription[]).find((version) => version.lang === 'en');
  if (!info) throw new Error('no version for en in the manifest');
  const genesis1 = chapterResponse(
    'en',
    'KJV',
    canon('GEN'),
    1,
    [
      { number: 1, text: 'In the beginning God created the heaven and the earth.' },
      {
        number: 2,
        text: 'And the earth was without form and void; and darkness was upon the face of the deep. And the Spirit of God moved upon the face of the waters.',
      },
    ],
    navigation('en', 31, null, link('GEN', 'en', 2)),
  );
  return {
    version: downloadVersion(info, { lang: 'en', code: 'KJV', ...BUILT_COUNTS.en }),
    books: booksExample().books.slice(0, 1),
    // The chapter's own from/to (1-31): the example drops verses, the file has them all.
    chapters: [{ ...genesis1, to: 31 }],
  };
}

/** The first two books of GET /api/v1/bible/books?lang=en, with the KJV's verses per chapter. */
export function booksExample(): BooksResponse {
  return booksResponse('en', 'KJV', [
    { canon: canon('GEN'), chapters: 50, verseCounts: KJV_VERSE_COUNTS.GEN },
    { canon: canon('EXO'), chapters: 40, verseCounts: KJV_VERSE_COUNTS.EXO },
  ]);
}

/** GET /api/v1/bible/Ps/117: the shortest chapter, in the default language, its poetry lines as the source sets them. */
export function chapterExample(): ChapterResponse {
  return chapterResponse(
    'fr',
    'LSG',
    canon('PSA'),
    117,
    [
      {
        number: 1,
        text: 'Louez l’Éternel, vous toutes les nations, Célébrez-le, vous tous les peuples!',
        poetry: [
          { at: 0, indent: 1 },
          { at: 42, indent: 1 },
        ],
      },
      {
        number: 2,
        text: 'Car sa bonté pour nous est grande, Et sa fidélité dure à toujours. Louez l’Éternel!',
        poetry: [
          { at: 0, indent: 1 },
          { at: 35, indent: 1 },
          { at: 67, indent: 1 },
        ],
      },
    ],
    navigation('fr', 2, link('PSA', 'fr', 116), link('PSA', 'fr', 118)),
  );
}

/** GET /api/v1/bible/John/3/16/16?lang=en (words of Jesus), and GET /api/v1/bible/Gn/1/1/1 (the heading before it, a paragraph start). */
export function rangeExamples(): Record<'john3v16' | 'genesis1v1', ChapterResponse> {
  return {
    john3v16: chapterResponse(
      'en',
      'KJV',
      canon('JHN'),
      3,
      // Jesus speaks to Nicodemus: the whole verse is red-letter text in the KJV.
      [{ number: 16, text: JOHN_3_16_KJV, paragraphs: [0], wordsOfJesus: [{ start: 0, end: JOHN_3_16_KJV.length }] }],
      navigation('en', 36, link('JHN', 'en', 2), link('JHN', 'en', 4)),
    ),
    genesis1v1: chapterResponse(
      'fr',
      'LSG',
      canon('GEN'),
      1,
      [
        {
          number: 1,
          text: 'Au commencement, Dieu créa les cieux et la terre.',
          heading: 'LES TEMPS ANCIENS / DEPUIS LA CRÉATION JUSQU’À ABRAHAM / Création du monde',
          paragraphs: [0],
        },
      ],
      navigation('fr', 31, null, link('GEN', 'fr', 2)),
    ),
  };
}

/** GET /api/v1/bible/search?q="only begotten son"&lang=en&size=2 */
export function searchExample(): SearchHitPage {
  const john = bookRef(canon('JHN'), 'en');
  const john1v18 = 'No man hath seen God at any time; the only begotten Son, which is in the bosom of the Father, he hath declared him.';
  return {
    items: [
      { match: 'words', book: john, chapter: 1, verse: 18, text: john1v18, matches: [wordMatch(john1v18, 'only begotten Son')] },
      { match: 'words', book: john, chapter: 3, verse: 16, text: JOHN_3_16_KJV, matches: [wordMatch(JOHN_3_16_KJV, 'only begotten Son')] },
    ],
    page: 0,
    size: 2,
    totalItems: 5,
    totalPages: 3,
  };
}

/** A chapter's navigation: its size and neighbours, and its version's attribution from the manifest. */
function navigation(lang: Lang, verseCount: number, previous: ChapterLink | null, next: ChapterLink | null): ChapterNavigation {
  const info = (versionManifest.versions as VersionDescription[]).find((version) => version.lang === lang);
  if (!info) throw new Error(`no version for ${lang} in the manifest`);
  return { verseCount, previous, next, attribution: info.attribution };
}

function link(usfm: string, lang: Lang, chapter: number): ChapterLink {
  return { usfm, abbr: canon(usfm).names[lang].abbr, chapter };
}

/** GET /api/v1/bible/passage?ref=Jn 3:16-17&lang=en */
export function passageExample(): PassageResponse {
  return {
    lang: 'en',
    version: 'KJV',
    reference: 'John 3:16-17',
    passages: [
      {
        reference: 'John 3:16-17',
        book: bookRef(canon('JHN'), 'en'),
        from: { chapter: 3, verse: 16 },
        to: { chapter: 3, verse: 17 },
        // Each verse with the layout fields of the chapter's verses: Jesus speaks both.
        verses: [
          { chapter: 3, verse: 16, text: JOHN_3_16_KJV, paragraphs: [0], wordsOfJesus: [{ start: 0, end: JOHN_3_16_KJV.length }] },
          { chapter: 3, verse: 17, text: JOHN_3_17_KJV, wordsOfJesus: [{ start: 0, end: JOHN_3_17_KJV.length }] },
        ],
      },
    ],
  };
}

/** GET /api/v1/bible/parallel?ref=Ex 8:1&langs=en,fr: the KJV's Exodus 8:1 is the LSG's 7:26. */
export function parallelExample(): ParallelResponse {
  const attribution = (lang: Lang) => navigation(lang, 1, null, null).attribution;
  return {
    langs: ['en', 'fr'],
    reference: 'Exodus 8:1',
    versions: [
      { lang: 'en', version: 'KJV', attribution: attribution('en') },
      { lang: 'fr', version: 'LSG', attribution: attribution('fr') },
    ],
    passages: [
      {
        references: { en: 'Exodus 8:1', fr: 'Exode 7.26' },
        book: bookRef(canon('EXO'), 'en'),
        rows: [
          {
            en: [
              {
                chapter: 8,
                verse: 1,
                text: 'And the LORD spake unto Moses, Go unto Pharaoh, and say unto him, Thus saith the LORD, Let my people go, that they may serve me.',
              },
            ],
            fr: [
              {
                chapter: 7,
                verse: 26,
                paragraphs: [0],
                text: 'L’Éternel dit à Moïse: Va vers Pharaon, et tu lui diras: Ainsi parle l’Éternel: Laisse aller mon peuple, afin qu’il me serve.',
              },
            ],
          },
        ],
      },
    ],
  };
}

/** GET /api/v1/bible/references?lang=fr&text=Lisez Jn 3,16 et le Ps 23. */
export function referencesExample(): FoundReferenceListResponse {
  return {
    lang: 'fr',
    version: 'LSG',
    references: [
      {
        start: 6,
        end: 13,
        text: 'Jn 3,16',
        reference: 'Jean 3.16',
        book: bookRef(canon('JHN'), 'fr'),
        from: { chapter: 3, verse: 16 },
        to: { chapter: 3, verse: 16 },
      },
      {
        start: 20,
        end: 25,
        text: 'Ps 23',
        reference: 'Psaumes 23',
        book: bookRef(canon('PSA'), 'fr'),
        from: { chapter: 23, verse: 1 },
        to: { chapter: 23, verse: 6 },
      },
    ],
  };
}

/** GET /api/v1/bible/verse-of-the-day?lang=en&date=2026-02-01 (the build's file of 02-01). */
export function verseOfTheDayExample(): VerseOfTheDayResponse {
  const { attribution } = navigation('en', 36, null, null);
  return verseOfTheDayResponse({ day: '02-01', lang: 'en', version: 'KJV', shared: 'JHN 3:16', attribution }, canon('JHN'), [
    { chapter: 3, verse: { number: 16, text: JOHN_3_16_KJV, paragraphs: [0], wordsOfJesus: [{ start: 0, end: JOHN_3_16_KJV.length }] } },
  ]);
}

/** Where `words` stand in `text`, as a search hit reports a match. */
function wordMatch(text: string, words: string): WordMatch {
  const offset = text.indexOf(words);
  if (offset < 0) throw new Error(`"${words}" is not in "${text}"`);
  return { offset, length: words.length };
}

function canon(usfm: string): CanonBook {
  const book = bookByUsfm(usfm);
  if (!book) throw new Error(`${usfm} is not a canonical book`);
  return book;
}
