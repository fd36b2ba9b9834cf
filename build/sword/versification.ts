// SWORD versifications (KJV, KJVA, NRSV) and the index math that places a verse in a zText testament.
import kjv from '../../data/versifications/kjv.json' with { type: 'json' };
import kjva from '../../data/versifications/kjva.json' with { type: 'json' };
import nrsv from '../../data/versifications/nrsv.json' with { type: 'json' };

export type SwordTestament = 'OT' | 'NT';

/** One book of a versification, as SWORD's canon headers list it. */
export interface VersificationBook {
  /** OSIS book name ("Gen", "1Macc"). */
  osis: string;
  /** SWORD's English name ("Genesis"), the one `mod2imp` prints in its keys. */
  name: string;
  testament: SwordTestament;
  /** Verses per chapter: `verses[0]` is the verse count of chapter 1. */
  verses: number[];
}

export interface Versification {
  name: string;
  books: VersificationBook[];
}

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

const known: Record<string, Versification> = {
  KJV: kjv as Versification,
  KJVA: kjva as Versification,
  NRSV: nrsv as Versification,
};

/**
 * The versification a module's conf names; SWORD's default when the conf names none is KJV.
 *
 * @example versificationByName('KJVA').books.length // 80
 */
export function versificationByName(name: string | undefined): Versification {
  const key = (name ?? 'KJV').trim().toUpperCase() || 'KJV';
  const versification = known[key];
  if (!versification) {
    throw new Error(`Unsupported SWORD versification "${name}" (known: ${Object.keys(known).join(', ')})`);
  }
  return versification;
}

/**
 * The entry index of every book and chapter of one testament: after the two headings,
 * each book has an intro entry, and each chapter an intro entry followed by its verses.
 *
 * @example testamentLayout(versificationByName('KJV'), 'OT')[0].chapterIntroIndex[0] // 3 (Genesis 1:0)
 */
export function testamentLayout(versification: Versification, testament: SwordTestament): BookLayout[] {
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
export function testamentEntryCount(versification: Versification, testament: SwordTestament): number {
  let count = TESTAMENT_HEADER_ENTRIES;
  for (const book of versification.books) {
    if (book.testament !== testament) continue;
    count += 1 + book.verses.reduce((sum, verses) => sum + 1 + verses, 0);
  }
  return count;
}
