// Verse index layout of a zText testament: headings, book and chapter intros, then verses, as SWORD numbers them.
import { describe, expect, it } from 'vitest';
import { testamentEntryCount, testamentLayout } from '../../../build/sword/verse-index.ts';
import { versificationByName } from '../../../build/versification.ts';

describe('zText verse index', () => {
  it('places headings, book and chapter intros and verses as mod2imp lists them', () => {
    const kjv = versificationByName('KJV');
    const [genesis, exodus] = testamentLayout(kjv, 'OT');
    expect(genesis.introIndex).toBe(2); // $$$Genesis 0:0
    expect(genesis.chapterIntroIndex[0]).toBe(3); // $$$Genesis 1:0, Genesis 1:1 at 4
    expect(genesis.chapterIntroIndex[1]).toBe(3 + 1 + 31); // $$$Genesis 2:0
    expect(exodus.introIndex).toBe(2 + 1 + 50 + 1533);
    expect(testamentLayout(kjv, 'NT')[0].chapterIntroIndex[0]).toBe(3); // $$$Matthew 1:0
  });

  it('counts the entries of a testament index', () => {
    const kjv = versificationByName('KJV');
    // 2 headings + 39 book intros + 929 chapter intros + 23145 verses
    expect(testamentEntryCount(kjv, 'OT')).toBe(2 + 39 + 929 + 23145);
    expect(testamentEntryCount(kjv, 'NT')).toBe(2 + 27 + 260 + 7957);
  });
});
