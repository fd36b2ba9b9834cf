// How responses write a passage in each language ("Jean 3:16-4:2"): shared by the service's references and the build's verse-of-the-day files.
import type { CanonBook, Lang } from './books.ts';

/** A bound of a passage: a chapter, and a verse unless the bound is a whole chapter. */
export interface ReferenceBound {
  chapter: number;
  verse?: number;
}

/**
 * A passage as responses write it: the language's full book name, `:` between chapter and verse,
 * the end shortened to what differs from the start. Bounds without verses are whole chapters.
 *
 * @example formatPassageReference('fr', { book: JHN, from: { chapter: 3, verse: 16 }, to: { chapter: 4, verse: 2 } }) // 'Jean 3:16-4:2'
 * @example formatPassageReference('en', { book: PSA, from: { chapter: 23 }, to: { chapter: 23 } })                   // 'Psalms 23'
 */
export function formatPassageReference(lang: Lang, passage: { book: CanonBook; from: ReferenceBound; to: ReferenceBound }): string {
  const { book, from, to } = passage;
  const start = point(from);
  const sameChapter = from.chapter === to.chapter;
  let end: string;
  if (sameChapter && from.verse === to.verse) end = '';
  else if (sameChapter && to.verse !== undefined && from.verse !== undefined) end = String(to.verse);
  else end = point(to);
  return `${book.names[lang].name} ${start}${end === '' ? '' : `-${end}`}`;
}

function point(bound: ReferenceBound): string {
  return bound.verse === undefined ? String(bound.chapter) : `${bound.chapter}:${bound.verse}`;
}
