// The contract's reference formatter (the verse-of-the-day files' `reference`) writes a passage as the service's references do.
import { describe, expect, it } from 'vitest';
import { bookByUsfm, LANGS } from '../../../build/contract/books.ts';
import { formatPassageReference, type ReferenceBound } from '../../../build/contract/reference-format.ts';
import { formatReference } from '../../../src/bible/reference/format.ts';

const PASSAGES: [string, ReferenceBound, ReferenceBound][] = [
  ['JHN', { chapter: 3, verse: 16 }, { chapter: 3, verse: 16 }],
  ['JHN', { chapter: 3, verse: 16 }, { chapter: 3, verse: 18 }],
  ['JHN', { chapter: 3, verse: 16 }, { chapter: 4, verse: 2 }],
  ['PSA', { chapter: 23 }, { chapter: 23 }],
  ['PSA', { chapter: 23 }, { chapter: 24 }],
  ['1JN', { chapter: 4, verse: 7 }, { chapter: 4, verse: 8 }],
];

describe('passage references', () => {
  it('are written alike by the build (verse of the day) and the service (passages, search), in every language', () => {
    for (const lang of LANGS) {
      for (const [usfm, from, to] of PASSAGES) {
        const passage = { book: bookByUsfm(usfm)!, from, to };
        expect(formatPassageReference(lang, passage), `${lang} ${usfm}`).toBe(formatReference(lang, passage));
      }
    }
    expect(formatPassageReference('fr', { book: bookByUsfm('JHN')!, from: { chapter: 3, verse: 16 }, to: { chapter: 4, verse: 2 } })).toBe(
      'Jean 3:16-4:2',
    );
    expect(formatPassageReference('en', { book: bookByUsfm('PSA')!, from: { chapter: 23 }, to: { chapter: 23 } })).toBe('Psalms 23');
  });
});
