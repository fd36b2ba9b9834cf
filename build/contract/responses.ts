// Builders of the Bible endpoints' bodies (shapes in response-schemas.ts): the static tree holds them, the service sends the same bytes.
import type { CanonBook, Lang } from './books.ts';
import { formatReference } from './reference-format.ts';
import type {
  BookRef,
  BooksResponse,
  ChapterResponse,
  DownloadLink,
  DownloadVersion,
  PassageVerse,
  VerseOfTheDayResponse,
  VerseResponse,
  VersionDescription,
  VersionsResponse,
} from './response-schemas.ts';
import type { VersionCounts } from './stamp.ts';
import type { Verse } from './verse.ts';

/** What a chapter file adds to the chapter: its neighbours across books, its size, and the licence's attribution. */
export type ChapterNavigation = Pick<ChapterResponse, 'previous' | 'next' | 'verseCount' | 'attribution'>;

/**
 * The versions list. Only the published fields are copied, in the response's key order, so a
 * manifest entry (which also holds source file, URL and hash) can be passed as it is.
 */
export function versionsResponse(
  versions: readonly { info: VersionDescription; counts: VersionCounts; download: DownloadLink }[],
): VersionsResponse {
  return {
    versions: versions.map(({ info, counts, download }) => ({
      ...downloadVersion(info, counts),
      download: { url: download.url, bytes: download.bytes, sha256: download.sha256 },
    })),
  };
}

/** The version as its download describes it: the published fields and counts, in the versions entry's key order. */
export function downloadVersion(info: VersionDescription, counts: VersionCounts): DownloadVersion {
  return {
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
  };
}

/** The books list of one version, in the order given (canonical order). */
export function booksResponse(
  lang: Lang,
  version: string,
  books: readonly { canon: CanonBook; chapters: number; verseCounts: readonly number[] }[],
): BooksResponse {
  return {
    lang,
    version,
    books: books.map(({ canon, chapters, verseCounts }) => ({
      ...bookRef(canon, lang),
      chapters,
      verseCounts: [...verseCounts],
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
  navigation: ChapterNavigation,
): ChapterResponse {
  const last = verses[verses.length - 1];
  return {
    lang,
    version,
    book: bookRef(canon, lang),
    chapter,
    from: verses[0]?.number ?? 0,
    to: last?.number ?? 0,
    verseCount: navigation.verseCount,
    previous: navigation.previous,
    next: navigation.next,
    attribution: navigation.attribution,
    verses: verses.map(verseResponse),
  };
}

/** The last verse number of a chapter's verses; 0 for none. */
export function chapterVerseCount(verses: readonly Verse[]): number {
  return verses[verses.length - 1]?.number ?? 0;
}

/** A verse as responses carry it: side fields only when present. */
export function verseResponse(verse: Verse): VerseResponse {
  const out: VerseResponse = { verse: verse.number, text: verse.text };
  if (verse.heading) out.heading = verse.heading;
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

/**
 * The verse of the day in one version: `verses` are the version's verses that hold the day's passage
 * (`shared`, in the shared numbering), each with its chapter, in order; at least one.
 *
 * @example verseOfTheDayResponse({ day: '03-01', lang: 'fr', version: 'LSG', shared: 'EXO 8:1', attribution }, EXO, [{ chapter: 7, verse }])
 */
export function verseOfTheDayResponse(
  day: Pick<VerseOfTheDayResponse, 'day' | 'lang' | 'version' | 'shared' | 'attribution'>,
  canon: CanonBook,
  verses: readonly { chapter: number; verse: Verse }[],
): VerseOfTheDayResponse {
  const first = verses[0];
  const last = verses[verses.length - 1];
  if (!first || !last) throw new RangeError(`The verse of the day ${day.day} has no verses in ${day.version}`);
  const from = { chapter: first.chapter, verse: first.verse.number };
  const to = { chapter: last.chapter, verse: last.verse.number };
  return {
    day: day.day,
    lang: day.lang,
    version: day.version,
    shared: day.shared,
    reference: formatReference(day.lang, { book: canon, from, to }),
    book: bookRef(canon, day.lang),
    from,
    to,
    verses: verses.map(({ chapter, verse }): PassageVerse => ({ chapter, ...verseResponse(verse) })),
    attribution: day.attribution,
  };
}
