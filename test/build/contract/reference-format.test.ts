// The normalised reference string: full name in the language, its own separators, the end shortened.
import { describe, expect, test } from 'vitest';
import type { Lang } from '../../../build/contract/books.ts';
import { formatReference } from '../../../build/contract/reference-format.ts';
import { parseReferences } from '../../../src/bible/reference/grammar.ts';

const normalised = (text: string, lang: Lang) => parseReferences(text, lang).map((passage) => formatReference(lang, passage));

describe('normalised references', () => {
  test('one verse, a range, a range across chapters, chapters', () => {
    expect(normalised('jn 3.16; Jn 3:16-18; JHN 3:16-4:2; ps 23; ps 23-24', 'en')).toEqual([
      'John 3:16',
      'John 3:16-18',
      'John 3:16-4:2',
      'Psalms 23',
      'Psalms 23-24',
    ]);
    expect(normalised('jn 3,16; Jn 3:16-18; JHN 3.16-4.2; ps 23; ps 23-24', 'fr')).toEqual([
      'Jean 3.16',
      'Jean 3.16-18',
      'Jean 3.16-4.2',
      'Psaumes 23',
      'Psaumes 23-24',
    ]);
  });

  test('in each language its own full names', () => {
    expect(normalised('1 Cor 13:4', 'en')).toEqual(['1 Corinthians 13:4']);
    expect(normalised('1 Cor 13:4', 'es')).toEqual(['1 Corintios 13.4']);
    expect(normalised('1 Cor 13:4', 'pt')).toEqual(['1 Coríntios 13.4']);
    expect(normalised('1 Kor 13:4', 'nl')).toEqual(['1 Korinthiërs 13:4']);
    expect(normalised('Jude 3', 'en')).toEqual(['Jude 1:3']);
  });
});
