import { describe, expect, it } from 'vitest';
import { testamentEntryCount, testamentLayout, versificationByName } from '../../../build/sword/versification.ts';

const verseTotal = (name: string) =>
  versificationByName(name).books.reduce((sum, book) => sum + book.verses.reduce((a, b) => a + b, 0), 0);

describe('SWORD versifications', () => {
  it('hold the books and verse totals of SWORD canon headers', () => {
    expect(versificationByName('KJV').books).toHaveLength(66);
    expect(verseTotal('KJV')).toBe(31102);
    expect(versificationByName('KJVA').books).toHaveLength(80);
    expect(verseTotal('KJVA')).toBe(36819);
    expect(verseTotal('NRSV')).toBe(31104);
  });

  it('default to KJV when the conf names none, and refuse unknown ones', () => {
    expect(versificationByName(undefined).name).toBe('KJV');
    expect(() => versificationByName('Synodal')).toThrow(/Unsupported/);
  });

  it('place headings, book and chapter intros and verses as mod2imp lists them', () => {
    const kjv = versificationByName('KJV');
    const [genesis, exodus] = testamentLayout(kjv, 'OT');
    expect(genesis.introIndex).toBe(2); // $$$Genesis 0:0
    expect(genesis.chapterIntroIndex[0]).toBe(3); // $$$Genesis 1:0, Genesis 1:1 at 4
    expect(genesis.chapterIntroIndex[1]).toBe(3 + 1 + 31); // $$$Genesis 2:0
    expect(exodus.introIndex).toBe(2 + 1 + 50 + 1533);
    expect(testamentLayout(kjv, 'NT')[0].chapterIntroIndex[0]).toBe(3); // $$$Matthew 1:0
  });

  it('count the entries of a testament index', () => {
    const kjv = versificationByName('KJV');
    // 2 headings + 39 book intros + 929 chapter intros + 23145 verses
    expect(testamentEntryCount(kjv, 'OT')).toBe(2 + 39 + 929 + 23145);
    expect(testamentEntryCount(kjv, 'NT')).toBe(2 + 27 + 260 + 7957);
  });
});
