// References in free text: each passage where it stands (UTF-16 offsets), read with the language's conventions.
import { describe, expect, test } from 'vitest';
import type { Lang } from '../../../build/contract/books.ts';
import { findReferences } from '../../../src/bible/reference/find-references.ts';

/** Each found passage as [written, USFM from-to]. */
function found(text: string, lang: Lang) {
  return findReferences(text, lang).map(({ start, end, reference: { book, from, to } }) => [
    text.slice(start, end),
    `${book.usfm} ${from.chapter}${from.verse ? `:${from.verse}` : ''}-${to.chapter}${to.verse ? `:${to.verse}` : ''}`,
  ]);
}

describe('findReferences', () => {
  test('Jn 3,16 and Ps 23 in a French sentence, at their offsets', () => {
    const text = 'Lisez Jn 3,16 et le Ps 23.';
    const references = findReferences(text, 'fr');
    expect(references.map(({ start, end }) => [start, end])).toEqual([
      [6, 13],
      [20, 25],
    ]);
    expect(found(text, 'fr')).toEqual([
      ['Jn 3,16', 'JHN 3:16-3:16'],
      ['Ps 23', 'PSA 23-23'],
    ]);
  });

  test('offsets are UTF-16: an emoji and accents before a reference move it by their code units', () => {
    const text = '🙏 Genèse 1,1-3 : « Au commencement »';
    const [first] = findReferences(text, 'fr');
    expect(text.slice(first!.start, first!.end)).toBe('Genèse 1,1-3');
    expect(first!.start).toBe(3);
  });

  test.each([
    [
      'fr',
      'Puis 1 Jean 4.8, et I Jean 1,9 ; voir aussi Mc 3,2-7.12.',
      [
        ['1 Jean 4.8', '1JN 4:8-4:8'],
        ['I Jean 1,9', '1JN 1:9-1:9'],
        ['Mc 3,2-7', 'MRK 3:2-3:7'],
        ['12', 'MRK 3:12-3:12'],
      ],
    ],
    [
      'en',
      'He is 5 years old. See John 3:16,18 and 1 Cor 13; Ps 23, 24.',
      [
        ['John 3:16', 'JHN 3:16-3:16'],
        ['18', 'JHN 3:18-3:18'],
        ['1 Cor 13', '1CO 13-13'],
        ['Ps 23', 'PSA 23-23'],
        ['24', 'PSA 24-24'],
      ],
    ],
    [
      'es',
      'Ver Juan 3:16 y Sal 23.',
      [
        ['Juan 3:16', 'JHN 3:16-3:16'],
        ['Sal 23', 'PSA 23-23'],
      ],
    ],
    [
      'pt',
      'Leia Jo 3,16 e Sl 23.',
      [
        ['Jo 3,16', 'JHN 3:16-3:16'],
        ['Sl 23', 'PSA 23-23'],
      ],
    ],
    [
      'nl',
      'Lees Joh. 3:16 en Ps. 23:1-3.',
      [
        ['Joh. 3:16', 'JHN 3:16-3:16'],
        ['Ps. 23:1-3', 'PSA 23:1-23:3'],
      ],
    ],
  ] as const)('%s: %s', (lang, text, expected) => {
    expect(found(text, lang)).toEqual(expected);
  });

  test('words that are book names but not written as one are not references', () => {
    expect(found('He is 5 and am 3 years old; job 2 is done.', 'en')).toEqual([]);
    expect(found('Nothing here: 3,16 and 23.', 'en')).toEqual([]);
  });

  test('a reference is cut where the reader stops: the longest part it reads is found', () => {
    const text = 'Jn 1:1:1:1:1:1:1:1 '.repeat(260).slice(0, 5000);
    const references = findReferences(text, 'en');
    expect(references).toHaveLength(text.split('Jn 1:1').length - 1);
    expect(text.slice(references[0]!.start, references[0]!.end)).toBe('Jn 1:1');
  });
});
