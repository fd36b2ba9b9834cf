// Builders of the Bible endpoints' bodies (shapes in response-schemas.ts): the static tree holds them, the service sends the same bytes.
import type { CanonBook, Lang } from './books.ts';
import type { BookRef, BooksResponse, ChapterResponse, VerseResponse, VersionDescription, VersionsResponse } from './response-schemas.ts';
import type { VersionCounts } from './stamp.ts';
import type { Verse } from './verse.ts';

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
export function booksResponse(lang: Lang, version: string, books: readonly { canon: CanonBook; chapters: number }[]): BooksResponse {
  return {
    lang,
    version,
    books: books.map(({ canon, chapters }) => ({ ...bookRef(canon, lang), chapters })),
  };
}

/**
 * The response body for a chapter, or for a slice of it (endpoint 12 uses the same shape,
 * with `from`/`to` the first and last verse held).
 *
 * @example chapterResponse('en', 'KJV', bookByUsfm('JHN')!, 3, verses).book.abbr // 'John'
 */
export function chapterResponse(lang: Lang, version: string, canon: CanonBook, chapter: number, verses: readonly Verse[]): ChapterResponse {
  const last = verses[verses.length - 1];
  return {
    lang,
    version,
    book: bookRef(canon, lang),
    chapter,
    from: verses[0]?.number ?? 0,
    to: last?.number ?? 0,
    verses: verses.map(verseResponse),
  };
}

/** A verse as responses carry it: side fields only when present. */
export function verseResponse(verse: Verse): VerseResponse {
  const out: VerseResponse = { verse: verse.number, text: verse.text };
  if (verse.heading) out.heading = verse.heading;
  if (verse.notes && verse.notes.length > 0) out.notes = [...verse.notes];
  return out;
}

/** The book as responses name it in `lang`. */
export function bookRef(canon: CanonBook, lang: Lang): BookRef {
  const names = canon.names[lang];
  return { usfm: canon.usfm, abbr: names.abbr, name: names.name, testament: canon.testament };
}
