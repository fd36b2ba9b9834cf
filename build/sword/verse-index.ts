// Where each verse of a versification sits in a zText testament's verse index (.bzv): SWORD's entry order.
import type { Testament } from '../contract/books.ts';
import type { Versification, VersificationBook } from '../versification.ts';

/** Where one book sits in its testament's verse index (.bzv). */
export interface BookLayout {
  book: VersificationBook;
  /** Index of the book-introduction entry (chapter 0, verse 0). */
  introIndex: number;
  /** Index of each chapter's introduction entry (verse 0); verse v of chapter c is at `chapterIntroIndex[c - 1] + v`. */
  chapterIntroIndex: number[];
}

/** Entry 0 of each testament is the module heading, entry 1 the testament heading. */
export const TESTAMENT_HEADER_ENTRIES = 2;

/**
 * The entry index of every book and chapter of one testament: after the two headings,
 * each book has an intro entry, and each chapter an intro entry followed by its verses.
 *
 * @example testamentLayout(versificationByName('KJV'), 'OT')[0].chapterIntroIndex[0] // 3 (Genesis 1:0)
 */
export function testamentLayout(versification: Versification, testament: Testament): BookLayout[] {
  const layouts: BookLayout[] = [];
  let index = TESTAMENT_HEADER_ENTRIES;
  for (const book of versification.books) {
    if (book.testament !== testament) continue;
    const introIndex = index++;
    const chapterIntroIndex: number[] = [];
    for (const verseCount of book.verses) {
      chapterIntroIndex.push(index);
      index += 1 + verseCount;
    }
    layouts.push({ book, introIndex, chapterIntroIndex });
  }
  return layouts;
}

/** Number of entries a testament's verse index holds for this versification. */
export function testamentEntryCount(versification: Versification, testament: Testament): number {
  let count = TESTAMENT_HEADER_ENTRIES;
  for (const book of versification.books) {
    if (book.testament !== testament) continue;
    count += 1 + book.verses.reduce((sum, verses) => sum + 1 + verses, 0);
  }
  return count;
}
