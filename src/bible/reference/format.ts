// The normalised form of a passage in one language: full book name, chapter:verse, "-" between bounds.
import type { Lang } from '../../../build/contract/books.ts';
import type { ChapterVerse, PassageReference } from './grammar.ts';

/**
 * How responses write a passage: the language's full book name, `:` between chapter and verse
 * in every language, the end shortened to what differs from the start. Bounds without verses
 * are whole chapters.
 *
 * @example formatReference('fr', { book: JHN, from: { chapter: 3, verse: 16 }, to: { chapter: 4, verse: 2 } }) // 'Jean 3:16-4:2'
 * @example formatReference('en', { book: PSA, from: { chapter: 23 }, to: { chapter: 23 } })                   // 'Psalms 23'
 */
export function formatReference(lang: Lang, passage: Pick<PassageReference, 'book' | 'from' | 'to'>): string {
  const { book, from, to } = passage;
  const start = point(from);
  const sameChapter = from.chapter === to.chapter;
  let end: string;
  if (sameChapter && from.verse === to.verse) end = '';
  else if (sameChapter && to.verse !== undefined && from.verse !== undefined) end = String(to.verse);
  else end = point(to);
  return `${book.names[lang].name} ${start}${end === '' ? '' : `-${end}`}`;
}

function point(bound: ChapterVerse): string {
  return bound.verse === undefined ? String(bound.chapter) : `${bound.chapter}:${bound.verse}`;
}
