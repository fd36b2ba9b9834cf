// The verse of the day: the shipped list (366 days, each a passage of the shared numbering), the same passage in every language on a day, and a passage a version lacks refused.
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { loadVersificationMapping, rulesFor, type VersionMappingRules } from '../../../build/alignment/mapping-data.ts';
import { PivotNumbering } from '../../../build/alignment/pivot-numbering.ts';
import {
  DAYS_OF_THE_YEAR,
  dayPassages,
  loadVersesOfTheDay,
  parseVersesOfTheDay,
  VerseOfTheDayError,
  type VersesOfTheDay,
  verseOfTheDayBodies,
} from '../../../build/alignment/verses-of-the-day.ts';
import { verseMapOrThrow } from '../../../build/alignment/version-verse-map.ts';
import { LANGS, type Lang } from '../../../build/contract/books.ts';
import { VerseOfTheDaySchema } from '../../../build/contract/response-schemas.ts';
import { formatVerseRef, VerseAlignment, verseKey } from '../../../build/contract/verse-map.ts';
import type { BuiltVersion } from '../../../build/writers/types.ts';
import { syntheticInfo } from '../../helpers/synthetic-model.ts';

const mapping = loadVersificationMapping();
const pivot = new PivotNumbering(mapping.pivot);

/** Exodus 7-8 numbered as `code` numbers them (LSG: French, the others: KJV), with the shipped rules of those chapters. */
function exodusVersion(lang: Lang, code: string): { version: BuiltVersion; rules: VersionMappingRules } {
  const french = code === 'LSG';
  const chapters = french ? [29, 28] : [25, 32];
  const version: BuiltVersion = {
    info: { ...syntheticInfo(lang), code },
    text: {
      code,
      issues: [],
      books: [
        {
          code: 'EXO',
          chapters: chapters.map((last, index) => ({
            number: 7 + index,
            verses: Array.from({ length: last }, (_, verse) => ({ number: verse + 1, text: `${code} Exodus ${7 + index}:${verse + 1}` })),
          })),
        },
      ],
    },
  };
  const rules = rulesFor(mapping, code);
  const mapped = Object.fromEntries(Object.entries(rules.mapping.mapped).filter(([from]) => /^EXO [78]:/.test(from)));
  return { version, rules: { ...rules, mapping: { ...rules.mapping, mapped } } };
}

const CODES: Record<Lang, string> = { fr: 'LSG', en: 'KJV', es: 'RVR', pt: 'BLIVRE', nl: 'STV' };

function listOf(passages: readonly string[]): VersesOfTheDay {
  return {
    schemaVersion: 1,
    numbering: 'test',
    days: Object.fromEntries(DAYS_OF_THE_YEAR.map((day, index) => [day, passages[index % passages.length]!])),
  };
}

describe('the verse of the day', () => {
  it('ships a passage of the shared numbering for each of the 366 days, each day a different one', () => {
    const list = loadVersesOfTheDay();
    const passages = dayPassages(list, pivot);
    expect(passages.map((passage) => passage.day)).toEqual(DAYS_OF_THE_YEAR);
    expect(passages[0]).toMatchObject({ day: '01-01', shared: 'LAM 3:22-23' });
    expect(list.days['02-29']).toBeDefined();
    expect(list.days['12-25']).toBe('LUK 2:10-11');
    expect(new Set(Object.values(list.days)).size).toBe(366);
    // A few verses each (the longest, the Lord’s Prayer, has five), so a day stays a short read and a small file.
    for (const passage of passages) expect(passage.pivots.length, passage.day).toBeLessThanOrEqual(5);
  });

  it('refuses a list without every day of a leap year, or with a passage the shared numbering lacks', () => {
    const { '02-29': _leapDay, ...days } = listOf(['JHN 3:16']).days;
    expect(() => parseVersesOfTheDay({ ...listOf(['JHN 3:16']), days })).toThrow(/366 days of a leap year; missing 02-29/);
    expect(() => parseVersesOfTheDay({ ...listOf(['JHN 3:16']), days: { ...days, '02-30': 'JHN 3:16' } })).toThrow(VerseOfTheDayError);
    expect(() => dayPassages(listOf(['JHN 3:16', 'JHN 3:37']), pivot)).toThrow(
      'verse of the day 01-02: "JHN 3:37": the pivot has no verse JHN 3:37',
    );
  });

  it('is the same passage in all five languages on a day, each in its own numbering (LSG numbers KJV Exodus 8:1-2 as 7:26-27)', () => {
    const days = dayPassages(listOf(['EXO 8:1-2', 'EXO 7:25-8:1', 'EXO 8:32']), pivot);
    const bodies = Object.fromEntries(
      LANGS.map((lang) => {
        const { version, rules } = exodusVersion(lang, CODES[lang]);
        const alignment = new VerseAlignment(verseMapOrThrow(rules, { lang, code: CODES[lang] }, version.text, pivot).map);
        const made = verseOfTheDayBodies(days, alignment, version);
        // Every verse answered holds a verse of the day's passage, and every verse of the passage is held.
        for (const [index, body] of made.entries()) {
          const held = body.verses.flatMap((verse) =>
            alignment.pivotsOf({ usfm: body.book.usfm, chapter: verse.chapter, verse: verse.verse })!.map(formatVerseRef),
          );
          expect(new Set(held), `${lang} ${body.day}`).toEqual(new Set(days[index]!.pivots.map(formatVerseRef)));
          expect(Value.Check(VerseOfTheDaySchema, body), `${lang} ${body.day}`).toBe(true);
        }
        return [lang, made];
      }),
    );
    for (const lang of LANGS) expect(bodies[lang]!.map((body) => body.shared)).toEqual(bodies.en!.map((body) => body.shared));
    expect(bodies.en![0]).toMatchObject({ day: '01-01', shared: 'EXO 8:1-2', reference: 'Exodus 8:1-2', version: 'KJV' });
    expect(bodies.fr![0]).toMatchObject({
      day: '01-01',
      shared: 'EXO 8:1-2',
      reference: 'Exode 7.26-27',
      from: { chapter: 7, verse: 26 },
      to: { chapter: 7, verse: 27 },
      verses: [
        { chapter: 7, verse: 26, text: 'LSG Exodus 7:26' },
        { chapter: 7, verse: 27, text: 'LSG Exodus 7:27' },
      ],
    });
    expect(bodies.es![1]).toMatchObject({ reference: 'Éxodo 7.25-8.1' });
    expect(bodies.fr![1]).toMatchObject({ reference: 'Exode 7.25-26' });
    expect(bodies.fr![2]).toMatchObject({ reference: 'Exode 8.28' });
  });

  it('refuses a day whose passage a version lacks, naming the day and the verse', () => {
    const { version, rules } = exodusVersion('en', 'KJV');
    version.text.books[0]!.chapters[1]!.verses.pop();
    const alignment = new VerseAlignment(verseMapOrThrow(rules, { lang: 'en', code: 'KJV' }, version.text, pivot).map);
    const days = dayPassages(listOf(['EXO 8:1', 'EXO 8:31-32']), pivot);
    expect(() => verseOfTheDayBodies(days, alignment, version)).toThrow(
      /The verse of the day is not whole in KJV:\n {2}- 01-02: KJV has no verse holding EXO 8:32\n/,
    );
    expect(verseKey({ usfm: 'EXO', chapter: 8, verse: 32 })).toBe(2_008_032);
  });
});
