// The canon manifest: order, names and abbreviations per language, and book lookup.
import { describe, expect, it } from 'vitest';
import { bookByOsis, bookByUsfm, CANON, LANGS, resolveBook } from '../../../build/contract/books.ts';

const CANONICAL_USFM = (
  'GEN EXO LEV NUM DEU JOS JDG RUT 1SA 2SA 1KI 2KI 1CH 2CH EZR NEH EST JOB PSA PRO ECC SNG ISA ' +
  'JER LAM EZK DAN HOS JOL AMO OBA JON MIC NAM HAB ZEP HAG ZEC MAL MAT MRK LUK JHN ACT ROM 1CO ' +
  '2CO GAL EPH PHP COL 1TH 2TH 1TI 2TI TIT PHM HEB JAS 1PE 2PE 1JN 2JN 3JN JUD REV'
).split(' ');

describe('the canon', () => {
  it('holds the 66 books in canonical order, GEN to REV, numbered 1 to 66', () => {
    expect(CANON.map((book) => book.usfm)).toEqual(CANONICAL_USFM);
    expect(CANON.map((book) => book.order)).toEqual(CANONICAL_USFM.map((_, index) => index + 1));
  });

  it('splits 39 Old Testament books from 27 New Testament books at Matthew', () => {
    expect(CANON.filter((book) => book.testament === 'OT')).toHaveLength(39);
    expect(CANON.slice(39).every((book) => book.testament === 'NT')).toBe(true);
    expect(CANON[39].usfm).toBe('MAT');
  });

  it('finds books by USFM and OSIS code', () => {
    expect(bookByUsfm('jhn')?.osis).toBe('John');
    expect(bookByOsis('1John')?.usfm).toBe('1JN');
    expect(bookByUsfm('TOB')).toBeUndefined();
  });
});

describe.each(LANGS)('names and abbreviations in %s', (lang) => {
  it('gives every book a name and an abbreviation', () => {
    for (const book of CANON) {
      expect(book.names[lang]?.name, book.usfm).toMatch(/\S/);
      expect(book.names[lang]?.abbr, book.usfm).toMatch(/\S/);
    }
  });

  it('uses ASCII letters and digits only in abbreviations', () => {
    for (const book of CANON) expect(book.names[lang].abbr, book.usfm).toMatch(/^[A-Za-z0-9]+$/);
  });

  it('never gives two books the same abbreviation, whatever the case', () => {
    const abbrs = CANON.map((book) => book.names[lang].abbr.toLowerCase());
    const duplicates = abbrs.filter((abbr, index) => abbrs.indexOf(abbr) !== index);
    expect(duplicates).toEqual([]);
  });

  it("never uses another book's USFM code as an abbreviation (USFM codes are aliases everywhere)", () => {
    const clashes = CANON.flatMap((book) => {
      const other = bookByUsfm(book.names[lang].abbr);
      return other && other !== book ? [`${book.usfm}: ${book.names[lang].abbr} is ${other.usfm}`] : [];
    });
    expect(clashes).toEqual([]);
  });

  it('resolves every abbreviation and every USFM code back to its book', () => {
    for (const book of CANON) {
      expect(resolveBook(lang, book.names[lang].abbr)).toBe(book);
      expect(resolveBook(lang, book.names[lang].abbr.toUpperCase())).toBe(book);
      expect(resolveBook(lang, book.usfm.toLowerCase())).toBe(book);
    }
  });
});

describe('spot values', () => {
  // Name and abbreviation as responses show them (the aliases the reference parser also reads are left aside).
  const spot = (usfm: string) =>
    Object.fromEntries(Object.entries(bookByUsfm(usfm)!.names).map(([lang, { name, abbr }]) => [lang, { name, abbr }]));

  it('follows the Louis Segond tradition in French', () => {
    expect(spot('GEN').fr).toEqual({ name: 'Genèse', abbr: 'Gn' });
    expect(spot('ISA').fr).toEqual({ name: 'Ésaïe', abbr: 'Es' });
    expect(spot('SNG').fr).toEqual({ name: 'Cantique des cantiques', abbr: 'Ct' });
    expect(spot('PHM').fr).toEqual({ name: 'Philémon', abbr: 'Phm' });
    expect(spot('REV').fr).toEqual({ name: 'Apocalypse', abbr: 'Ap' });
  });

  it('follows the King James tradition and SBL abbreviations in English', () => {
    expect(spot('GEN').en).toEqual({ name: 'Genesis', abbr: 'Gen' });
    expect(spot('SNG').en).toEqual({ name: 'Song of Solomon', abbr: 'Song' });
    expect(spot('1KI').en).toEqual({ name: '1 Kings', abbr: '1Kgs' });
    expect(spot('REV').en).toEqual({ name: 'Revelation', abbr: 'Rev' });
  });

  it('follows the Reina-Valera tradition in Spanish', () => {
    expect(spot('EXO').es).toEqual({ name: 'Éxodo', abbr: 'Ex' });
    expect(spot('JDG').es).toEqual({ name: 'Jueces', abbr: 'Jue' });
    expect(spot('ACT').es).toEqual({ name: 'Hechos', abbr: 'Hch' });
    expect(spot('JAS').es).toEqual({ name: 'Santiago', abbr: 'Stg' });
  });

  it('follows the Almeida tradition in Portuguese', () => {
    expect(spot('DEU').pt).toEqual({ name: 'Deuteronômio', abbr: 'Dt' });
    expect(spot('JOB').pt).toEqual({ name: 'Jó', abbr: 'Jb' });
    expect(spot('JHN').pt).toEqual({ name: 'João', abbr: 'Jo' });
    expect(spot('1SA').pt).toEqual({ name: '1 Samuel', abbr: '1Sm' });
  });

  it('follows the Statenvertaling tradition in Dutch', () => {
    expect(spot('JDG').nl).toEqual({ name: 'Richteren', abbr: 'Richt' });
    expect(spot('ECC').nl).toEqual({ name: 'Prediker', abbr: 'Pred' });
    expect(spot('MAT').nl).toEqual({ name: 'Mattheüs', abbr: 'Matt' });
    expect(spot('REV').nl).toEqual({ name: 'Openbaring', abbr: 'Openb' });
  });
});

describe('resolveBook', () => {
  it('matches an abbreviation of the given language, whatever the case', () => {
    expect(resolveBook('fr', 'gn')?.usfm).toBe('GEN');
    expect(resolveBook('en', '1COR')?.usfm).toBe('1CO');
    expect(resolveBook('nl', 'richt')?.usfm).toBe('JDG');
  });

  it('accepts the USFM code as an alias in every language', () => {
    for (const lang of LANGS) expect(resolveBook(lang, 'jhn')?.usfm).toBe('JHN');
  });

  it("does not accept another language's abbreviation", () => {
    expect(resolveBook('fr', 'Richt')).toBeUndefined();
    expect(resolveBook('en', 'Gn')).toBeUndefined();
  });

  it('prefers the language abbreviation, which never names a different book than the USFM code', () => {
    expect(resolveBook('es', 'Jud')?.usfm).toBe('JUD');
    expect(resolveBook('fr', 'Jos')?.usfm).toBe('JOS');
  });

  it('answers undefined for unknown names, apocrypha and empty input', () => {
    expect(resolveBook('fr', 'Xyz')).toBeUndefined();
    expect(resolveBook('en', 'TOB')).toBeUndefined();
    expect(resolveBook('en', '')).toBeUndefined();
  });
});
