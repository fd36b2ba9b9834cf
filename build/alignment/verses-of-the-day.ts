// The verse of the day (data/verse-of-the-day.json): a passage for each day of the year in the shared numbering, and its verses in each version.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { bookByUsfm } from '../contract/books.ts';
import { DayOfYearSchema, type VerseOfTheDayResponse } from '../contract/response-schemas.ts';
import { verseOfTheDayResponse } from '../contract/responses.ts';
import { firstSchemaError } from '../contract/schema-errors.ts';
import type { Verse } from '../contract/verse.ts';
import { formatVerseRef, type VerseAlignment, type VerseRef, verseKey } from '../contract/verse-map.ts';
import type { BuiltVersion } from '../writers/types.ts';
import type { PivotNumbering } from './pivot-numbering.ts';

export const VersesOfTheDaySchema = Type.Object(
  {
    schemaVersion: Type.Literal(1),
    /** Says in words that the references are in the pivot's numbering (data/versification-mapping.json). */
    numbering: Type.String({ minLength: 1 }),
    /** Every day of a leap year ("01-01" … "12-31") and its passage, "BOOK chapter:verse[-verse]" in the pivot's numbering. */
    days: Type.Record(DayOfYearSchema, Type.String({ pattern: '^[0-9A-Z]{3} [1-9][0-9]*:[0-9]+(-([1-9][0-9]*:)?[0-9]+)?$' }), {
      additionalProperties: false,
    }),
  },
  { additionalProperties: false },
);

export type VersesOfTheDay = Static<typeof VersesOfTheDaySchema>;

/** One day's passage: as written, and its pivot verses in order. */
export interface DayPassage {
  day: string;
  shared: string;
  pivots: VerseRef[];
}

/** data/verse-of-the-day.json, the list the project ships. */
export const VERSES_OF_THE_DAY_PATH = fileURLToPath(new URL('../../data/verse-of-the-day.json', import.meta.url));

/** The list is malformed, or a day's passage is missing from a version. */
export class VerseOfTheDayError extends Error {
  override name = 'VerseOfTheDayError';
}

const checkList = TypeCompiler.Compile(VersesOfTheDaySchema);

/** The 366 days of a leap year, "01-01" … "12-31", in order. */
export const DAYS_OF_THE_YEAR: readonly string[] = Array.from({ length: 366 }, (_, index) =>
  new Date(Date.UTC(2024, 0, 1 + index)).toISOString().slice(5, 10),
);

/**
 * Reads and validates the list (by default data/verse-of-the-day.json).
 *
 * @example loadVersesOfTheDay().days['12-25'] // 'LUK 2:10-11'
 */
export function loadVersesOfTheDay(path: string = VERSES_OF_THE_DAY_PATH): VersesOfTheDay {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new VerseOfTheDayError(`Cannot read the verse of the day list ${path}: ${(error as Error).message}`);
  }
  return parseVersesOfTheDay(raw, path);
}

/** Validates parsed list JSON: the schema, and every day of a leap year present once. */
export function parseVersesOfTheDay(raw: unknown, origin = 'verse of the day list'): VersesOfTheDay {
  const problem = firstSchemaError(checkList, raw);
  if (problem !== undefined) throw new VerseOfTheDayError(`${origin}: ${problem}`);
  const list = raw as VersesOfTheDay;
  const missing = DAYS_OF_THE_YEAR.filter((day) => list.days[day] === undefined);
  const extra = Object.keys(list.days).filter((day) => !DAYS_OF_THE_YEAR.includes(day));
  if (missing.length > 0 || extra.length > 0) {
    throw new VerseOfTheDayError(
      `${origin}: days must be the 366 days of a leap year${missing.length ? `; missing ${missing.slice(0, 5).join(', ')}` : ''}${extra.length ? `; not a day: ${extra.slice(0, 5).join(', ')}` : ''}`,
    );
  }
  return list;
}

/**
 * Each day's passage as pivot verses, in calendar order; throws naming the day when a reference is
 * not a passage of the pivot's numbering.
 */
export function dayPassages(list: VersesOfTheDay, pivot: PivotNumbering): DayPassage[] {
  return DAYS_OF_THE_YEAR.map((day) => {
    const shared = list.days[day]!;
    try {
      return { day, shared, pivots: pivot.expand(shared) };
    } catch (error) {
      throw new VerseOfTheDayError(`verse of the day ${day}: ${(error as Error).message}`);
    }
  });
}

/**
 * The verse of the day's body of every day in one version: the version's verses that hold each
 * pivot verse of the day's passage (through its alignment), in order. Throws, naming every day and
 * verse, when a pivot verse of a passage has no counterpart in the version, so each day's passage
 * is whole in every language.
 *
 * @example verseOfTheDayBodies(passages, new VerseAlignment(map), version)[0].reference // 'Lamentations 3:22-23'
 */
export function verseOfTheDayBodies(
  passages: readonly DayPassage[],
  alignment: VerseAlignment,
  { info, text }: BuiltVersion,
): VerseOfTheDayResponse[] {
  const problems: string[] = [];
  const perDay = passages.map(({ day, pivots }) => {
    const keys = new Set<number>();
    for (const pivot of pivots) {
      const verses = alignment.versesAt(pivot);
      if (verses.length === 0) problems.push(`${day}: ${info.code} has no verse holding ${formatVerseRef(pivot)}`);
      for (const verse of verses) keys.add(verseKey(verse));
    }
    return [...keys].sort((a, b) => a - b);
  });
  if (problems.length > 0) {
    throw new VerseOfTheDayError(`The verse of the day is not whole in ${info.code}:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
  }
  // The verses the days need, found in one pass over the version.
  const wanted = new Set(perDay.flat());
  const found = new Map<number, { chapter: number; verse: Verse }>();
  for (const book of text.books) {
    const canon = bookByUsfm(book.code);
    if (!canon) continue;
    for (const chapter of book.chapters) {
      const base = canon.order * 1_000_000 + chapter.number * 1_000;
      for (const verse of chapter.verses) {
        if (wanted.has(base + verse.number)) found.set(base + verse.number, { chapter: chapter.number, verse });
      }
    }
  }
  return passages.map(({ day, shared, pivots }, index) => {
    const canon = bookByUsfm(pivots[0]!.usfm)!;
    const verses = perDay[index]!.map((key) => found.get(key)!);
    return verseOfTheDayResponse({ day, lang: info.lang, version: info.code, shared, attribution: info.attribution }, canon, verses);
  });
}
