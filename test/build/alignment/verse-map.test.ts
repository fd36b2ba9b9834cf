// The versification mapping: the shipped data's known pairs (through versions numbered as the real ones in those chapters), and the check that refuses a mapping that does not fit.
import { describe, expect, it } from 'vitest';
import {
  loadVersificationMapping,
  parseVersificationMapping,
  rulesFor,
  VersificationMappingError,
  type VersionMappingRules,
} from '../../../build/alignment/mapping-data.ts';
import { PivotNumbering } from '../../../build/alignment/pivot-numbering.ts';
import { checkVerseMap, VerseMapError, verseMapOrThrow } from '../../../build/alignment/version-verse-map.ts';
import type { Lang } from '../../../build/contract/books.ts';
import { counterparts, parseVerseRef, VerseAlignment, type VerseRef } from '../../../build/contract/verse-map.ts';
import type { Book, VersionText } from '../../../build/model.ts';

const shipped = loadVersificationMapping();
const pivot = new PivotNumbering(shipped.pivot);

/** A version holding `chapters` of a book: for each chapter, its verse numbers 1 … last (some left out). */
function versionOf(
  code: string,
  usfm: string,
  chapters: Record<number, { last: number; without?: number[]; heading?: string }>,
): VersionText {
  const book: Book = {
    code: usfm,
    chapters: Object.entries(chapters).map(([chapter, { last, without = [], heading }]) => ({
      number: Number(chapter),
      verses: Array.from({ length: last }, (_, index) => index + 1)
        .filter((verse) => !without.includes(verse))
        .map((verse) => ({ number: verse, text: `${code} ${usfm} ${chapter}:${verse}`, ...(verse === 1 && heading ? { heading } : {}) })),
    })),
  };
  return { code, books: [book], issues: [] };
}

/** The shipped rules of `code` for the chapters named (so a version holding only those chapters fits them). */
function shippedRulesFor(code: string, ...chapters: string[]): VersionMappingRules {
  const rules = rulesFor(shipped, code);
  const inChapters = (range: string) => chapters.some((chapter) => range.startsWith(`${chapter}:`));
  return {
    ...rules,
    mapping: { ...rules.mapping, mapped: Object.fromEntries(Object.entries(rules.mapping.mapped).filter(([from]) => inChapters(from))) },
  };
}

function aligned(rules: VersionMappingRules, lang: Lang, text: VersionText): VerseAlignment {
  const { map, problems } = checkVerseMap(rules, { lang, code: text.code }, text, pivot);
  expect(problems, text.code).toEqual([]);
  return new VerseAlignment(map);
}

const ref = (text: string): VerseRef => parseVerseRef(text)!;
const refs = (...texts: string[]) => texts.map(ref);

describe('the shipped versification mapping', () => {
  it('has an entry for each of the five versions, and the numbering differences the README names', () => {
    expect(Object.keys(shipped.versions)).toEqual(['LSG', 'KJV', 'RVR', 'BLIVRE', 'STV']);
    expect(shipped.licence).toBe('CC BY-SA 4.0');
    expect(shipped.versions.LSG!.mapped).toMatchObject({ 'EXO 7:26-29': 'EXO 8:1-4', 'LEV 5:20-26': 'LEV 6:1-7', 'PSA 3:1': 'PSA 3:0' });
    expect(shipped.versions.RVR!.mapped).toMatchObject({ 'JON 2:1': 'JON 1:17' });
    expect(shipped.versions.STV!.mapped).toMatchObject({ 'PSA 3:1': 'PSA 3:0', 'PSA 3:8': 'PSA 3:7-8', 'PSA 51:19': 'PSA 51:17-19' });
    expect(shipped.versions.KJV!.mapped).toEqual({});
  });

  it('pairs KJV Exodus 8:1-4 with LSG Exodus 7:26-29, and the rest of chapter 8 four verses on', () => {
    const kjv = aligned(shippedRulesFor('KJV', 'EXO 7', 'EXO 8'), 'en', versionOf('KJV', 'EXO', { 7: { last: 25 }, 8: { last: 32 } }));
    const lsg = aligned(shippedRulesFor('LSG', 'EXO 7', 'EXO 8'), 'fr', versionOf('LSG', 'EXO', { 7: { last: 29 }, 8: { last: 28 } }));
    expect(counterparts(kjv, lsg, ref('EXO 8:1'))).toEqual(refs('EXO 7:26'));
    expect(counterparts(lsg, kjv, ref('EXO 7:26'))).toEqual(refs('EXO 8:1'));
    expect(counterparts(kjv, lsg, ref('EXO 8:4'))).toEqual(refs('EXO 7:29'));
    expect(counterparts(kjv, lsg, ref('EXO 8:5'))).toEqual(refs('EXO 8:1'));
    expect(counterparts(lsg, kjv, ref('EXO 8:28'))).toEqual(refs('EXO 8:32'));
    // Where the numbering agrees, the verse of the same number.
    expect(counterparts(kjv, lsg, ref('EXO 7:25'))).toEqual(refs('EXO 7:25'));
    // Never the verse of the same number where it differs: LSG 8:1 is not KJV 8:1.
    expect(counterparts(lsg, kjv, ref('EXO 8:1'))).toEqual(refs('EXO 8:5'));
  });

  it('pairs KJV Jonah 1:17 with RVR Jonah 2:1, and RVR 2:10 with KJV 2:9-10 (the module has no 1:17 and ten verses in chapter 2)', () => {
    const kjv = aligned(shippedRulesFor('KJV', 'JON 1', 'JON 2'), 'en', versionOf('KJV', 'JON', { 1: { last: 17 }, 2: { last: 10 } }));
    const rvr = aligned(shippedRulesFor('RVR', 'JON 1', 'JON 2'), 'es', versionOf('RVR', 'JON', { 1: { last: 16 }, 2: { last: 10 } }));
    expect(counterparts(kjv, rvr, ref('JON 1:17'))).toEqual(refs('JON 2:1'));
    expect(counterparts(rvr, kjv, ref('JON 2:1'))).toEqual(refs('JON 1:17'));
    expect(counterparts(rvr, kjv, ref('JON 2:10'))).toEqual(refs('JON 2:9', 'JON 2:10'));
    expect(counterparts(kjv, rvr, ref('JON 2:10'))).toEqual(refs('JON 2:10'));
    // RVR has no verse 1:17: nothing to align from.
    expect(counterparts(rvr, kjv, ref('JON 1:17'))).toBeUndefined();
  });

  it('pairs a Psalm title: LSG and STV number it as verse 1, the KJV holds it as the heading of its verse 1, RVR in its verse 1', () => {
    const chapter = 'PSA 3';
    const kjv = aligned(shippedRulesFor('KJV', chapter), 'en', versionOf('KJV', 'PSA', { 3: { last: 8, heading: 'A Psalm of David…' } }));
    const rvr = aligned(shippedRulesFor('RVR', chapter), 'es', versionOf('RVR', 'PSA', { 3: { last: 8 } }));
    const lsg = aligned(shippedRulesFor('LSG', chapter), 'fr', versionOf('LSG', 'PSA', { 3: { last: 9 } }));
    const stv = aligned(shippedRulesFor('STV', chapter), 'nl', versionOf('STV', 'PSA', { 3: { last: 8 } }));
    // The title alone.
    expect(lsg.pivotsOf(ref('PSA 3:1'))).toEqual(refs('PSA 3:0'));
    expect(counterparts(lsg, stv, ref('PSA 3:1'))).toEqual(refs('PSA 3:1'));
    expect(counterparts(lsg, kjv, ref('PSA 3:1'))).toEqual(refs('PSA 3:1'));
    expect(counterparts(lsg, rvr, ref('PSA 3:1'))).toEqual(refs('PSA 3:1'));
    // KJV 3:1 holds the title (its heading) and the first verse: LSG and STV 3:1-2.
    expect(counterparts(kjv, lsg, ref('PSA 3:1'))).toEqual(refs('PSA 3:1', 'PSA 3:2'));
    expect(counterparts(kjv, stv, ref('PSA 3:1'))).toEqual(refs('PSA 3:1', 'PSA 3:2'));
    expect(counterparts(kjv, lsg, ref('PSA 3:5'))).toEqual(refs('PSA 3:6'));
    // STV fits the Psalm into the KJV's eight numbers: its last holds KJV 3:7-8, LSG 3:8-9.
    expect(counterparts(stv, kjv, ref('PSA 3:8'))).toEqual(refs('PSA 3:7', 'PSA 3:8'));
    expect(counterparts(stv, lsg, ref('PSA 3:8'))).toEqual(refs('PSA 3:8', 'PSA 3:9'));
    expect(counterparts(lsg, stv, ref('PSA 3:9'))).toEqual(refs('PSA 3:8'));
  });

  it('says so when a verse has no counterpart: an unmatched verse, and a pivot verse another version lacks', () => {
    const rules = (code: string, mapped: Record<string, string>, unmatched: string[] = [], absent: string[] = []) => ({
      ...rulesFor(shipped, 'KJV'),
      code,
      mapping: { source: 'a'.repeat(64), psalmTitles: 'in-verse-1' as const, mapped, unmatched, absent },
    });
    const one = aligned(rules('ONE', {}, ['OBA 1:21'], ['OBA 1:21']), 'en', versionOf('ONE', 'OBA', { 1: { last: 21 } }));
    const other = aligned(rules('TWO', {}, [], ['OBA 1:20']), 'fr', versionOf('TWO', 'OBA', { 1: { last: 21, without: [20] } }));
    expect(counterparts(one, other, ref('OBA 1:21'))).toEqual([]);
    expect(counterparts(one, other, ref('OBA 1:20'))).toEqual([]);
    expect(counterparts(other, one, ref('OBA 1:19'))).toEqual(refs('OBA 1:19'));
  });
});

describe('the build-time check of a mapping against a version', () => {
  const synthetic = (mapped: Record<string, string>, extra: Partial<VersionMappingRules['mapping']> = {}): VersionMappingRules => ({
    ...rulesFor(shipped, 'LSG'),
    mapping: { source: 'b'.repeat(64), psalmTitles: 'own-verses', mapped, unmatched: [], absent: [], ...extra },
  });
  // A French-numbered Exodus 7-8, as LSG has it.
  const frenchExodus = versionOf('SYN', 'EXO', { 7: { last: 29 }, 8: { last: 28 } });
  const problemsOf = (rules: VersionMappingRules, text: VersionText = frenchExodus, sha256?: string) =>
    checkVerseMap(rules, { lang: 'fr', code: 'SYN', sha256 }, text, pivot).problems;

  it('accepts the mapping that fits', () => {
    expect(problemsOf(synthetic({ 'EXO 7:26-29': 'EXO 8:1-4', 'EXO 8:1-28': 'EXO 8:5-32' }))).toEqual([]);
  });

  it('refuses verses that map nowhere: numbers the pivot lacks, with no rule', () => {
    expect(problemsOf(synthetic({ 'EXO 8:1-28': 'EXO 8:5-32' }))).toEqual(
      ['EXO 7:26', 'EXO 7:27', 'EXO 7:28', 'EXO 7:29'].map(
        (verse) => `${verse} maps nowhere: the pivot has no verse of that number; map it or list it as unmatched`,
      ),
    );
    // Listed as unmatched, they are accepted.
    expect(problemsOf(synthetic({ 'EXO 8:1-28': 'EXO 8:5-32' }, { unmatched: ['EXO 7:26-29'] }))).toEqual([]);
  });

  it('refuses a verse matched by its number where the numbering differs (a rule one verse short)', () => {
    expect(problemsOf(synthetic({ 'EXO 7:26-29': 'EXO 8:1-4', 'EXO 8:1-27': 'EXO 8:5-31' }))).toEqual([
      'EXO 8:28 is matched by its number alone with pivot EXO 8:28, which EXO 8:24 holds through a rule: map EXO 8:28 too',
    ]);
  });

  it('refuses rules that do not fit the text or the pivot, and a mapping made for another source', () => {
    const problems = problemsOf(
      synthetic({ 'EXO 7:26-29': 'EXO 8:1-4', 'EXO 8:1-28': 'EXO 8:5-32', 'EXO 9:1': 'EXO 9:1', 'EXO 7:1-2': 'EXO 7:1-3' }),
      frenchExodus,
      'c'.repeat(64),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^the mapping of SYN was checked against source bbbbbbbbbbbb…, the manifest pins cccccccccccc…/),
      'mapped "EXO 9:1": SYN has no verse EXO 9:1',
      'mapped "EXO 7:1-2" → "EXO 7:1-3": 2 verses against 3; pair equal lengths, or map one verse to many or many to one',
    ]);
    // The rule is left out, so chapter 8's verses fall back on their numbers, which rules already reach.
    expect(problemsOf(synthetic({ 'EXO 7:26-29': 'EXO 8:1-4', 'EXO 8:1-28': 'EXO 8:5-33' }))[0]).toBe(
      'mapped "EXO 8:1-28": "EXO 8:5-33": the pivot has no verse EXO 8:33',
    );
  });

  it('in a book the version has whole, refuses a pivot verse no verse holds unless it is listed as absent', () => {
    // Obadiah is one chapter of 21 verses: a version without verse 21 has the book whole, but not 1:21's text.
    const obadiah = versionOf('SYN', 'OBA', { 1: { last: 20 } });
    expect(problemsOf(synthetic({}), obadiah)).toEqual([
      'no verse of SYN holds pivot verse OBA 1:21: map the verse that holds it, or list it as absent',
    ]);
    expect(problemsOf(synthetic({}, { absent: ['OBA 1:21'] }), obadiah)).toEqual([]);
    expect(problemsOf(synthetic({ 'OBA 1:20': 'OBA 1:20-21' }), obadiah)).toEqual([]);
    // An absent verse that a verse holds is refused too.
    expect(problemsOf(synthetic({ 'OBA 1:20': 'OBA 1:20-21' }, { absent: ['OBA 1:21'] }), obadiah)).toEqual([
      'absent "OBA 1:21": OBA 1:21 is held by OBA 1:20',
    ]);
  });

  it('throws a VerseMapError listing the problems, which fails the build', () => {
    expect(() => verseMapOrThrow(synthetic({}), { lang: 'fr', code: 'SYN' }, frenchExodus, pivot)).toThrow(VerseMapError);
    expect(() => verseMapOrThrow(synthetic({}), { lang: 'fr', code: 'SYN' }, frenchExodus, pivot)).toThrow(
      /The versification mapping of SYN does not fit its text \(data\/versification-mapping.json, 4 problems\):\n {2}- EXO 7:26 maps nowhere/,
    );
  });

  it('refuses a malformed mapping file, naming the field', () => {
    const broken = structuredClone(shipped) as unknown as { versions: Record<string, { mapped: Record<string, string> }> };
    broken.versions.LSG!.mapped['Exodus 7:26'] = 'EXO 8:1';
    expect(() => parseVersificationMapping(broken)).toThrow(VersificationMappingError);
    expect(() => rulesFor(shipped, 'NEW')).toThrow(/no entry for version NEW/);
  });
});
