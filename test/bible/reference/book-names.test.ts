// Every name of a book the reader knows resolves to that book, in every spelling a path or a reference may carry.
import { describe, expect, test } from 'vitest';
import { bookByUsfm, CANON, LANGS } from '../../../build/contract/books.ts';
import { bookByAnyName, bookNames, lookupBook } from '../../../src/bible/reference/book-names.ts';

describe.each(LANGS)('book names in %s', (lang) => {
  test('every name, abbreviation, alias and USFM code resolves to its own book, whatever its case', () => {
    const wrong = CANON.flatMap((book) =>
      bookNames(lang, book).flatMap((name) =>
        [name, name.toUpperCase(), name.toLowerCase()]
          .filter((written) => bookByAnyName(lang, written) !== book)
          .map((written) => `${written} → ${bookByAnyName(lang, written)?.usfm} (wanted ${book.usfm})`),
      ),
    );
    expect(wrong).toEqual([]);
  });

  test('spaces, dots and hyphens inside a name do not count', () => {
    for (const book of CANON) {
      const { name, abbr } = book.names[lang];
      expect(bookByAnyName(lang, `${abbr}.`), abbr).toBe(book);
      expect(bookByAnyName(lang, name.replaceAll(' ', '-')), name).toBe(book);
      expect(bookByAnyName(lang, name.replaceAll(' ', '')), name).toBe(book);
    }
  });

  test('the numbered books also answer to Roman numerals', () => {
    for (const book of CANON.filter(({ usfm }) => /^[123]/.test(usfm))) {
      const name = book.names[lang].name;
      const roman = name.replace(/^([123]) /, (_, digit: string) => `${'I'.repeat(Number(digit))} `);
      expect(bookByAnyName(lang, roman), roman).toBe(book);
    }
  });

  test('unknown names and mere beginnings of names find nothing', () => {
    expect(bookByAnyName(lang, 'Hezekiah')).toBeUndefined();
    expect(bookByAnyName(lang, '')).toBeUndefined();
    expect(bookByAnyName(lang, '...')).toBeUndefined();
    expect(bookByAnyName(lang, 'Deuteronom')).toBeUndefined();
  });
});

describe('ordinals and spellings each language uses', () => {
  test.each([
    ['fr', ['1er Jean', '1re Jean', '1ère Jean', 'Première Jean', 'I Jean', '1 Jn', '1Jn', '1 Jn.', '1JN'], '1JN'],
    ['fr', ['2e Rois', '2ème Rois', 'Deuxième Rois', 'Second Rois', 'II R'], '2KI'],
    ['en', ['1st John', 'First John', 'I John', '1 Jn', '1John'], '1JN'],
    ['en', ['2nd Kings', 'Second Kings', '2 Kgs', 'II Kgs.', '2d Kings'], '2KI'],
    ['en', ['3rd John', 'Third John', 'III John'], '3JN'],
    ['es', ['1ª Corintios', '1a Corintios', 'Primera Corintios', 'I Corintios', '1 Co'], '1CO'],
    ['es', ['2da Timoteo', '2do Timoteo', 'Segunda Timoteo', 'II Ti'], '2TI'],
    ['pt', ['1º Samuel', '1o Samuel', 'Primeiro Samuel', 'I Samuel', '1Sm'], '1SA'],
    ['pt', ['1ª João', 'Primeira João', '1Jo'], '1JN'],
    ['nl', ['1e Korinthiërs', '1ste Korinthiërs', 'Eerste Korinthiërs', 'I Kor.', '1 Korintiërs', '1Kor'], '1CO'],
    ['nl', ['2de Petrus', 'Tweede Petrus', '2 Petr.'], '2PE'],
  ] as const)('%s: %j are %s', (lang, names, usfm) => {
    for (const name of names) expect(bookByAnyName(lang, name)?.usfm, name).toBe(usfm);
  });

  test('accents are ignored, except where they alone tell two books apart', () => {
    expect(bookByAnyName('fr', 'GENESE')?.usfm).toBe('GEN');
    expect(bookByAnyName('fr', 'Esaie')?.usfm).toBe('ISA');
    expect(bookByAnyName('es', 'Exodo')?.usfm).toBe('EXO');
    expect(bookByAnyName('nl', '1 Korinthiers')?.usfm).toBe('1CO');
    expect(bookByAnyName('pt', 'Jó')?.usfm).toBe('JOB');
    expect(bookByAnyName('pt', 'Jo')?.usfm).toBe('JHN');
    expect(bookByAnyName('pt', 'Jn')?.usfm).toBe('JON');
  });

  test('a name of one language is not a name in another unless that language uses it too', () => {
    expect(bookByAnyName('fr', 'Juan')).toBeUndefined();
    expect(bookByAnyName('es', 'Jean')).toBeUndefined();
    expect(bookByAnyName('nl', 'Jn')).toBeUndefined();
    expect(bookByAnyName('en', 'Johannes')).toBeUndefined();
  });

  test('the reader also takes the beginning of one full name, and names the books a shorter beginning could be', () => {
    expect(lookupBook('nl', 'Deuteronom').book).toBe(bookByUsfm('DEU'));
    expect(lookupBook('fr', '1 Corinth').book).toBe(bookByUsfm('1CO'));
    const several = lookupBook('en', 'Jo');
    expect(several.book).toBeUndefined();
    expect('candidates' in several && several.candidates.map((book) => book.usfm)).toEqual(['JOS', 'JOB', 'JOL', 'JON', 'JHN']);
  });
});
