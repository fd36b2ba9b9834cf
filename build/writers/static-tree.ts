// Static JSON tree writer: versions, books per language, one file per chapter, and the build stamp.
import { BIBLE_SCHEMA_VERSION, staticPaths } from '../layout.ts';
import { bookByUsfm, type CanonBook, type Lang, type Testament } from '../books.ts';
import type { Book, Verse } from '../model.ts';
import type { BuiltVersion, OutputFile } from './types.ts';

/** Counts of one version, as the versions list and the build stamp publish them. */
export interface VersionCounts {
  lang: Lang;
  code: string;
  books: number;
  chapters: number;
  verses: number;
}

/** Contents of `build.json`: what the service checks before it serves the tree. */
export interface BuildStamp {
  schemaVersion: number;
  buildHash: string;
  versions: VersionCounts[];
}

/** One verse as the chapter and range responses carry it; the key order is the response's. */
export interface VerseResponse {
  verse: number;
  text: string;
  heading?: string;
  through?: number;
  notes?: string[];
}

export interface BookRef {
  usfm: string;
  abbr: string;
  name: string;
  testament: Testament;
}

/** Body of endpoints 11 and 12. */
export interface ChapterResponse {
  lang: Lang;
  version: string;
  book: BookRef;
  chapter: number;
  from: number;
  to: number;
  verses: VerseResponse[];
}

/**
 * Turns the built versions into the static tree: every file is a response body of the API,
 * serialised deterministically (fixed key order, no timestamps) so ETags survive rebuilds.
 * Books the canon does not know (apocrypha) are left out.
 *
 * @example staticTree(versions, hash).find((f) => f.path === 'api/v1/bible/fr/GEN/1.json')
 */
export function staticTree(versions: readonly BuiltVersion[], buildHash: string): OutputFile[] {
  const files: OutputFile[] = [];
  const counts = versions.map(versionCounts);
  files.push(json(staticPaths.stamp, buildStamp(versions, buildHash)));
  files.push(
    json(staticPaths.versions, {
      versions: versions.map(({ info }, index) => ({
        code: info.code,
        lang: info.lang,
        name: info.name,
        languageName: info.languageName,
        year: info.year,
        licence: info.licence,
        attribution: info.attribution,
        books: counts[index].books,
        chapters: counts[index].chapters,
        verses: counts[index].verses,
      })),
    }),
  );
  for (const { info, text } of versions) {
    const books = canonicalBooks(text.books);
    files.push(
      json(staticPaths.books(info.lang), {
        lang: info.lang,
        version: info.code,
        books: books.map(({ canon, book }) => ({
          ...bookRef(canon, info.lang),
          chapters: book.chapters.length,
        })),
      }),
    );
    for (const { canon, book } of books) {
      for (const chapter of book.chapters) {
        if (chapter.verses.length === 0) continue;
        files.push(
          json(
            staticPaths.chapter(info.lang, canon.usfm, chapter.number),
            chapterResponse(info.lang, info.code, canon, chapter.number, chapter.verses),
          ),
        );
      }
    }
  }
  return files;
}

/** The stamp written as build.json, also stored in the database's meta table. */
export function buildStamp(versions: readonly BuiltVersion[], buildHash: string): BuildStamp {
  return { schemaVersion: BIBLE_SCHEMA_VERSION, buildHash, versions: versions.map(versionCounts) };
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

/**
 * The response body for a chapter, or for a slice of it (endpoint 12 uses the same shape,
 * with `from`/`to` the first and last verse held).
 */
export function chapterResponse(
  lang: Lang,
  version: string,
  canon: CanonBook,
  chapter: number,
  verses: readonly Verse[],
): ChapterResponse {
  const last = verses[verses.length - 1];
  return {
    lang,
    version,
    book: bookRef(canon, lang),
    chapter,
    from: verses[0]?.number ?? 0,
    to: last ? (last.through ?? last.number) : 0,
    verses: verses.map(verseResponse),
  };
}

export function verseResponse(verse: Verse): VerseResponse {
  const out: VerseResponse = { verse: verse.number, text: verse.text };
  if (verse.heading) out.heading = verse.heading;
  if (verse.through !== undefined && verse.through > verse.number) out.through = verse.through;
  if (verse.notes && verse.notes.length > 0) out.notes = [...verse.notes];
  return out;
}

function bookRef(canon: CanonBook, lang: Lang): BookRef {
  const names = canon.names[lang];
  return { usfm: canon.usfm, abbr: names.abbr, name: names.name, testament: canon.testament };
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
