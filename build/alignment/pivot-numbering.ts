// The shared verse numbering every version is aligned with: the KJV's verse counts, with verse 0 for the Psalm titles the Hebrew numbers as verses.
import { bookByOsis, bookByUsfm } from '../contract/books.ts';
import { type VerseRef, verseKey } from '../contract/verse-map.ts';
import { versificationByName } from '../versification.ts';
import type { PivotDefinition } from './mapping-data.ts';

const PSALMS_ORDER = bookByUsfm('PSA')!.order;

/**
 * The pivot's verses: which exist, and the verses of a range in order.
 *
 * @example new PivotNumbering(mapping.pivot).expand('ISA 63:19-64:1') // ISA 63:19, ISA 64:1
 */
export class PivotNumbering {
  /** USFM code → last verse of each chapter (index 0 is chapter 1). */
  readonly verseCounts: ReadonlyMap<string, readonly number[]>;
  readonly #titled: ReadonlySet<number>;
  /** The same counts by book order (verse keys carry the order). */
  readonly #countsByOrder: (readonly number[] | undefined)[];

  constructor(pivot: PivotDefinition) {
    const counts = new Map<string, number[]>();
    for (const book of versificationByName(pivot.versification).books) {
      const canon = bookByOsis(book.osis);
      if (canon) counts.set(canon.usfm, book.verses);
    }
    this.verseCounts = counts;
    this.#countsByOrder = [];
    for (const [usfm, verses] of counts) this.#countsByOrder[bookByUsfm(usfm)!.order] = verses;
    this.#titled = new Set(pivot.psalmTitles);
  }

  /** The first verse of a chapter: 0 for a Psalm whose title is a verse, else 1. */
  firstVerse(usfm: string, chapter: number): number {
    return usfm === 'PSA' && this.#titled.has(chapter) ? 0 : 1;
  }

  has(ref: VerseRef): boolean {
    const last = this.verseCounts.get(ref.usfm)?.[ref.chapter - 1];
    return last !== undefined && ref.verse >= this.firstVerse(ref.usfm, ref.chapter) && ref.verse <= last;
  }

  /** `has` for a verse key (contract/verse-map.ts), without making the verse: the build asks it of every verse. */
  hasKey(key: number): boolean {
    const order = Math.floor(key / 1_000_000);
    const chapter = Math.floor(key / 1_000) % 1_000;
    const verse = key % 1_000;
    const last = this.#countsByOrder[order]?.[chapter - 1];
    return last !== undefined && verse <= last && (verse >= 1 || (order === PSALMS_ORDER && this.#titled.has(chapter)));
  }

  /** The keys of every pivot verse of a book, in order. */
  keysOf(usfm: string): number[] {
    const book = bookByUsfm(usfm);
    const counts = this.verseCounts.get(usfm) ?? [];
    const keys: number[] = [];
    if (!book) return keys;
    counts.forEach((last, index) => {
      const base = book.order * 1_000_000 + (index + 1) * 1_000;
      for (let verse = this.firstVerse(usfm, index + 1); verse <= last; verse++) keys.push(base + verse);
    });
    return keys;
  }

  /**
   * The verses of a pivot range ("EXO 8:1-4", "ISA 63:19-64:1", "PSA 3:0"), in order; throws a
   * RangeError naming the range when a bound is not a pivot verse or the end comes before the start.
   */
  expand(range: string): VerseRef[] {
    const match = /^([0-9A-Z]{3}) (\d+):(\d+)(?:-(?:(\d+):)?(\d+))?$/.exec(range);
    if (!match) throw new RangeError(`"${range}" is not a range of verses`);
    const usfm = match[1]!;
    const from = { usfm, chapter: Number(match[2]), verse: Number(match[3]) };
    const to = match[5] === undefined ? from : { usfm, chapter: Number(match[4] ?? match[2]), verse: Number(match[5]) };
    for (const bound of [from, to]) {
      if (!this.has(bound)) throw new RangeError(`"${range}": the pivot has no verse ${usfm} ${bound.chapter}:${bound.verse}`);
    }
    if (verseKey(to) < verseKey(from)) throw new RangeError(`"${range}" ends before it starts`);
    const verses: VerseRef[] = [];
    for (let chapter = from.chapter; chapter <= to.chapter; chapter++) {
      const first = chapter === from.chapter ? from.verse : this.firstVerse(usfm, chapter);
      const last = chapter === to.chapter ? to.verse : (this.verseCounts.get(usfm)?.[chapter - 1] ?? 0);
      for (let verse = first; verse <= last; verse++) verses.push({ usfm, chapter, verse });
    }
    return verses;
  }
}
