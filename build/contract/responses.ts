// Bodies of the Bible endpoints 9-12 and their builders: the static tree holds them, the service sends the same bytes.
import type { CanonBook, Lang, Testament } from './books.ts';
import type { VersionCounts } from './stamp.ts';
import type { PoetryLine, Span, Verse } from './verse.ts';

/** One entry of endpoint 9: a version's description and counts; the key order is the response's. */
export interface VersionListEntry {
  code: string;
  lang: Lang;
  name: string;
  languageName: string;
  year: number;
  licence: string;
  attribution: string;
  books: number;
  chapters: number;
  verses: number;
}

/** Body of endpoint 9 (versions). */
export interface VersionsResponse {
  versions: VersionListEntry[];
}

/** How a version describes itself: the version manifest's published fields. */
export type VersionDescription = Omit<VersionListEntry, 'books' | 'chapters' | 'verses'>;

/** A canonical book as responses name it in one language. */
export interface BookRef {
  usfm: string;
  abbr: string;
  name: string;
  testament: Testament;
}

/** One entry of endpoint 10: a book and how many chapters the version has of it. */
export interface BookListEntry extends BookRef {
  chapters: number;
  /** Verses in each chapter (index 0 is chapter 1), for a verse picker; a merged verse counts up to its last number. */
  verseCounts?: number[];
}

/** A neighbouring chapter, for previous/next links. */
export interface ChapterLink {
  usfm: string;
  abbr: string;
  chapter: number;
}

/** What a chapter file adds to the chapter: its neighbours across books, its size, and the licence's attribution. */
export interface ChapterNavigation {
  /** The previous chapter (the last of the previous book at a book's start); null before Genesis 1. */
  previous: ChapterLink | null;
  /** The next chapter; null after Revelation 22. */
  next: ChapterLink | null;
  /** Verses in the whole chapter (the last verse number), whatever slice this response holds. */
  verseCount: number;
  /** The version's attribution text, to show with the text (the Bíblia Livre's CC BY licence requires it). */
  attribution: string;
}

/** Body of endpoint 10 (books of the version in one language). */
export interface BooksResponse {
  lang: Lang;
  version: string;
  books: BookListEntry[];
}

/** One verse as the chapter and range responses carry it; the key order is the response's. */
export interface VerseResponse {
  verse: number;
  text: string;
  heading?: string;
  through?: number;
  notes?: string[];
  /** Offsets in `text` where a paragraph starts (0: the verse opens one). */
  paragraphs?: number[];
  /** Poetry lines starting in this verse: offset in `text` and indent level. */
  poetry?: PoetryLine[];
  /** Words of Jesus as spans of `text` (UTF-16 offsets, end exclusive). */
  wordsOfJesus?: Span[];
}

/** Body of endpoints 11 and 12. */
export interface ChapterResponse {
  lang: Lang;
  version: string;
  book: BookRef;
  chapter: number;
  from: number;
  to: number;
  verseCount?: number;
  previous?: ChapterLink | null;
  next?: ChapterLink | null;
  attribution?: string;
  verses: VerseResponse[];
}

/**
 * The versions list. Only the published fields are copied, in the response's key order, so a
 * manifest entry (which also holds source file, URL and hash) can be passed as it is.
 */
export function versionsResponse(versions: readonly { info: VersionDescription; counts: VersionCounts }[]): VersionsResponse {
  return {
    versions: versions.map(({ info, counts }) => ({
      code: info.code,
      lang: info.lang,
      name: info.name,
      languageName: info.languageName,
      year: info.year,
      licence: info.licence,
      attribution: info.attribution,
      books: counts.books,
      chapters: counts.chapters,
      verses: counts.verses,
    })),
  };
}

/** The books list of one version, in the order given (canonical order). */
export function booksResponse(
  lang: Lang,
  version: string,
  books: readonly { canon: CanonBook; chapters: number; verseCounts?: number[] }[],
): BooksResponse {
  return {
    lang,
    version,
    books: books.map(({ canon, chapters, verseCounts }) => ({
      ...bookRef(canon, lang),
      chapters,
      ...(verseCounts ? { verseCounts: [...verseCounts] } : {}),
    })),
  };
}

/**
 * The response body for a chapter, or for a slice of it (endpoint 12 uses the same shape,
 * with `from`/`to` the first and last verse held).
 *
 * @example chapterResponse('en', 'KJV', bookByUsfm('JHN')!, 3, verses).book.abbr // 'John'
 */
export function chapterResponse(
  lang: Lang,
  version: string,
  canon: CanonBook,
  chapter: number,
  verses: readonly Verse[],
  navigation?: ChapterNavigation,
): ChapterResponse {
  const last = verses[verses.length - 1];
  return {
    lang,
    version,
    book: bookRef(canon, lang),
    chapter,
    from: verses[0]?.number ?? 0,
    to: last ? (last.through ?? last.number) : 0,
    ...(navigation
      ? { verseCount: navigation.verseCount, previous: navigation.previous, next: navigation.next, attribution: navigation.attribution }
      : {}),
    verses: verses.map(verseResponse),
  };
}

/** The last verse number of a chapter's verses (a merged last verse counts up to its end). */
export function chapterVerseCount(verses: readonly Verse[]): number {
  const last = verses[verses.length - 1];
  return last ? (last.through ?? last.number) : 0;
}

/** A verse as responses carry it: side fields only when present, `through` only when it covers more than itself. */
export function verseResponse(verse: Verse): VerseResponse {
  const out: VerseResponse = { verse: verse.number, text: verse.text };
  if (verse.heading) out.heading = verse.heading;
  if (verse.through !== undefined && verse.through > verse.number) out.through = verse.through;
  if (verse.notes && verse.notes.length > 0) out.notes = [...verse.notes];
  if (verse.paragraphs) out.paragraphs = [...verse.paragraphs];
  if (verse.poetry) out.poetry = verse.poetry.map((line) => ({ at: line.at, indent: line.indent }));
  if (verse.wordsOfJesus) out.wordsOfJesus = verse.wordsOfJesus.map((span) => ({ start: span.start, end: span.end }));
  return out;
}

/** The book as responses name it in `lang`. */
export function bookRef(canon: CanonBook, lang: Lang): BookRef {
  const names = canon.names[lang];
  return { usfm: canon.usfm, abbr: names.abbr, name: names.name, testament: canon.testament };
}
