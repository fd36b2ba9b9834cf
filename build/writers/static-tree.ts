// Static JSON tree writer: versions, books per language, one file per chapter, and the build stamp.
import { bookByUsfm, type CanonBook } from '../contract/books.ts';
import { staticPaths } from '../contract/layout.ts';
import type { ChapterLink } from '../contract/response-schemas.ts';
import { booksResponse, chapterResponse, chapterVerseCount, versionsResponse } from '../contract/responses.ts';
import { buildStamp, type VersionCounts } from '../contract/stamp.ts';
import type { Book } from '../model.ts';
import type { BuiltVersion, OutputFile, VersionInfo } from './types.ts';

/**
 * Turns the built versions into the static tree: every file is a response body of the API,
 * serialised deterministically (fixed key order, no timestamps) so ETags survive rebuilds.
 * Books the canon does not know (apocrypha) are left out.
 *
 * `versionHash` gives each version's hash for the stamp (build/build-hashes.ts).
 *
 * @example staticTree(versions, hash, (info) => hashes[info.code]).find((f) => f.path === 'api/v1/bible/fr/GEN/1.json')
 */
export function staticTree(versions: readonly BuiltVersion[], buildHash: string, versionHash: (info: VersionInfo) => string): OutputFile[] {
  const index = treeIndex(
    versions.map((version) => ({ info: version.info, counts: versionCounts(version), versionHash: versionHash(version.info) })),
    buildHash,
  );
  return [...index, ...versions.flatMap((version) => [...versionTree(version)])];
}

/** The files that describe the whole build: the stamp and the versions list (written last by the streaming build). */
export function treeIndex(
  versions: readonly { info: VersionInfo; counts: VersionCounts; versionHash: string }[],
  buildHash: string,
): OutputFile[] {
  return [
    json(
      staticPaths.stamp,
      buildStamp(
        buildHash,
        versions.map(({ counts, versionHash }) => ({ ...counts, versionHash })),
      ),
    ),
    json(staticPaths.versions, versionsResponse(versions)),
  ];
}

/**
 * The files of one version, one at a time (books list, then every chapter), so the build can
 * compress and write each before the next is made.
 *
 * @example for (const file of versionTree(version)) staging.write(file);
 */
export function* versionTree({ info, text }: BuiltVersion): Generator<OutputFile> {
  const books = canonicalBooks(text.books);
  yield json(
    staticPaths.books(info.lang),
    booksResponse(
      info.lang,
      info.code,
      books.map(({ canon, book }) => ({
        canon,
        chapters: book.chapters.length,
        verseCounts: book.chapters.map((chapter) => chapterVerseCount(chapter.verses)),
      })),
    ),
  );
  // Previous and next run across books, over the chapters that have verses (the files that exist).
  const chapters = books.flatMap(({ canon, book }) =>
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
    yield json(
      staticPaths.chapter(info.lang, canon.usfm, chapter.number),
      chapterResponse(info.lang, info.code, canon, chapter.number, chapter.verses, navigation),
    );
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

function json(path: string, body: unknown): OutputFile {
  return { path, content: JSON.stringify(body) };
}
