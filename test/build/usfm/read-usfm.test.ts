// Reading a whole version: zip or folder in, canonical books in order out, with front matter set aside and differences reported.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readUsfmBible } from '../../../build/usfm/read-usfm.ts';
import { usfmFilesFromBytes, usfmFilesFromZip } from '../../../build/usfm/source-zip.ts';
import type { Versification } from '../../../build/versification.ts';

const exodus = '\\id EXO\n\\c 1\n\\p\n\\v 1 Voici les noms.\n\\v 2-3 Ruben, Siméon.\n';
const genesis = '\\id GEN\n\\c 1\n\\p\n\\v 1 Au commencement.\n\\v 2 La terre.\n\\v 3 Lumière.\n';
const frontMatter = '\\id FRT\n\\periph Title Page\n\\mt1 LA SAINTE BIBLE\n';

/** A versification of two one-chapter books, enough to see missing and extra verses. */
const tinyVersification: Versification = {
  name: 'TINY',
  books: [
    { osis: 'Gen', name: 'Genesis', testament: 'OT', verses: [4] },
    { osis: 'Exod', name: 'Exodus', testament: 'OT', verses: [2] },
  ],
};

describe('usfmFilesFromZip', () => {
  it('keeps the .sfm files of a zip, in name order, and leaves other entries out', () => {
    const zip = zipSync({
      'BIBLE/p.sfm/X-02-EXO.p.sfm': strToU8(exodus),
      'BIBLE/p.sfm/X-01-GEN.p.sfm': strToU8(`\uFEFF${genesis}`),
      'BIBLE/p.sfm/styles.xml': strToU8('<styles/>'),
      'BIBLE/README.md': strToU8('# readme'),
    });
    const files = usfmFilesFromZip(zip);
    expect(files.map((file) => file.fileName)).toEqual(['X-01-GEN.p.sfm', 'X-02-EXO.p.sfm']);
    expect(readUsfmBible(files, 'T', { compareWith: null }).books[0].chapters[0].verses[0].text).toBe('Au commencement.');
  });

  it('reads files already taken from a folder the same way', () => {
    const files = usfmFilesFromBytes([
      { name: '/src/GEN.usfm', bytes: strToU8(genesis) },
      { name: '/src/notes.txt', bytes: strToU8('not usfm') },
    ]);
    expect(files).toEqual([{ fileName: 'GEN.usfm', text: genesis }]);
  });
});

describe('readUsfmBible', () => {
  it('returns canonical books in canonical order and sets front matter aside', () => {
    const version = readUsfmBible(
      [
        { fileName: '02-EXO.sfm', text: exodus },
        { fileName: '00-FRT.sfm', text: frontMatter },
        { fileName: '01-GEN.sfm', text: genesis },
      ],
      'LSG',
      { compareWith: null },
    );
    expect(version.code).toBe('LSG');
    expect(version.books.map((book) => book.code)).toEqual(['GEN', 'EXO']);
    expect(version.ignoredFiles).toEqual([
      { fileName: '00-FRT.sfm', idCode: 'FRT', reason: '\\id FRT is not one of the 66 canonical books' },
    ]);
    expect(version.issues.filter((issue) => issue.kind === 'merged-verse')).toEqual([
      { kind: 'merged-verse', where: 'EXO 1:2-3', detail: 'verses 2 to 3 are one verse in the source' },
    ]);
    expect(version.issues.filter((issue) => issue.kind === 'missing-verse' && !issue.where.includes(' '))).toHaveLength(64);
  });

  it('reports verses missing from or added to the versification, counting joined verses as present', () => {
    const version = readUsfmBible(
      [
        { fileName: 'GEN.sfm', text: genesis },
        { fileName: 'EXO.sfm', text: exodus },
      ],
      'LSG',
      { compareWith: tinyVersification },
    );
    const differences = version.issues.filter((issue) => issue.kind === 'missing-verse' || issue.kind === 'extra-verse');
    expect(differences.filter((issue) => issue.where.includes(' '))).toEqual([
      { kind: 'missing-verse', where: 'GEN 1:4', detail: 'in TINY but not in the source', comparedWith: 'TINY' },
      { kind: 'extra-verse', where: 'EXO 1:3', detail: 'in the source but not in TINY', comparedWith: 'TINY' },
    ]);
  });

  it('keeps the first file of a book given twice and reports the second', () => {
    const version = readUsfmBible(
      [
        { fileName: 'a.sfm', text: genesis },
        { fileName: 'b.sfm', text: genesis.replace('Au commencement', 'Autre') },
      ],
      'LSG',
      { compareWith: null },
    );
    expect(version.books[0].chapters[0].verses[0].text).toBe('Au commencement.');
    expect(version.issues).toContainEqual({ kind: 'parse-error', where: 'b.sfm:1:1', detail: 'second file for GEN; ignored' });
  });
});
