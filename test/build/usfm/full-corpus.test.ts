// The USFM reader on the real Louis Segond 1910 package: every book, every verse, clean text.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, expect, it } from 'vitest';
import { bookByUsfm } from '../../../build/contract/books.ts';
import type { Verse } from '../../../build/model.ts';
import { readUsfmBible } from '../../../build/usfm/read-usfm.ts';
import { usfmFilesFromZip } from '../../../build/usfm/source-zip.ts';
import type { UsfmVersionText } from '../../../build/usfm/types.ts';
import { versificationByName } from '../../../build/versification.ts';
import { describeWith, requirement } from '../../helpers/requirements.ts';

const sourcesDir = requirement('BIBLE_SOURCES_DIR').path;

/** What the source's own markers say, counted on the raw .sfm text with no code of the reader. */
interface SourceMarkers {
  /** `\v` markers in the 66 books. */
  verses: number;
  /** Verses with at least one section heading marker (`\s`, `\s1`, `\ms1`, …) since the verse before. */
  versesWithHeading: number;
  /** The references the verse markers give, "GEN 1:1". */
  references: string[];
}

/**
 * The one malformed verse marker of this source, in Psalm 119: "\v 11 5Éloignez…" is verse 115
 * (its text and the neighbouring verses say so). Counted as 115 here; the reader's repair of it
 * is checked on its own below.
 */
const MALFORMED_MARKER = { book: 'PSA', text: '\\v 11 5', reads: '\\v 115 ' };

/** Counts the markers of every book file of the zip (the front matter, \id FRT and INT, left out) with fflate and regular expressions. */
function sourceMarkers(zip: Uint8Array): SourceMarkers {
  const counted: SourceMarkers = { verses: 0, versesWithHeading: 0, references: [] };
  const files = unzipSync(zip, { filter: (entry) => entry.name.endsWith('.sfm') });
  let malformed = 0;
  for (const bytes of Object.values(files)) {
    let text = strFromU8(bytes);
    const book = /^\\id (\w{3})/m.exec(text)?.[1];
    if (book === undefined) throw new Error('an .sfm file without an \\id line');
    if (book === 'FRT' || book === 'INT') continue;
    if (book === MALFORMED_MARKER.book) {
      malformed += text.split(MALFORMED_MARKER.text).length - 1;
      text = text.replaceAll(MALFORMED_MARKER.text, MALFORMED_MARKER.reads);
    }
    let chapter = 0;
    let headingPending = false;
    for (const [, marker, number] of text.matchAll(/\\([a-z]+\d*)\*?(?:[ \t]+(\d+))?/g)) {
      if (marker === 'c') chapter = Number(number);
      else if (/^m?s\d*$/.test(marker)) headingPending = true;
      else if (marker === 'v') {
        counted.verses += 1;
        counted.references.push(`${book} ${chapter}:${Number(number)}`);
        if (headingPending) counted.versesWithHeading += 1;
        headingPending = false;
      }
    }
  }
  if (malformed !== 1) throw new Error(`expected the one malformed verse marker, found ${malformed}`);
  return counted;
}

/** The references of `present` missing from KJV's verse counts, and those past them: computed from the versification data alone. */
function againstKjv(present: readonly string[]): { missing: string[]; extra: string[] } {
  const have = new Set(present);
  const missing: string[] = [];
  const extra: string[] = [];
  const kjv = new Map(versificationByName('KJV').books.map((book) => [book.osis, book.verses]));
  const books = new Set(present.map((reference) => reference.split(' ')[0]));
  for (const book of books) {
    const counts = kjv.get(bookByUsfm(book)!.osis)!;
    counts.forEach((verses, index) => {
      for (let verse = 1; verse <= verses; verse++)
        if (!have.has(`${book} ${index + 1}:${verse}`)) missing.push(`${book} ${index + 1}:${verse}`);
    });
  }
  for (const reference of have) {
    const [, book, chapter, verse] = /^(\w+) (\d+):(\d+)$/.exec(reference)!;
    const counts = kjv.get(bookByUsfm(book)!.osis)!;
    if (Number(verse) > (counts[Number(chapter) - 1] ?? 0)) extra.push(reference);
  }
  return { missing: missing.sort(), extra: extra.sort() };
}

describeWith(['BIBLE_SOURCES_DIR'], 'readUsfmBible on FRA-B-LSG1910-PD-UBS.zip', () => {
  let lsg: UsfmVersionText;
  let source: SourceMarkers;
  const verses: { reference: string; verse: Verse }[] = [];

  beforeAll(async () => {
    const zip = await readFile(join(sourcesDir!, 'FRA-B-LSG1910-PD-UBS.zip'));
    source = sourceMarkers(zip);
    const started = performance.now();
    const files = usfmFilesFromZip(zip);
    const unzipped = performance.now();
    lsg = readUsfmBible(files, 'LSG');
    const read = performance.now();
    for (const book of lsg.books) {
      for (const chapter of book.chapters) {
        for (const verse of chapter.verses) verses.push({ reference: `${book.code} ${chapter.number}:${verse.number}`, verse });
      }
    }
    console.log(
      `LSG: ${files.length} files unzipped in ${(unzipped - started).toFixed(0)} ms, ` +
        `${lsg.books.length} books and ${verses.length} verses read in ${(read - unzipped).toFixed(0)} ms, ${lsg.issues.length} issues`,
    );
  });

  function text(reference: string): string | undefined {
    return verses.find((entry) => entry.reference === reference)?.verse.text;
  }

  it('reads the 66 books in canonical order and sets the two front-matter files aside', () => {
    expect(lsg.books).toHaveLength(66);
    expect(lsg.books[0].code).toBe('GEN');
    expect(lsg.books[65].code).toBe('REV');
    expect(lsg.ignoredFiles.map((file) => file.idCode)).toEqual(['FRT', 'INT']);
  });

  it('has one verse entry for each of the 31,170 \\v markers, none of them joined', () => {
    expect(source.verses).toBe(31_170);
    expect(verses.map((entry) => entry.reference)).toEqual(source.references);
    expect(
      lsg.books
        .flatMap((book) => book.chapters)
        .every((chapter) => new Set(chapter.verses.map((verse) => verse.number)).size === chapter.verses.length),
    ).toBe(true);
    expect(lsg.issues.filter((issue) => issue.kind === 'merged-verse')).toEqual([]);
  });

  it('gives the well-known verses their exact text', () => {
    expect(text('GEN 1:1')).toBe('Au commencement, Dieu créa les cieux et la terre.');
    expect(text('PSA 23:1')).toBe('Cantique de David. L’Éternel est mon berger: je ne manquerai de rien.');
    expect(text('JHN 3:16')).toBe(
      'Car Dieu a tant aimé le monde qu’il a donné son Fils unique, afin que quiconque croit en lui ne périsse point, mais qu’il ait la vie éternelle.',
    );
    expect(text('REV 22:21')).toBe('Que la grâce du Seigneur Jésus soit avec tous!');
  });

  it('joins poetry lines, keeps Selah and the words of Jesus, and drops cross-references', () => {
    expect(text('PSA 1:1')).toBe(
      'Heureux l’homme qui ne marche pas selon le conseil des méchants, Qui ne s’arrête pas sur la voie des pécheurs, Et qui ne s’assied pas en compagnie des moqueurs,',
    );
    expect(text('PSA 3:3')).toBe('Combien qui disent à mon sujet: Plus de salut pour lui auprès de Dieu! — Pause.');
    expect(text('MAL 4:5')).toBe(
      'Voici, je vous enverrai Élie, le prophète, Avant que le jour de l’Éternel arrive, Ce jour grand et redoutable.',
    );
  });

  it('puts section headings in the heading field', () => {
    const first = verses[0].verse;
    expect(first.heading).toBe('LES TEMPS ANCIENS / DEPUIS LA CRÉATION JUSQU’À ABRAHAM / Création du monde');
    // One heading per verse that follows one or more heading markers (joined with " / ").
    expect(source.versesWithHeading).toBe(1_481);
    expect(verses.filter((entry) => entry.verse.heading !== undefined)).toHaveLength(source.versesWithHeading);
  });

  it('leaves no markup, attribute or cross-reference fragment in any verse text', () => {
    const dirty = verses.filter(({ verse }) => /[\\<>*|~]/.test(verse.text) || /\d+[.:]\d+/.test(verse.text));
    expect(dirty.map((entry) => entry.reference)).toEqual([]);
    const empty = verses.filter(({ verse }) => verse.text === '' || verse.text !== verse.text.replace(/\s+/g, ' ').trim());
    expect(empty.map((entry) => entry.reference)).toEqual([]);
  });

  it('reports the one repaired verse number and no unknown markup', () => {
    expect(lsg.issues.filter((issue) => issue.kind === 'unknown-markup')).toEqual([]);
    expect(lsg.issues.filter((issue) => issue.kind === 'parse-error')).toEqual([
      {
        kind: 'parse-error',
        where: 'FRA[B]LSG1910[PD]UBS-19-PSA.p.sfm:7238:1',
        detail: '"\\v 11 5…" read as verse 115 (space inside the verse number)',
      },
    ]);
    expect(text('PSA 119:115')).toBe('Éloignez-vous de moi, méchants, Afin que j’observe les commandements de mon Dieu!');
  });

  it('reports where the French versification differs from the KJV verse counts', () => {
    const missing = lsg.issues.filter((issue) => issue.kind === 'missing-verse');
    const extra = lsg.issues.filter((issue) => issue.kind === 'extra-verse');
    console.log(`LSG against KJV: ${missing.length} verses missing, ${extra.length} extra`);
    const expected = againstKjv(source.references);
    expect([expected.missing.length, expected.extra.length]).toEqual([46, 114]);
    expect(missing.map((issue) => issue.where).sort()).toEqual(expected.missing);
    expect(extra.map((issue) => issue.where).sort()).toEqual(expected.extra);
    // Psalm titles are verse 1 in French Bibles, so Psalm 3 has nine verses where KJV has eight.
    expect(extra).toContainEqual({ kind: 'extra-verse', where: 'PSA 3:9', detail: 'in the source but not in KJV', comparedWith: 'KJV' });
  });
});
