// How responses and the build's files write passages in each language ("Jean 3.16-4.2", "John 3:16, 18"): shared by the service's references and the build's verse-of-the-day files.
import type { CanonBook, Lang } from './books.ts';

/** A bound of a passage: a chapter, and a verse unless the bound is a whole chapter. */
export interface ReferenceBound {
  chapter: number;
  verse?: number;
}

/** How a language writes a normalised reference: docs/references.md gives each choice and its sources. */
export interface WrittenReferences {
  /** Between chapter and verse: "3:16", "3.16". */
  chapterVerse: string;
  /** Between verses of one chapter: "3:16, 18". */
  verseList: string;
  /** Between passages of different chapters or books: "3:16; 4:2". */
  passageList: string;
}

/** Each language's way of writing references, after its Bible publishers (docs/references.md). */
export const WRITTEN_REFERENCES: Readonly<Record<Lang, WrittenReferences>> = {
  fr: { chapterVerse: '.', verseList: ', ', passageList: ' ; ' },
  en: { chapterVerse: ':', verseList: ', ', passageList: '; ' },
  es: { chapterVerse: '.', verseList: ', ', passageList: '; ' },
  pt: { chapterVerse: '.', verseList: ',', passageList: '; ' },
  nl: { chapterVerse: ':', verseList: ', ', passageList: '; ' },
};

/** What formatting needs of a passage. Bounds without verses are whole chapters. */
export interface PassageBounds {
  book: CanonBook;
  from: ReferenceBound;
  to: ReferenceBound;
}

/**
 * How responses write one passage: the language's full book name, its separator between chapter
 * and verse (":" in English and Dutch, "." in French, Spanish and Portuguese), "-" between
 * bounds, the end shortened to what differs from the start.
 *
 * @example formatReference('fr', { book: JHN, from: { chapter: 3, verse: 16 }, to: { chapter: 4, verse: 2 } }) // 'Jean 3.16-4.2'
 * @example formatReference('en', { book: PSA, from: { chapter: 23 }, to: { chapter: 23 } })                   // 'Psalms 23'
 */
export function formatReference(lang: Lang, passage: PassageBounds): string {
  return `${passage.book.names[lang].name} ${location(lang, passage)}`;
}

/**
 * How responses write a list of passages: the book named once for passages that follow in the
 * same book, verses of the same chapter listed as the language lists them ("John 3:16, 18",
 * "Jean 3.16, 18", "João 3.16,18"), other passages after the language's list separator
 * ("John 3:16; 4:2; Psalms 23", "Jean 3.16 ; 4.2").
 *
 * @example formatReferenceList('en', [john3v16, john3v18, john4v2]) // 'John 3:16, 18; 4:2'
 */
export function formatReferenceList(lang: Lang, passages: readonly PassageBounds[]): string {
  const { verseList, passageList } = WRITTEN_REFERENCES[lang];
  let written = '';
  let previous: PassageBounds | undefined;
  for (const passage of passages) {
    if (!previous) written = formatReference(lang, passage);
    else if (passage.book !== previous.book) written += passageList + formatReference(lang, passage);
    else if (listsVerses(previous, passage)) written += verseList + verses(passage);
    else written += passageList + location(lang, passage);
    previous = passage;
  }
  return written;
}

/** A passage of verses within the chapter where the previous one, of verses too, ended. */
function listsVerses(previous: PassageBounds, passage: PassageBounds): boolean {
  return (
    previous.to.verse !== undefined &&
    passage.from.verse !== undefined &&
    passage.to.verse !== undefined &&
    passage.from.chapter === previous.to.chapter &&
    passage.to.chapter === passage.from.chapter
  );
}

/** "18" or "18-20": the verses of a passage within one chapter. */
function verses({ from, to }: Pick<PassageBounds, 'from' | 'to'>): string {
  return from.verse === to.verse ? String(from.verse) : `${from.verse}-${to.verse}`;
}

/** "3:16", "3:16-18", "3:16-4:2", "23", "23-24" in the language's separators. */
function location(lang: Lang, { from, to }: Pick<PassageBounds, 'from' | 'to'>): string {
  const separator = WRITTEN_REFERENCES[lang].chapterVerse;
  const point = (bound: ReferenceBound) =>
    bound.verse === undefined ? String(bound.chapter) : `${bound.chapter}${separator}${bound.verse}`;
  // "Gn 1-2,4a" starts at the first verse of chapter 1: written "1:1-2:4", as publishers do.
  if (from.verse === undefined && to.verse !== undefined) return location(lang, { from: { chapter: from.chapter, verse: 1 }, to });
  const sameChapter = from.chapter === to.chapter;
  let end: string;
  if (sameChapter && from.verse === to.verse) end = '';
  else if (sameChapter && to.verse !== undefined && from.verse !== undefined) end = String(to.verse);
  else end = point(to);
  return `${point(from)}${end === '' ? '' : `-${end}`}`;
}
