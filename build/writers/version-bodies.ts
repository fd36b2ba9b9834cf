// The response bodies of one version (books list, chapters) and its counts, made from the model: the static tree and the download share them.
import { bookByUsfm, type CanonBook } from '../contract/books.ts';
import { staticPaths } from '../contract/layout.ts';
import type { BooksResponse, ChapterLink, ChapterResponse } from '../contract/response-schemas.ts';
import { booksResponse, chapterResponse, chapterVerseCount } from '../contract/responses.ts';
import type { VersionCounts } from '../contract/stamp.ts';
import type { Book } from '../model.ts';
import type { BuiltVersion } from './types.ts';

/** The body of endpoint 10 for one version: its canonical books, their chapter and verse counts. */
export function versionBooks({ info, text }: BuiltVersion): BooksResponse {
  return booksResponse(
    info.lang,
    info.code,
    canonicalBooks(text.books).map(({ canon, book }) => ({
      canon,
      chapters: book.chapters.length,
      verseCounts: book.chapters.map((chapter) => chapterVerseCount(chapter.verses)),
    })),
  );
}

/**
 * The body of endpoint 11 for every chapter of a version that has verses, in canonical order,
 * with the tree path of its file (the static tree and the download share them).
 */
export function* versionChapters({ info, text }: BuiltVersion): Generator<{ path: string; body: ChapterResponse }> {
  // Previous and next run across books, over the chapters that have verses (the files that exist).
  const chapters = canonicalBooks(text.books).flatMap(({ canon, book }) =>
    book.chapters.filter((chapter) => chapter.verses.length > 0).map((chapter) => ({ canon, chapter })),
  );
  const link = (index: number): ChapterLink | null => {
    const entry = chapters[index];
    return entry ? { usfm: entry.canon.usfm, abbr: entry.canon.names[info.lang].abbr, chapter: entry.chapter.number } : null;
  };
  for (const [index, { canon, chapter }] of chapters.entries()) {
    const navigation = {
      previous: link(index - 1),
      next: link(index + 1),
      verseCount: chapterVerseCount(chapter.verses),
      attribution: info.attribution,
    };
    yield {
      path: staticPaths.chapter(info.lang, canon.usfm, chapter.number),
      body: chapterResponse(info.lang, info.code, canon, chapter.number, chapter.verses, navigation),
    };
  }
}

/** Books, chapters and verses (entries, a merged verse counting once) of one version's canonical books. */
export function versionCounts({ info, text }: BuiltVersion): VersionCounts {
  const books = canonicalBooks(text.books);
  let chapters = 0;
  let verses = 0;
  for (const { book } of books) {
    chapters += book.chapters.length;
    for (const chapter of book.chapters) verses += chapter.verses.length;
  }
  return { lang: info.lang, code: info.code, books: books.length, chapters, verses };
}

/** The books of a version that belong to the 66-book canon, in canonical order. */
export function canonicalBooks(books: readonly Book[]): { canon: CanonBook; book: Book }[] {
  const found: { canon: CanonBook; book: Book }[] = [];
  for (const book of books) {
    const canon = bookByUsfm(book.code);
    if (canon) found.push({ canon, book });
  }
  return found.sort((a, b) => a.canon.order - b.canon.order);
}
