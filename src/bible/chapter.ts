// Endpoint 11's answer: the file of the static tree holding the chapter the path names.
import type { Lang } from '../../build/contract/books.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from '../http/problem.ts';
import type { StoredFile } from '../http/representations.ts';
import { parseBook, parseChapter } from './params.ts';
import type { BibleBuild } from './source.ts';

/**
 * Chapter `chapterText` of book `abbr` in `lang`, from the tree, or an ApiError naming what is
 * wrong (unknown book, chapter outside the book, a chapter the source leaves empty).
 *
 * @example readChapterFile(bible.current(), 'en', 'John', '3').identity.etag
 */
export function readChapterFile(build: Pick<BibleBuild, 'queries' | 'files'>, lang: Lang, abbr: string, chapterText: string): StoredFile {
  const book = parseBook(build.queries, lang, abbr);
  const chapter = parseChapter(book, chapterText);
  const file = build.files.get(staticPaths.chapter(lang, book.usfm, chapter));
  // A chapter the source leaves empty has no file (the writer skips it): nothing to read there.
  if (!file) throw new ApiError(problems.chapterWithoutVerses(book.name, chapter));
  return file;
}
