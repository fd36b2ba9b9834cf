// One version's verse map, made from its mapping rules and checked against its text: every verse maps somewhere or is listed, every rule fits.
import { bookByUsfm, type Lang } from '../contract/books.ts';
import { formatVerseRef, type VerseMap, type VerseRef, verseKey, verseOfKey } from '../contract/verse-map.ts';
import type { VersionText } from '../model.ts';
import { canonicalBooks } from '../writers/version-bodies.ts';
import type { VersionMappingRules } from './mapping-data.ts';
import { PivotNumbering } from './pivot-numbering.ts';

/** What aligning a version found, for the build report. */
export interface AlignmentSummary {
  /** Verses of the version that are not the pivot verse of their number (`mapped` entries). */
  renumbered: number;
  /** Verses of the version that no pivot verse stands for. */
  unmatched: string[];
  /** Pivot verses that no verse of the version holds. */
  absent: string[];
}

export interface VerseMapCheck {
  map: VerseMap;
  summary: AlignmentSummary;
  /** Everything that does not fit, one sentence each; empty when the mapping fits the version. */
  problems: string[];
}

/** The version's mapping does not fit its text; the message lists what does not. */
export class VerseMapError extends Error {
  override name = 'VerseMapError';
}

/**
 * Applies a version's mapping rules to its text and checks them against it:
 * - the mapping was made for this source (its `source` is the manifest's SHA-256);
 * - each rule names verses the version has, and pivot verses that exist; equal lengths pair verse
 *   by verse, else one side is a single verse;
 * - every verse without a rule is the pivot verse of its number, which must exist, and no other
 *   verse reaches that pivot verse through a rule (else the number alone would have matched it);
 * - unmatched verses exist; in every book the version has whole, each pivot verse is held by some
 *   verse or listed as absent, and no verse listed as absent is held.
 *
 * @example const { map, problems } = checkVerseMap(rules, entry, text); if (problems.length) throw new VerseMapError(...)
 */
export function checkVerseMap(
  rules: VersionMappingRules,
  info: { lang: Lang; code: string; sha256?: string },
  text: VersionText,
  pivot: PivotNumbering = new PivotNumbering(rules.pivot),
): VerseMapCheck {
  const problems: string[] = [];
  const { mapping } = rules;
  if (info.sha256 !== undefined && mapping.source !== info.sha256) {
    problems.push(
      `the mapping of ${info.code} was checked against source ${mapping.source.slice(0, 12)}…, the manifest pins ${info.sha256.slice(0, 12)}…: check the mapping against the new source, then update its "source"`,
    );
  }

  // The version's verses, and its chapter counts as `books` gives them.
  const present = new Set<number>();
  const verseCounts: Record<string, number[]> = {};
  const wholeBooks = new Set<string>();
  const missing: number[] = [];
  for (const { canon, book } of canonicalBooks(text.books)) {
    const counts: number[] = [];
    for (const chapter of book.chapters) {
      const base = canon.order * 1_000_000 + chapter.number * 1_000;
      let last = 0;
      for (const verse of chapter.verses) {
        present.add(base + verse.number);
        last = Math.max(last, verse.number);
      }
      for (let verse = 1; verse <= last; verse++) if (!present.has(base + verse)) missing.push(base + verse);
      while (counts.length < chapter.number - 1) counts.push(0);
      counts[chapter.number - 1] = last;
    }
    verseCounts[canon.usfm] = counts;
    const pivotChapters = pivot.verseCounts.get(canon.usfm)?.length ?? 0;
    if (counts.length === pivotChapters && counts.every((last) => last > 0)) wholeBooks.add(canon.usfm);
  }

  // Version verse key → pivot keys, from the rules.
  const mapped = new Map<number, number[]>();
  for (const [versionRange, pivotRange] of Object.entries(mapping.mapped)) {
    let verses: VerseRef[];
    let pivots: VerseRef[];
    try {
      verses = versionVerses(versionRange);
      pivots = pivot.expand(pivotRange);
    } catch (error) {
      problems.push(`mapped "${versionRange}": ${(error as Error).message}`);
      continue;
    }
    if (pivots.some((verse) => verse.usfm !== verses[0]!.usfm)) {
      problems.push(`mapped "${versionRange}": "${pivotRange}" is in another book`);
      continue;
    }
    if (verses.length !== pivots.length && verses.length !== 1 && pivots.length !== 1) {
      problems.push(
        `mapped "${versionRange}" → "${pivotRange}": ${verses.length} verses against ${pivots.length}; pair equal lengths, or map one verse to many or many to one`,
      );
      continue;
    }
    verses.forEach((verse, index) => {
      const key = verseKey(verse);
      if (!present.has(key)) problems.push(`mapped "${versionRange}": ${info.code} has no verse ${formatVerseRef(verse)}`);
      if (mapped.has(key)) problems.push(`${formatVerseRef(verse)} is mapped twice (again in "${versionRange}")`);
      const held = verses.length === pivots.length ? [pivots[index]!] : pivots.length === 1 ? [pivots[0]!] : pivots;
      mapped.set(key, held.map(verseKey));
    });
  }
  if (mapping.psalmTitles === 'in-verse-1') {
    for (const title of rules.pivot.psalmTitles) {
      const verseOne = verseKey({ usfm: 'PSA', chapter: title, verse: 1 });
      if (present.has(verseOne) && !mapped.has(verseOne)) mapped.set(verseOne, [verseOne - 1, verseOne]);
    }
  }
  const unmatched = new Set<number>();
  for (const range of mapping.unmatched) {
    let verses: VerseRef[] = [];
    try {
      verses = versionVerses(range);
    } catch (error) {
      problems.push(`unmatched "${range}": ${(error as Error).message}`);
    }
    for (const verse of verses) {
      const key = verseKey(verse);
      if (!present.has(key)) problems.push(`unmatched "${range}": ${info.code} has no verse ${formatVerseRef(verse)}`);
      if (mapped.has(key)) problems.push(`${formatVerseRef(verse)} is both mapped and unmatched`);
      unmatched.add(key);
    }
  }

  // Which verse reaches each pivot verse, through a rule or by its number (the first of each kind is enough to tell).
  const byRule = new Map<number, number>();
  const byNumber = new Map<number, number>();
  for (const key of present) {
    if (unmatched.has(key)) continue;
    const rule = mapped.get(key);
    if (rule) {
      for (const pivotKey of rule) if (!byRule.has(pivotKey)) byRule.set(pivotKey, key);
    } else if (pivot.hasKey(key)) {
      byNumber.set(key, key);
    } else {
      problems.push(`${refText(key)} maps nowhere: the pivot has no verse of that number; map it or list it as unmatched`);
    }
  }
  for (const [pivotKey, from] of byNumber) {
    const other = byRule.get(pivotKey);
    if (other !== undefined) {
      problems.push(
        `${refText(from)} is matched by its number alone with pivot ${refText(pivotKey)}, which ${refText(other)} holds through a rule: map ${refText(from)} too`,
      );
    }
  }
  const holder = (pivotKey: number) => byRule.get(pivotKey) ?? byNumber.get(pivotKey);

  // Pivot verses no verse holds: listed as absent, in the books the version has whole.
  const absent = new Set<number>();
  for (const range of mapping.absent) {
    try {
      for (const verse of pivot.expand(range)) {
        const key = verseKey(verse);
        absent.add(key);
        const from = holder(key);
        if (from !== undefined) problems.push(`absent "${range}": ${formatVerseRef(verse)} is held by ${refText(from)}`);
      }
    } catch (error) {
      problems.push(`absent "${range}": ${(error as Error).message}`);
    }
  }
  for (const usfm of wholeBooks) {
    for (const key of pivot.keysOf(usfm)) {
      if (holder(key) === undefined && !absent.has(key)) {
        problems.push(`no verse of ${info.code} holds pivot verse ${refText(key)}: map the verse that holds it, or list it as absent`);
      }
    }
  }

  const sortedKeys = (keys: Iterable<number>) => [...keys].sort((a, b) => a - b);
  const map: VerseMap = {
    lang: info.lang,
    version: info.code,
    pivot: rules.pivot.description,
    licence: rules.licence,
    attribution: rules.attribution,
    verseCounts,
    missing: sortedKeys(missing).map(refText),
    mapped: Object.fromEntries(sortedKeys(mapped.keys()).map((key) => [refText(key), mapped.get(key)!.map(refText)])),
    unmatched: sortedKeys(unmatched).map(refText),
    absent: sortedKeys(absent).map(refText),
  };
  return { map, problems, summary: { renumbered: mapped.size, unmatched: map.unmatched, absent: map.absent } };
}

/**
 * Checks the version's mapping and returns its verse map; throws a VerseMapError listing what does
 * not fit (the first 20 problems, and how many there are).
 */
export function verseMapOrThrow(...args: Parameters<typeof checkVerseMap>): VerseMapCheck {
  const check = checkVerseMap(...args);
  if (check.problems.length > 0) {
    const shown = check.problems.slice(0, 20).map((problem) => `  - ${problem}`);
    const more = check.problems.length > shown.length ? [`  … and ${check.problems.length - shown.length} more`] : [];
    throw new VerseMapError(
      [
        `The versification mapping of ${args[1].code} does not fit its text (data/versification-mapping.json, ${check.problems.length} problem${check.problems.length === 1 ? '' : 's'}):`,
        ...shown,
        ...more,
      ].join('\n'),
    );
  }
  return check;
}

/** The verses of a version range ("EXO 7:26-29", whose form the schema has checked); a RangeError for an unknown book or a backward range. */
function versionVerses(range: string): VerseRef[] {
  const match = /^([0-9A-Z]{3}) (\d+):(\d+)(?:-(\d+))?$/.exec(range)!;
  const [usfm, chapter, first] = [match[1]!, Number(match[2]), Number(match[3])];
  const last = match[4] === undefined ? first : Number(match[4]);
  if (!bookByUsfm(usfm)) throw new RangeError(`${usfm} is not a book of the canon`);
  if (last < first) throw new RangeError(`"${range}" ends before it starts`);
  const verses: VerseRef[] = [];
  for (let verse = first; verse <= last; verse++) verses.push({ usfm, chapter, verse });
  return verses;
}

function refText(key: number): string {
  return formatVerseRef(verseOfKey(key));
}
