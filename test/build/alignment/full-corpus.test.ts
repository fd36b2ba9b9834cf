// The shipped versification mapping and verse-of-the-day list against the five real sources (BIBLE_SOURCES_DIR): every verse accounted for, the known pairs, and every day whole.
import { readFile } from 'node:fs/promises';
import { beforeAll, expect, it } from 'vitest';
import { loadVersificationMapping, rulesFor } from '../../../build/alignment/mapping-data.ts';
import { PivotNumbering } from '../../../build/alignment/pivot-numbering.ts';
import { dayPassages, loadVersesOfTheDay, verseOfTheDayBodies } from '../../../build/alignment/verses-of-the-day.ts';
import { checkVerseMap, type VerseMapCheck } from '../../../build/alignment/version-verse-map.ts';
import type { Lang } from '../../../build/contract/books.ts';
import type { VerseOfTheDayResponse } from '../../../build/contract/response-schemas.ts';
import { counterparts, parseVerseRef, VerseAlignment, type VerseRef } from '../../../build/contract/verse-map.ts';
import type { VersionText } from '../../../build/model.ts';
import { readSource } from '../../../build/read-source.ts';
import { sourcePath } from '../../../build/sources.ts';
import { loadVersionManifest } from '../../../build/version-manifest.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';

const SOURCES = requirement('BIBLE_SOURCES_DIR').path;

describeWith(['BIBLE_SOURCES_DIR'], 'the versification mapping over the five real sources', () => {
  const mapping = loadVersificationMapping();
  const pivot = new PivotNumbering(mapping.pivot);
  const texts = new Map<Lang, VersionText>();
  const checks = new Map<Lang, VerseMapCheck>();
  const aligned = new Map<Lang, VerseAlignment>();
  const days = new Map<Lang, VerseOfTheDayResponse[]>();

  beforeAll(async () => {
    const passages = dayPassages(loadVersesOfTheDay(), pivot);
    for (const entry of loadVersionManifest().versions) {
      const text = readSource(entry, await readFile(sourcePath(SOURCES!, entry)));
      const check = checkVerseMap(rulesFor(mapping, entry.code), entry, text, pivot);
      const alignment = new VerseAlignment(check.map);
      texts.set(entry.lang, text);
      checks.set(entry.lang, check);
      aligned.set(entry.lang, alignment);
      days.set(entry.lang, verseOfTheDayBodies(passages, alignment, { info: entry, text }));
    }
  }, 120_000);

  /** The text of a verse of a version (its heading first, where the title stands). */
  const textOf = (lang: Lang, ref: VerseRef): string => {
    const verse = texts
      .get(lang)!
      .books.find((book) => book.code === ref.usfm)
      ?.chapters.find((chapter) => chapter.number === ref.chapter)
      ?.verses.find((candidate) => candidate.number === ref.verse);
    if (!verse) throw new Error(`${lang} has no ${ref.usfm} ${ref.chapter}:${ref.verse}`);
    return `${verse.heading ?? ''} ${verse.text}`.trim();
  };
  const align = (from: Lang, to: Lang, text: string) => counterparts(aligned.get(from)!, aligned.get(to)!, parseVerseRef(text)!);
  const refs = (...texts: string[]) => texts.map((text) => parseVerseRef(text)!);

  it('fits every version: each verse maps somewhere or is listed, each pivot verse is held or listed, for the pinned sources', () => {
    for (const [lang, check] of checks) {
      expect(check.problems, lang).toEqual([]);
      expect(check.map.unmatched, lang).toEqual([]);
      expect(check.map.absent, lang).toEqual([]);
    }
    expect(checks.get('fr')!.summary.renumbered).toBeGreaterThan(1000);
  });

  it('pairs the numbering differences the README names, in the real texts', () => {
    expect(align('en', 'fr', 'EXO 8:1')).toEqual(refs('EXO 7:26'));
    expect(textOf('en', refs('EXO 8:1')[0]!)).toContain('Let my people go');
    expect(textOf('fr', refs('EXO 7:26')[0]!)).toContain('Laisse aller mon peuple');
    expect(align('fr', 'en', 'LEV 5:20')).toEqual(refs('LEV 6:1'));
    expect(align('en', 'es', 'JON 1:17')).toEqual(refs('JON 2:1'));
    expect(textOf('es', refs('JON 2:1')[0]!)).toContain('gran pez');
    for (const lang of ['fr', 'pt', 'nl'] as const)
      expect(align('en', lang, 'JON 1:17'), lang).toEqual(refs(lang === 'fr' ? 'JON 2:1' : 'JON 1:17'));
    // Psalm 51's title: LSG and STV number it 1-2, the KJV holds it as the heading of verse 1, RVR in the words of verse 1.
    expect(align('fr', 'en', 'PSA 51:1')).toEqual(refs('PSA 51:1'));
    expect(textOf('en', refs('PSA 51:1')[0]!)).toMatch(/^To the chief Musician, A Psalm of David, when Nathan/);
    expect(textOf('fr', refs('PSA 51:1')[0]!)).toContain('David');
    expect(align('fr', 'nl', 'PSA 51:2')).toEqual(refs('PSA 51:1', 'PSA 51:2'));
    expect(align('en', 'fr', 'PSA 51:10')).toEqual(refs('PSA 51:12'));
    expect(align('nl', 'en', 'PSA 3:8')).toEqual(refs('PSA 3:7', 'PSA 3:8'));
    // Verses a module leaves empty are found where their words stand.
    expect(align('en', 'es', 'NUM 12:16')).toEqual(refs('NUM 13:1'));
    expect(align('en', 'nl', '1SA 23:29')).toEqual(refs('1SA 24:1'));
    expect(align('en', 'nl', 'ACT 19:41')).toEqual(refs('ACT 19:40'));
    expect(align('en', 'pt', 'PSA 46:3')).toEqual(refs('PSA 46:2'));
  });

  it('lines the renumbered verses up with what they hold: their lengths follow the KJV’s far better than by number', () => {
    const logLength = (lang: Lang, ref: VerseRef) => Math.log(textOf(lang, ref).length);
    for (const lang of ['fr', 'es', 'nl'] as const) {
      const byMapping: [number, number][] = [];
      const byNumber: [number, number][] = [];
      for (const from of Object.keys(checks.get(lang)!.map.mapped).map((text) => parseVerseRef(text)!)) {
        const kjv = counterparts(aligned.get(lang)!, aligned.get('en')!, from)!;
        const kjvLength = Math.log(kjv.reduce((sum, ref) => sum + textOf('en', ref).length, 0));
        byMapping.push([logLength(lang, from), kjvLength]);
        if (aligned.get('en')!.has(from)) byNumber.push([logLength(lang, from), logLength('en', from)]);
      }
      const mapped = correlation(byMapping);
      expect(mapped, lang).toBeGreaterThan(0.6);
      expect(mapped - correlation(byNumber), lang).toBeGreaterThan(0.3);
    }
  });

  it('gives every day a whole passage in all five versions, the same passage on a day', () => {
    const english = days.get('en')!;
    expect(english).toHaveLength(366);
    for (const [lang, bodies] of days) {
      expect(
        bodies.map((body) => body.shared),
        lang,
      ).toEqual(english.map((body) => body.shared));
      for (const body of bodies) expect(body.verses.length, `${lang} ${body.day}`).toBeGreaterThan(0);
    }
    const march23 = (lang: Lang) => days.get(lang)!.find((body) => body.day === '03-23')!;
    expect(march23('en')).toMatchObject({ shared: 'PSA 51:10', reference: 'Psalms 51:10' });
    expect(march23('fr')).toMatchObject({ shared: 'PSA 51:10', reference: 'Psaumes 51.12' });
    expect(march23('nl')).toMatchObject({ shared: 'PSA 51:10', reference: 'Psalmen 51:12' });
    expect(march23('fr').verses[0]!.text).toMatch(/cœur pur/);
  });
});

/** Pearson's correlation of the pairs. */
function correlation(pairs: readonly [number, number][]): number {
  const mean = (index: 0 | 1) => pairs.reduce((sum, pair) => sum + pair[index], 0) / pairs.length;
  const [mx, my] = [mean(0), mean(1)];
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
