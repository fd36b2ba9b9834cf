// One version's alignment files: its verse map, checked against its text, and its verse-of-the-day days (the streaming build and the test fixture share them).
import type { VersionMappingRules } from '../alignment/mapping-data.ts';
import { PivotNumbering } from '../alignment/pivot-numbering.ts';
import { type DayPassage, verseOfTheDayBodies } from '../alignment/verses-of-the-day.ts';
import { type AlignmentSummary, verseMapOrThrow } from '../alignment/version-verse-map.ts';
import { staticPaths } from '../contract/layout.ts';
import { VerseAlignment, type VerseMap } from '../contract/verse-map.ts';
import type { BuiltVersion, OutputFile } from './types.ts';

export interface AlignedVersion {
  map: VerseMap;
  summary: AlignmentSummary;
  /** `{lang}/verse-map.json`. */
  verseMapFile: OutputFile;
  /** One file per day of the year, in calendar order. A day's file is about 1 kB: the build gives it no compressed copies. */
  dayFiles: OutputFile[];
}

/**
 * Checks the version's mapping against its text (a VerseMapError when it does not fit) and makes its
 * verse map and days (a VerseOfTheDayError when a day's passage is not whole in it). `sha256` is the
 * source's, which the mapping must have been checked against (the manifest entry carries it).
 *
 * @example const { map, verseMapFile, dayFiles } = alignedVersion({ info: entry, text }, rules, days);
 */
export function alignedVersion(
  version: BuiltVersion & { info: { sha256?: string } },
  rules: VersionMappingRules,
  days: readonly DayPassage[],
): AlignedVersion {
  const { info } = version;
  const { map, summary } = verseMapOrThrow(rules, info, version.text, new PivotNumbering(rules.pivot));
  const bodies = verseOfTheDayBodies(days, new VerseAlignment(map), version);
  return {
    map,
    summary,
    verseMapFile: { path: staticPaths.verseMap(info.lang), content: JSON.stringify(map) },
    dayFiles: bodies.map((body) => ({ path: staticPaths.verseOfTheDay(info.lang, body.day), content: JSON.stringify(body) })),
  };
}
