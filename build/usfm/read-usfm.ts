// USFM files of one version → the model's VersionText: canonical books in order, and every issue met.
import { bookByUsfm, CANON } from '../contract/books.ts';
import type { Book, SourceIssue } from '../model.ts';
import { type Versification, versificationByName } from '../versification.ts';
import { parseUsfmFile } from './parse.ts';
import type { IgnoredUsfmFile, JoinedVerse, UsfmFile, UsfmVersionText } from './types.ts';

export interface ReadUsfmOptions {
  /**
   * Versification whose verse counts the text is compared with, to report missing and extra
   * verses; KJV unless given, `null` to skip the comparison.
   */
  compareWith?: Versification | null;
}

/**
 * Reads a whole version from its USFM files (one book per file, any order). Files whose `\id`
 * is not one of the 66 canonical books (front matter, introductions, apocrypha) are set aside
 * in `ignoredFiles`; a book given twice keeps its first file and reports the second.
 *
 * @example
 * const lsg = readUsfmBible(usfmFilesFromZip(zipBytes), 'LSG');
 * lsg.books[0].chapters[0].verses[0].text; // "Au commencement, Dieu créa les cieux et la terre."
 */
export function readUsfmBible(files: UsfmFile[], code: string, options: ReadUsfmOptions = {}): UsfmVersionText {
  const books = new Map<string, Book>();
  const joinedVerses = new Map<string, JoinedVerse[]>();
  const issues: SourceIssue[] = [];
  const ignoredFiles: IgnoredUsfmFile[] = [];
  for (const file of files) {
    const parsed = parseUsfmFile(file);
    issues.push(...parsed.issues);
    if (parsed.type === 'other') {
      ignoredFiles.push({
        fileName: file.fileName,
        idCode: parsed.idCode,
        reason: parsed.idCode === '' ? 'no \\id line' : `\\id ${parsed.idCode} is not one of the 66 canonical books`,
      });
    } else if (books.has(parsed.book.code)) {
      issues.push({ kind: 'parse-error', where: `${file.fileName}:1:1`, detail: `second file for ${parsed.book.code}; ignored` });
      ignoredFiles.push({ fileName: file.fileName, idCode: parsed.book.code, reason: 'book already read from another file' });
    } else {
      books.set(parsed.book.code, parsed.book);
      joinedVerses.set(parsed.book.code, parsed.joinedVerses);
    }
  }
  const ordered = CANON.flatMap((canon) => books.get(canon.usfm) ?? []);
  for (const canon of CANON) {
    if (!books.has(canon.usfm)) issues.push({ kind: 'missing-verse', where: canon.usfm, detail: 'book missing from the source' });
  }
  const versification = options.compareWith === undefined ? versificationByName('KJV') : options.compareWith;
  if (versification !== null) issues.push(...compareWithVersification(ordered, versification, joinedVerses));
  return { code, books: ordered, issues, ignoredFiles };
}

/**
 * Verses the books lack or add relative to a versification's verse counts. A verse joined into
 * another (`joinedVerses`, by book code) counts as present. Reports one issue per verse, located "GEN 1:1".
 */
export function compareWithVersification(
  books: Book[],
  versification: Versification,
  joinedVerses: ReadonlyMap<string, readonly JoinedVerse[]> = new Map(),
): SourceIssue[] {
  const counts = new Map(versification.books.map((book) => [book.osis, book.verses]));
  const issues: SourceIssue[] = [];
  for (const book of books) {
    const expected = counts.get(bookByUsfm(book.code)?.osis ?? '');
    if (expected === undefined) continue;
    const present = new Map<number, Set<number>>();
    for (const chapter of book.chapters) {
      const numbers = present.get(chapter.number) ?? new Set<number>();
      present.set(chapter.number, numbers);
      for (const verse of chapter.verses) numbers.add(verse.number);
    }
    for (const joined of joinedVerses.get(book.code) ?? []) {
      const numbers = present.get(joined.chapter);
      for (let number = joined.verse; number <= joined.through; number += 1) numbers?.add(number);
    }
    expected.forEach((verseCount, chapterIndex) => {
      const chapterNumber = chapterIndex + 1;
      const numbers = present.get(chapterNumber);
      for (let verse = 1; verse <= verseCount; verse += 1) {
        if (numbers?.has(verse) !== true) {
          issues.push({
            kind: 'missing-verse',
            where: `${book.code} ${chapterNumber}:${verse}`,
            detail: `in ${versification.name} but not in the source`,
            comparedWith: versification.name,
          });
        }
      }
    });
    for (const [chapterNumber, numbers] of present) {
      const verseCount = expected[chapterNumber - 1] ?? 0;
      for (const verse of [...numbers].sort((a, b) => a - b)) {
        if (verse > verseCount) {
          issues.push({
            kind: 'extra-verse',
            where: `${book.code} ${chapterNumber}:${verse}`,
            detail: `in the source but not in ${versification.name}`,
            comparedWith: versification.name,
          });
        }
      }
    }
  }
  return issues;
}
