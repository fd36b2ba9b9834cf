// A versification mapping and a verse-of-the-day list that fit the synthetic versions (synthetic-model.ts), for builds of them.
import type { VersificationMapping } from '../../build/alignment/mapping-data.ts';
import { DAYS_OF_THE_YEAR, type VersesOfTheDay } from '../../build/alignment/verses-of-the-day.ts';
import type { VersionManifestEntry } from '../../build/version-manifest.ts';
import type { BuiltVersion } from '../../build/writers/types.ts';

/** The source SHA-256 the fixture's manifest entries and mapping share. */
export const SYNTHETIC_SOURCE = 'd'.repeat(64);

/** The pivot of the project's mapping (KJV numbers, Psalm titles as verse 0). */
export const SYNTHETIC_PIVOT: VersificationMapping['pivot'] = {
  description: 'KJV verse numbers; a Psalm title that the Hebrew numbers as a verse of its own is verse 0',
  versification: 'KJV',
  psalmTitles: [3, 51],
};

/**
 * The mapping of the synthetic versions built from `entries`: in each, Genesis 1:3 holds the text of
 * 1:4 too (the model leaves 1:4 out), so it holds pivot verses 1:3 and 1:4; every other verse is the
 * pivot verse of its number.
 */
export function syntheticVersification(entries: readonly Pick<VersionManifestEntry, 'code' | 'sha256'>[]): VersificationMapping {
  return {
    schemaVersion: 1,
    licence: 'CC BY-SA 4.0',
    attribution: 'Synthetic mapping, made for tests.',
    pivot: SYNTHETIC_PIVOT,
    versions: Object.fromEntries(
      entries.map((entry) => [
        entry.code,
        { source: entry.sha256, psalmTitles: 'in-verse-1' as const, mapped: { 'GEN 1:3': 'GEN 1:3-4' }, unmatched: [], absent: [] },
      ]),
    ),
  };
}

/** Passages every synthetic version holds; the days take them in turn, so 01-01 is John 3:16 and 01-05 Genesis 1:4. */
export const SYNTHETIC_PASSAGES = ['JHN 3:16', 'GEN 1:1-2', 'PSA 1:1', 'JHN 3:16-17', 'GEN 1:4'] as const;

/** A verse-of-the-day list over the synthetic versions: every day of the year, SYNTHETIC_PASSAGES in turn. */
export function syntheticVersesOfTheDay(): VersesOfTheDay {
  return {
    schemaVersion: 1,
    numbering: 'The shared numbering of the synthetic mapping.',
    days: Object.fromEntries(DAYS_OF_THE_YEAR.map((day, index) => [day, SYNTHETIC_PASSAGES[index % SYNTHETIC_PASSAGES.length]!])),
  };
}

/** Exodus 7:25-8:4 as each synthetic version numbers it: LSG's French numbering (7:26-27 = KJV 8:1-2, 8:1 = 8:3, no 8:4), STV joining 8:2-3 in its 8:2. */
const EXODUS_VERSES: Record<string, { chapter: number; verses: number[] }[]> = {
  LSG: [
    { chapter: 7, verses: [25, 26, 27] },
    { chapter: 8, verses: [1] },
  ],
  STV: [
    { chapter: 7, verses: [25] },
    { chapter: 8, verses: [1, 2, 4] },
  ],
};
const EXODUS_KJV = [
  { chapter: 7, verses: [25] },
  { chapter: 8, verses: [1, 2, 3, 4] },
];
const EXODUS_MAPPED: Record<string, Record<string, string>> = {
  LSG: { 'EXO 7:26-27': 'EXO 8:1-2', 'EXO 8:1': 'EXO 8:3' },
  STV: { 'EXO 8:2': 'EXO 8:2-3' },
};

/**
 * The synthetic versions with Exodus 7:25-8:4 numbered as EXODUS_VERSES says (text "<code> Exodus
 * c:v"), and their mapping: for tests where numbering differs between versions.
 */
export function withDifferingExodus(versions: readonly BuiltVersion[]): { versions: BuiltVersion[]; versification: VersificationMapping } {
  const changed = versions.map(({ info, text }) => {
    // Chapters 1-6 hold verse 1 each, so that chapters 7 and 8 are the book's seventh and eighth.
    const leading = [1, 2, 3, 4, 5, 6].map((chapter) => ({ chapter, verses: [1] }));
    const chapters = [...leading, ...(EXODUS_VERSES[info.code] ?? EXODUS_KJV)].map(({ chapter, verses }) => ({
      number: chapter,
      verses: verses.map((number) => ({ number, text: `${info.code} Exodus ${chapter}:${number}` })),
    }));
    const books = [...text.books];
    books.splice(1, 0, { code: 'EXO', chapters });
    return { info, text: { ...text, books } };
  });
  const versification = syntheticVersification(versions.map(({ info }) => ({ code: info.code, sha256: SYNTHETIC_SOURCE })));
  for (const [code, mapped] of Object.entries(EXODUS_MAPPED)) {
    const entry = versification.versions[code];
    if (entry) entry.mapped = { ...entry.mapped, ...mapped };
  }
  return { versions: changed, versification };
}
