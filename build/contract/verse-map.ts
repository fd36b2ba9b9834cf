// How one version's verses line up with the shared verse numbering (the pivot), and the pure function that aligns a verse of one version with another's.
import { type Static, Type } from '@sinclair/typebox';
import { bookByUsfm, CANON } from './books.ts';
import { LangSchema } from './response-schemas.ts';

/** A verse as a version (or the pivot) numbers it. */
export interface VerseRef {
  usfm: string;
  chapter: number;
  verse: number;
}

/** "EXO 7:26": a USFM book code, a space, chapter:verse. The pivot's Psalm titles are verse 0 ("PSA 3:0"). */
const VerseRefText = Type.String({ pattern: '^[0-9A-Z]{3} [1-9][0-9]*:(0|[1-9][0-9]*)$', examples: ['EXO 7:26'] });

/**
 * One version's alignment with the pivot, written by the build per language (`verse-map.json` in
 * the static tree) and read by the service and by static clients. A verse of the version stands for
 * the pivot verse of the same number unless `mapped` or `unmatched` says otherwise; `counterparts`
 * (below) is the whole algorithm.
 */
export const VerseMapSchema = Type.Object(
  {
    lang: LangSchema,
    version: Type.String({ description: 'Version code.', examples: ['LSG'] }),
    pivot: Type.String({
      description:
        'The shared numbering every version is aligned with: the KJV verse numbers, where a Psalm title that the Hebrew numbers as a verse is verse 0.',
    }),
    licence: Type.String({ minLength: 1, description: 'Licence of the mapping data (not of the text).', examples: ['CC BY-SA 4.0'] }),
    attribution: Type.String({ minLength: 1 }),
    verseCounts: Type.Record(Type.String({ pattern: '^[0-9A-Z]{3}$' }), Type.Array(Type.Integer({ minimum: 0 })), {
      additionalProperties: false,
      description: "The version's last verse number of each chapter, by USFM code (index 0 is chapter 1), as `books` gives them.",
    }),
    missing: Type.Array(VerseRefText, {
      description: 'Verse numbers up to a chapter’s last that the version leaves out (its text stands under another number or is absent).',
    }),
    mapped: Type.Record(VerseRefText, Type.Array(VerseRefText, { minItems: 1 }), {
      additionalProperties: false,
      description: 'Each verse of the version that is not the pivot verse of its own number, and the pivot verses it holds, in order.',
      examples: [{ 'EXO 7:26': ['EXO 8:1'], 'PSA 51:1': ['PSA 51:0'] }],
    }),
    unmatched: Type.Array(VerseRefText, { description: 'Verses of the version that no pivot verse stands for.' }),
    absent: Type.Array(VerseRefText, { description: 'Pivot verses no verse of this version holds.' }),
  },
  { $id: 'VerseMap', additionalProperties: false },
);

export type VerseMap = Static<typeof VerseMapSchema>;

/**
 * A verse as one integer: book order × 1,000,000 + chapter × 1,000 + verse, so keys sort in canonical
 * order. The database stores pivot verses so (`verse_pivots.pivot`).
 *
 * @example verseKey({ usfm: 'EXO', chapter: 8, verse: 1 }) // 2008001
 */
export function verseKey(ref: VerseRef): number {
  const book = bookByUsfm(ref.usfm);
  if (!book) throw new RangeError(`Unknown book ${ref.usfm}`);
  return book.order * 1_000_000 + ref.chapter * 1_000 + ref.verse;
}

/** The verse of a key (the inverse of verseKey). */
export function verseOfKey(key: number): VerseRef {
  const book = CANON[Math.floor(key / 1_000_000) - 1];
  if (!book) throw new RangeError(`No book for verse key ${key}`);
  return { usfm: book.usfm, chapter: Math.floor(key / 1_000) % 1_000, verse: key % 1_000 };
}

/**
 * "EXO 7:26" as a verse; undefined when it is not of that form or names no canonical book.
 *
 * @example parseVerseRef('PSA 3:0') // { usfm: 'PSA', chapter: 3, verse: 0 }
 */
export function parseVerseRef(text: string): VerseRef | undefined {
  const match = /^([0-9A-Z]{3}) ([1-9][0-9]*):(0|[1-9][0-9]*)$/.exec(text);
  if (!match || !bookByUsfm(match[1]!)) return undefined;
  return { usfm: match[1]!, chapter: Number(match[2]), verse: Number(match[3]) };
}

/** A verse as `mapped` and the lists write it: "EXO 7:26". */
export function formatVerseRef(ref: VerseRef): string {
  return `${ref.usfm} ${ref.chapter}:${ref.verse}`;
}

/**
 * One version's verse map made ready for lookups (built once per map, then used for every verse).
 *
 * @example const lsg = new VerseAlignment(lsgMap); lsg.pivotsOf({ usfm: 'EXO', chapter: 7, verse: 26 }) // [{ usfm: 'EXO', chapter: 8, verse: 1 }]
 */
export class VerseAlignment {
  readonly lang: VerseMap['lang'];
  readonly version: string;
  readonly #counts: ReadonlyMap<string, readonly number[]>;
  readonly #missing: ReadonlySet<number>;
  readonly #unmatched: ReadonlySet<number>;
  /** Version verse key → the pivot keys it holds, for the verses that are not the pivot verse of their number. */
  readonly #mapped = new Map<number, number[]>();
  /** Pivot key → the version's verse keys that hold it through `mapped`. */
  readonly #holders = new Map<number, number[]>();

  constructor(map: VerseMap) {
    this.lang = map.lang;
    this.version = map.version;
    this.#counts = new Map(Object.entries(map.verseCounts));
    const keys = (refs: readonly string[]) => new Set(refs.map((ref) => verseKey(parsed(ref))));
    this.#missing = keys(map.missing);
    this.#unmatched = keys(map.unmatched);
    for (const [from, pivots] of Object.entries(map.mapped)) {
      const key = verseKey(parsed(from));
      const pivotKeys = pivots.map((pivot) => verseKey(parsed(pivot)));
      this.#mapped.set(key, pivotKeys);
      for (const pivot of pivotKeys) {
        const holders = this.#holders.get(pivot);
        if (holders) holders.push(key);
        else this.#holders.set(pivot, [key]);
      }
    }
  }

  /** Whether the version has this verse. */
  has(ref: VerseRef): boolean {
    const last = this.#counts.get(ref.usfm)?.[ref.chapter - 1];
    return last !== undefined && ref.verse >= 1 && ref.verse <= last && !this.#missing.has(verseKey(ref));
  }

  /**
   * The pivot verses a verse of this version holds, in order: none for an unmatched verse;
   * undefined when the version has no such verse.
   */
  pivotsOf(ref: VerseRef): VerseRef[] | undefined {
    return this.pivotKeysOf(ref)?.map(verseOfKey);
  }

  /** pivotsOf, as verse keys (what the database stores). */
  pivotKeysOf(ref: VerseRef): number[] | undefined {
    if (!this.has(ref)) return undefined;
    const key = verseKey(ref);
    return this.differingPivotKeys(key) ?? [key];
  }

  /**
   * For a verse of this version, by key: the pivot keys it holds when they are not just its own
   * number's (none for an unmatched verse); undefined when it is the pivot verse of its number. The
   * build asks it of every verse, so it neither checks the verse exists nor makes a VerseRef.
   */
  differingPivotKeys(key: number): number[] | undefined {
    if (this.#unmatched.has(key)) return [];
    return this.#mapped.get(key);
  }

  /** The verses of this version that hold the pivot verse `pivot`, in canonical order (none when the version lacks it). */
  versesAt(pivot: VerseRef): VerseRef[] {
    const key = verseKey(pivot);
    const holders = [...(this.#holders.get(key) ?? [])];
    // The verse of the same number stands for it, unless it is mapped elsewhere or unmatched.
    if (this.has(pivot) && !this.#mapped.has(key) && !this.#unmatched.has(key)) holders.push(key);
    return holders.sort((a, b) => a - b).map(verseOfKey);
  }
}

/**
 * The verses of version `to` that hold what verse `ref` of version `from` holds: for each pivot verse
 * `ref` stands for, the verses of `to` that hold it, in canonical order, without repeats. Empty when
 * `to` has no counterpart (or `ref` is unmatched); undefined when `from` has no verse `ref`. Nothing is
 * matched by number unless both maps say the verse is the pivot verse of its number.
 *
 * @example counterparts(kjv, lsg, { usfm: 'EXO', chapter: 8, verse: 1 })   // [{ usfm: 'EXO', chapter: 7, verse: 26 }]
 * @example counterparts(kjv, rvr, { usfm: 'JON', chapter: 1, verse: 17 })  // [{ usfm: 'JON', chapter: 2, verse: 1 }]
 */
export function counterparts(from: VerseAlignment, to: VerseAlignment, ref: VerseRef): VerseRef[] | undefined {
  const pivots = from.pivotsOf(ref);
  if (pivots === undefined) return undefined;
  const found = new Map<number, VerseRef>();
  for (const pivot of pivots) {
    for (const verse of to.versesAt(pivot)) found.set(verseKey(verse), verse);
  }
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, verse]) => verse);
}

function parsed(text: string): VerseRef {
  const ref = parseVerseRef(text);
  if (!ref) throw new RangeError(`Not a verse reference: "${text}"`);
  return ref;
}
