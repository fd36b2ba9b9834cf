// The reference parser in the five languages: names, abbreviations, USFM codes, single-chapter books, ranges, lists, malformed input.
import { describe, expect, test } from 'vitest';
import type { Lang } from '../../../build/contract/books.ts';
import { type ChapterVerse, parseReferences } from '../../../src/bible/reference/grammar.ts';
import { ReferenceSyntaxError } from '../../../src/bible/reference/reference-syntax-error.ts';

/** Passages compactly: "JHN 3:16-3:18", "PSA 23-23" (a bound without a verse is a whole chapter). */
function read(text: string, lang: Lang): string[] {
  return parseReferences(text, lang).map(({ book, from, to }) => `${book.usfm} ${bound(from)}-${bound(to)}`);
}

function bound({ chapter, verse }: ChapterVerse): string {
  return verse === undefined ? String(chapter) : `${chapter}:${verse}`;
}

function failure(text: string, lang: Lang): ReferenceSyntaxError {
  try {
    parseReferences(text, lang);
  } catch (error) {
    if (error instanceof ReferenceSyntaxError) return error;
    throw error;
  }
  throw new Error(`"${text}" was read as a reference`);
}

describe('one verse in each language, by name, abbreviation, alias and USFM code', () => {
  const cases: [Lang, string[]][] = [
    ['en', ['John 3:16', 'Jn 3:16', 'jhn 3.16', 'JOHN 3:16', 'JHN 3:16', 'Joh. 3:16']],
    ['fr', ['Jean 3:16', 'Jean 3.16', 'Jn 3.16', 'JHN 3:16', 'jean 3 : 16']],
    ['es', ['Juan 3:16', 'Jn 3:16', 'juan 3.16', 'JHN 3:16']],
    ['pt', ['João 3:16', 'Joao 3:16', 'Jo 3:16', 'JOÃO 3.16', 'JHN 3:16']],
    ['nl', ['Johannes 3:16', 'Joh 3:16', 'joh. 3:16', 'JHN 3:16']],
  ];
  for (const [lang, texts] of cases) {
    test(`${lang}: ${texts.join(' | ')}`, () => {
      for (const text of texts) expect(read(text, lang), text).toEqual(['JHN 3:16-3:16']);
    });
  }
});

describe('book names', () => {
  test('accents and case do not matter, spaces and dots inside a name neither', () => {
    expect(read('genese 1:1', 'fr')).toEqual(['GEN 1:1-1:1']);
    expect(read('ÉXODO 20:3', 'es')).toEqual(['EXO 20:3-20:3']);
    expect(read('1 Cor 13', 'en')).toEqual(['1CO 13-13']);
    expect(read('1Co 13', 'fr')).toEqual(['1CO 13-13']);
    expect(read('1 Co. 13', 'pt')).toEqual(['1CO 13-13']);
    expect(read('I Cor 13', 'en')).toEqual(['1CO 13-13']);
    expect(read('1 Korinthiërs 13', 'nl')).toEqual(['1CO 13-13']);
    expect(read('Song of Songs 2:1', 'en')).toEqual(['SNG 2:1-2:1']);
    expect(read('Cantique des cantiques 2', 'fr')).toEqual(['SNG 2-2']);
  });

  test('the Psalms in each language: full name, singular and abbreviation', () => {
    expect(read('Ps 23; Psalm 23; Psalms 23', 'en')).toEqual(['PSA 23-23', 'PSA 23-23', 'PSA 23-23']);
    expect(read('Ps 23; Psaume 23; Psaumes 23', 'fr')).toEqual(['PSA 23-23', 'PSA 23-23', 'PSA 23-23']);
    expect(read('Sal 23; Salmo 23; Salmos 23', 'es')).toEqual(['PSA 23-23', 'PSA 23-23', 'PSA 23-23']);
    expect(read('Sl 23; Salmo 23; Salmos 23', 'pt')).toEqual(['PSA 23-23', 'PSA 23-23', 'PSA 23-23']);
    expect(read('Ps 23; Psalm 23; Psalmen 23', 'nl')).toEqual(['PSA 23-23', 'PSA 23-23', 'PSA 23-23']);
  });

  test('accents tell books apart before they are ignored: Portuguese Jó is Job, Jo is João', () => {
    expect(read('Jó 1:1', 'pt')).toEqual(['JOB 1:1-1:1']);
    expect(read('Jo 1:1', 'pt')).toEqual(['JHN 1:1-1:1']);
  });

  test('the beginning of one full name is enough; the beginning of several is refused, naming them', () => {
    expect(read('Apoc 21:4', 'fr')).toEqual(['REV 21:4-21:4']);
    expect(read('Deuteronom 6:4', 'nl')).toEqual(['DEU 6:4-6:4']);
    const error = failure('Jo 1:1', 'en');
    expect(error.message).toContain('"Jo" at character 1');
    expect(error.message).toContain('John');
    expect(error.message).toContain('Joel');
  });

  test('every USFM code names its book in every language', () => {
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl'] as const) {
      expect(read('GEN 1:1; REV 22:21; 1JN 4:8', lang)).toEqual(['GEN 1:1-1:1', 'REV 22:21-22:21', '1JN 4:8-4:8']);
    }
  });
});

describe('chapters, ranges and single-chapter books', () => {
  test('a whole chapter, and whole chapters', () => {
    expect(read('1 Cor 13', 'en')).toEqual(['1CO 13-13']);
    expect(read('Ps 23-24', 'nl')).toEqual(['PSA 23-24']);
  });

  test('a range inside a chapter and across chapters', () => {
    expect(read('Jn 3:16-18', 'en')).toEqual(['JHN 3:16-3:18']);
    expect(read('Ps 23:1-3', 'en')).toEqual(['PSA 23:1-23:3']);
    expect(read('John 3:16-4:2', 'en')).toEqual(['JHN 3:16-4:2']);
    expect(read('Jean 3.16–4.2', 'fr')).toEqual(['JHN 3:16-4:2']);
    expect(read('Juan 3-4:2', 'es')).toEqual(['JHN 3-4:2']);
  });

  test('in a book of one chapter a lone number is a verse', () => {
    expect(read('Jude 3', 'en')).toEqual(['JUD 1:3-1:3']);
    expect(read('Jude 1:3', 'fr')).toEqual(['JUD 1:3-1:3']);
    expect(read('Judas 3-5', 'es')).toEqual(['JUD 1:3-1:5']);
    expect(read('Filemom 4', 'pt')).toEqual(['PHM 1:4-1:4']);
    expect(read('3 Joh 2', 'nl')).toEqual(['3JN 1:2-1:2']);
  });
});

describe('lists', () => {
  test('passages separated by ";" or ","', () => {
    expect(read('Gen 1:1-3; Ps 23', 'en')).toEqual(['GEN 1:1-1:3', 'PSA 23-23']);
    expect(read('Gn 1:1, Jn 1:1', 'fr')).toEqual(['GEN 1:1-1:1', 'JHN 1:1-1:1']);
    expect(read('Gen 1:1-3; 2 Cor 5:17', 'nl')).toEqual(['GEN 1:1-1:3', '2CO 5:17-5:17']);
  });

  test('a passage without a book continues the previous one: "," adds verses, ";" chapters', () => {
    expect(read('John 3:16, 18', 'en')).toEqual(['JHN 3:16-3:16', 'JHN 3:18-3:18']);
    expect(read('Juan 3:16-18, 20-21', 'es')).toEqual(['JHN 3:16-3:18', 'JHN 3:20-3:21']);
    expect(read('Ps 23; 24', 'en')).toEqual(['PSA 23-23', 'PSA 24-24']);
    expect(read('Ps 23, 24', 'en')).toEqual(['PSA 23-23', 'PSA 24-24']);
    // In French "," after a chapter separates it from the verse (Jn 3,16): Psalm 23, verse 24.
    expect(read('Ps 23, 24', 'fr')).toEqual(['PSA 23:24-23:24']);
    expect(read('Ps 23 ; 24', 'fr')).toEqual(['PSA 23-23', 'PSA 24-24']);
    expect(read('Jean 3:16; 4:2', 'fr')).toEqual(['JHN 3:16-3:16', 'JHN 4:2-4:2']);
  });
});

describe('malformed references name what could not be read and where', () => {
  const cases: [Lang, string, string][] = [
    ['en', 'Hezekiah 3:16', '"Hezekiah" at character 1'],
    ['fr', 'Jean', 'at the end (character 5): expected a chapter number'],
    ['es', 'Juan 3:', 'at the end (character 8): expected a verse number'],
    ['pt', 'João 3:16-', 'at the end (character 11)'],
    ['nl', 'Joh 3:16 x', '"x" at character 10'],
    ['en', 'John 3:18-16', 'the range ends before it begins'],
    ['fr', 'Jean 0:1', '"0" at character 6'],
    ['es', 'Juan 3:16 ;', 'at the end'],
    ['pt', '3:16', '"3" at character 1: expected a book'],
    ['nl', 'Joh 3#16', '"#" at character 6'],
    ['en', '', 'expected a reference'],
    ['fr', 'Jean 99999:1', 'from 1 to 999'],
  ];
  for (const [lang, text, expected] of cases) {
    test(`${lang}: "${text}"`, () => {
      expect(failure(text, lang).message).toContain(expected);
    });
  }

  test('the error carries the offset and the text at fault', () => {
    const error = failure('Gen 1:1; Foo 2', 'en');
    expect([error.offset, error.found]).toEqual([9, 'Foo']);
  });
});

describe("each language's separators", () => {
  test('"," after a chapter: chapter and verse in French, Spanish, Portuguese and Dutch; a list of chapters in English', () => {
    for (const [lang, john] of [
      ['fr', 'Jn'],
      ['es', 'Jn'],
      ['pt', 'Jo'],
      ['nl', 'Joh'],
    ] as const) {
      expect(read(`${john} 3,16`, lang)).toEqual(['JHN 3:16-3:16']);
    }
    expect(read('Gn 1,1-3', 'fr')).toEqual(['GEN 1:1-1:3']);
    expect(read('Ps 1, 2', 'en')).toEqual(['PSA 1-1', 'PSA 2-2']);
  });

  test('English "3,16" with no space could be either, and is refused with both spellings', () => {
    const error = failure('John 3,16', 'en');
    expect([error.offset, error.found, error.ambiguous]).toEqual([6, ',', true]);
    expect(error.message).toContain('write 3:16');
    expect(error.message).toContain('write 3; 16');
  });

  test('a list with "," after a verse goes forward: an earlier number could be another chapter, and is refused', () => {
    expect(read('Ps 22, 1-2a, 3b-4, 5', 'fr')).toEqual(['PSA 22:1-22:2', 'PSA 22:3-22:4', 'PSA 22:5-22:5']);
    const error = failure('Jn 3,16, 4,2', 'fr');
    expect([error.offset, error.found, error.ambiguous]).toEqual([9, '4', true]);
    // Where "," lists and ":" separates, the same order is plain: chapter 4.
    expect(read('John 3:16, 4:2', 'en')).toEqual(['JHN 3:16-3:16', 'JHN 4:2-4:2']);
  });

  test('after "-", "," starts the verse of a later chapter, or lists a verse when the number cannot be a later chapter', () => {
    expect(read('Mt 26,14-27,66', 'fr')).toEqual(['MAT 26:14-27:66']);
    expect(read('Ps 22,1-2, 5', 'fr')).toEqual(['PSA 22:1-22:2', 'PSA 22:5-22:5']);
  });

  test('"s" and "f" add the next verse or chapter; "ss", "ff" and "e.v." are refused: they do not say where the passage ends', () => {
    expect(read('Rm 8,28s', 'fr')).toEqual(['ROM 8:28-8:29']);
    expect(read('Rom 8:28f', 'en')).toEqual(['ROM 8:28-8:29']);
    expect(read('Mc 1,3s.10', 'pt')).toEqual(['MRK 1:3-1:4', 'MRK 1:10-1:10']);
    expect(read('Ps 1,1, 2s', 'fr')).toEqual(['PSA 1:1-1:1', 'PSA 1:2-1:3']);
    expect(read('Tg 1s', 'pt')).toEqual(['JAS 1-2']);
    for (const [lang, text, found] of [
      ['fr', 'Jn 3,16ss', 'ss'],
      ['fr', 'Jn 3,16 ss.', 'ss.'],
      ['en', 'John 3:16ff.', 'ff.'],
      ['nl', 'Joh. 3:16 e.v.', 'e.v.'],
    ] as const) {
      const error = failure(text, lang);
      expect([error.found, error.ambiguous], text).toEqual([found, true]);
    }
  });

  test('conjunctions list like ",", and before a book start a passage', () => {
    expect(read('Jn 3,16 et 18', 'fr')).toEqual(['JHN 3:16-3:16', 'JHN 3:18-3:18']);
    expect(read('Jn 3,16 et Rm 5,8', 'fr')).toEqual(['JHN 3:16-3:16', 'ROM 5:8-5:8']);
    expect(read('Ps 23 and 24', 'en')).toEqual(['PSA 23-23', 'PSA 24-24']);
    expect(read('Jo 10,10 e 14', 'pt')).toEqual(['JHN 10:10-10:10', 'JHN 10:14-10:14']);
  });

  test('in a book of one chapter, a number after a verse is another verse, in every style', () => {
    expect(read('Jude 3, 5', 'fr')).toEqual(['JUD 1:3-1:3', 'JUD 1:5-1:5']);
    expect(read('Jude 3.5', 'fr')).toEqual(['JUD 1:3-1:3', 'JUD 1:5-1:5']);
    expect(read('Jude 1,3', 'fr')).toEqual(['JUD 1:3-1:3']);
    expect(read('Jude 3, 5', 'en')).toEqual(['JUD 1:3-1:3', 'JUD 1:5-1:5']);
  });

  test('a full stop after the reference, part letters and abbreviation dots are read and left out', () => {
    expect(read('Jean 3.16.', 'fr')).toEqual(['JHN 3:16-3:16']);
    expect(read('Ac 2,14a.22-33', 'fr')).toEqual(['ACT 2:14-2:14', 'ACT 2:22-2:33']);
    expect(read('Gen.1:1', 'en')).toEqual(['GEN 1:1-1:1']);
  });

  test('the text read is bounded', () => {
    expect(read(`${'Ps 1; '.repeat(166)}Ps 1`, 'en')).toHaveLength(167);
    const error = failure(`${'Ps 1; '.repeat(200)}Ps 1`, 'en');
    expect(error.message).toContain('at most 1000 characters');
  });
});

describe('any text', () => {
  // A fixed pseudo-random sequence: the same texts on every run.
  function* texts(count: number): Generator<string> {
    const books = ['Jn', 'Jean ', '1 Jn', 'I Jean ', '1er Jean ', 'Ps.', 'Jude ', 'Gen. ', 'Jo ', 'Mt', ''];
    const numbers = ['1', '2', '3', '16', '4a', '1ab', '27', '999', '0', '1000'];
    const between = [':', '.', ',', ', ', ' ; ', ';', '-', ' – ', 's', 'ss', ' et ', ' and ', ' e ', ' e.v.', '.', ' ', ' Rm '];
    let seed = 7;
    const pick = (list: readonly string[]) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return list[seed % list.length]!;
    };
    for (let index = 0; index < count; index++) {
      let text = pick(books) + pick(numbers);
      const length = Number(pick(['0', '1', '2', '3', '4', '5', '6']));
      for (let piece = 0; piece < length; piece++) text += pick(between) + pick(numbers);
      yield text;
    }
  }

  test('is read, or refused with a ReferenceSyntaxError inside the text, in every language', () => {
    const unexpected: string[] = [];
    for (const text of texts(3000)) {
      for (const lang of ['fr', 'en', 'es', 'pt', 'nl'] as const) {
        try {
          for (const passage of parseReferences(text, lang)) {
            if (passage.offset < 0 || passage.offset + passage.text.length > text.length)
              unexpected.push(`${lang} "${text}": passage outside the text`);
          }
        } catch (error) {
          if (!(error instanceof ReferenceSyntaxError)) unexpected.push(`${lang} "${text}": ${error}`);
          else if (error.offset < 0 || error.offset > text.length) unexpected.push(`${lang} "${text}": error at ${error.offset}`);
        }
      }
    }
    expect(unexpected).toEqual([]);
  });
});
