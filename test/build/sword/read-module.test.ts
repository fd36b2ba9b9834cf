import { describe, expect, it } from 'vitest';
import { readSwordModule } from '../../../build/sword/read-module.ts';
import type { Versification } from '../../../build/versification.ts';
import { syntheticSwordZip } from '../../helpers/synthetic-sword.ts';

const GEN_1_1 =
  '<w lemma="strong:H07225">In the beginning</w> <w lemma="strong:H0430">God</w> <w lemma="strong:H0853 strong:H01254" morph="strongMorph:TH8804">created</w> <w lemma="strong:H08064">the heaven</w> <w lemma="strong:H0853">and</w> <w lemma="strong:H0776">the earth</w>.';
const JHN_3_16 = '<q marker="" who="Jesus"><w lemma="strong:G1063">For</w> <w lemma="strong:G2316">God</w> so loved the world</q>.';

function verse(version: ReturnType<typeof readSwordModule>['version'], book: string, chapter: number, number: number) {
  return version.books.find((b) => b.code === book)?.chapters[chapter - 1]?.verses.find((v) => v.number === number);
}

describe('readSwordModule on a synthetic KJV-versified module', () => {
  const zip = syntheticSwordZip({
    entries: {
      'Gen.0.0': '<div type="book" osisID="Gen" sID="b1"/><title type="main">GENESIS</title>',
      'Gen.1.0': '<chapter osisID="Gen.1" sID="c1"/>',
      'Gen.1.1': GEN_1_1,
      'Gen.1.2': 'And the earth was without form.',
      'Gen.1.31': 'And God saw every thing.',
      'Gen.2.1': 'Thus the heavens.',
      'Ps.3.1': '<title canonical="true" type="psalm">A Psalm of David.</title>LORD, how are they increased',
      'John.3.16': JHN_3_16,
      'John.3.17': '<div type="x-milestone" sID="pv1"/>',
      'Rev.22.21': 'The grace of our Lord Jesus Christ be with you all. Amen.',
    },
  });
  const { conf, version } = readSwordModule(zip, 'KJV');

  it('reads the conf fields the build keeps', () => {
    expect(conf).toMatchObject({
      name: 'TEST',
      versification: 'KJV',
      compressType: 'ZIP',
      encoding: 'UTF-8',
      lang: 'en',
      version: '1.0',
      distributionLicense: 'Public Domain',
    });
  });

  it('finds each verse at its place in the index, across block boundaries', () => {
    expect(verse(version, 'GEN', 1, 1)?.text).toBe('In the beginning God created the heaven and the earth.');
    expect(verse(version, 'GEN', 1, 2)?.text).toBe('And the earth was without form.');
    expect(verse(version, 'GEN', 1, 31)?.text).toBe('And God saw every thing.');
    expect(verse(version, 'GEN', 2, 1)?.text).toBe('Thus the heavens.');
    expect(verse(version, 'JHN', 3, 16)?.text).toBe('For God so loved the world.');
    expect(verse(version, 'REV', 22, 21)?.text).toBe('The grace of our Lord Jesus Christ be with you all. Amen.');
  });

  it('keeps a canonical psalm title as the heading of verse 1', () => {
    expect(verse(version, 'PSA', 3, 1)).toEqual({ number: 1, text: 'LORD, how are they increased', heading: 'A Psalm of David.' });
  });

  it('has all 66 books in canonical order with the chapter counts of the versification', () => {
    expect(version.books.map((b) => b.code).slice(0, 3)).toEqual(['GEN', 'EXO', 'LEV']);
    expect(version.books).toHaveLength(66);
    expect(version.books[0].chapters).toHaveLength(50);
    expect(version.books.at(-1)?.chapters).toHaveLength(22);
    expect(version.books.reduce((sum, b) => sum + b.chapters.length, 0)).toBe(1189);
  });

  it('leaves out empty and markup-only entries and reports each as a missing verse', () => {
    const filled = 7; // John 3:17 holds only a milestone
    const missing = version.issues.filter((issue) => issue.kind === 'missing-verse');
    expect(missing).toHaveLength(31102 - filled);
    expect(missing).toContainEqual(expect.objectContaining({ where: 'GEN 1:3' }));
    expect(missing).toContainEqual(expect.objectContaining({ where: 'JHN 3:17', detail: expect.stringMatching(/markup/) }));
    expect(verse(version, 'GEN', 1, 3)).toBeUndefined();
  });

  it('reports nothing else for clean markup', () => {
    expect(version.issues.filter((issue) => issue.kind !== 'missing-verse')).toEqual([]);
  });
});

describe('readSwordModule with a made-up versification', () => {
  const tiny: Versification = {
    name: 'TINY',
    books: [
      { osis: 'Gen', name: 'Genesis', testament: 'OT', verses: [3, 2] },
      { osis: 'Tob', name: 'Tobit', testament: 'OT', verses: [2] },
      { osis: 'Matt', name: 'Matthew', testament: 'NT', verses: [2] },
    ],
  };
  const entries = {
    'Gen.1.1': 'one',
    'Gen.1.2': 'two',
    'Gen.1.3': 'three',
    'Gen.2.1': 'four',
    'Gen.2.2': 'five',
    'Tob.1.1': 'apocryphal',
    'Tob.1.2': 'apocryphal too',
    'Matt.1.1': 'The book',
    'Matt.1.2': 'Abraham begat Isaac',
  };

  it('reads every verse whatever the block size', () => {
    for (const entriesPerBlock of [1, 2, 5, 100]) {
      const zip = syntheticSwordZip({ versification: tiny, entries, entriesPerBlock });
      const { version } = readSwordModule(zip, 'TINY', { versification: tiny });
      expect(version.books.map((b) => [b.code, b.chapters.map((c) => c.verses.map((v) => v.text))])).toEqual([
        [
          'GEN',
          [
            ['one', 'two', 'three'],
            ['four', 'five'],
          ],
        ],
        ['MAT', [['The book', 'Abraham begat Isaac']]],
      ]);
      expect(version.issues).toEqual([]);
    }
  });

  it('skips books outside the 66-book canon', () => {
    const zip = syntheticSwordZip({ versification: tiny, entries });
    const { version } = readSwordModule(zip, 'TINY', { versification: tiny });
    expect(version.books.map((b) => b.code)).not.toContain('TOB');
    expect(JSON.stringify(version)).not.toContain('apocryphal');
  });

  it('decodes a Latin-1 module', () => {
    const zip = syntheticSwordZip({
      versification: tiny,
      entries: { ...entries, 'Gen.1.1': 'EN el principio crió Dios' },
      encoding: 'Latin-1',
    });
    const { version } = readSwordModule(zip, 'TINY', { versification: tiny });
    expect(version.books[0].chapters[0].verses[0].text).toBe('EN el principio crió Dios');
  });

  it('reports a verse index shorter than the versification needs', () => {
    const shorter: Versification = { ...tiny, books: tiny.books.map((b) => (b.osis === 'Matt' ? { ...b, verses: [1] } : b)) };
    const zip = syntheticSwordZip({ versification: shorter, entries: { 'Matt.1.1': 'The book' } });
    const { version } = readSwordModule(zip, 'TINY', { versification: tiny });
    expect(version.issues).toContainEqual(expect.objectContaining({ kind: 'parse-error', where: 'NT' }));
    expect(version.issues).toContainEqual(expect.objectContaining({ kind: 'missing-verse', where: 'MAT 1:2' }));
  });

  it('reports unknown markup and keeps its words', () => {
    const zip = syntheticSwordZip({ versification: tiny, entries: { ...entries, 'Gen.1.1': 'one <strange>odd</strange> word' } });
    const { version } = readSwordModule(zip, 'TINY', { versification: tiny });
    expect(version.books[0].chapters[0].verses[0].text).toBe('one odd word');
    expect(version.issues).toEqual([{ kind: 'unknown-markup', where: 'GEN 1:1', detail: '<strange> (content kept as text)' }]);
  });

  it('refuses a module that is not zText', () => {
    const zip = syntheticSwordZip({ versification: tiny, entries, driver: 'RawText' });
    expect(() => readSwordModule(zip, 'TINY', { versification: tiny })).toThrow(/RawText, not zText/);
  });
});
