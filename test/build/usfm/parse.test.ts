// The USFM parser on small hand-written books: what becomes verse text, what goes to side fields, what is reported.
import { describe, expect, it } from 'vitest';
import type { Book } from '../../../build/model.ts';
import { parseUsfmFile } from '../../../build/usfm/parse.ts';
import type { ParsedUsfmFile } from '../../../build/usfm/types.ts';

function parse(text: string, fileName = 'TEST.sfm'): ParsedUsfmFile {
  return parseUsfmFile({ fileName, text });
}

function bookOf(text: string): Book {
  const parsed = parse(text);
  if (parsed.type !== 'book') throw new Error(`not a book: ${JSON.stringify(parsed)}`);
  return parsed.book;
}

function verse(book: Book, chapter: number, number: number) {
  const found = book.chapters.find((c) => c.number === chapter)?.verses.find((v) => v.number === number);
  if (found === undefined) throw new Error(`${book.code} ${chapter}:${number} not found`);
  return found;
}

describe('parseUsfmFile', () => {
  it('reads the book code, chapters and verses', () => {
    const book = bookOf(
      '\\id GEN Louis Segond\n\\c 1\n\\p\n\\v 1 Au commencement.\n\\v 2 La terre.\n\\c 2\n\\p\n\\v 1 Ainsi furent achevés.\n',
    );
    expect(book.code).toBe('GEN');
    expect(book.chapters.map((c) => [c.number, c.verses.length])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(verse(book, 1, 2)).toEqual({ number: 2, text: 'La terre.' });
  });

  it('joins poetry lines and paragraphs into the verse with single spaces', () => {
    const book = bookOf(
      '\\id PSA\n\\c 1\n\\q\n\\v 1 Heureux l’homme,\n\\q1 Qui ne s’arrête pas,\n\\q2   Et qui ne s’assied pas,\n\\b\n\\m Mais\n\\pi qui trouve\n\\li son plaisir.\n\\p\n\\v 2 Suite.\n',
    );
    expect(verse(book, 1, 1).text).toBe('Heureux l’homme, Qui ne s’arrête pas, Et qui ne s’assied pas, Mais qui trouve son plaisir.');
    expect(verse(book, 1, 2).text).toBe('Suite.');
  });

  it('keeps the words of Jesus and character styles as plain text, without attributes', () => {
    const book = bookOf(
      '\\id JHN\n\\c 1\n\\p\n\\v 38 il leur dit: \\wj Que cherchez-vous?\\wj* Ils répondirent.\n' +
        '\\v 39 \\add et\\add* \\nd Éternel\\nd*, \\bk Livre\\bk*, \\sc Roi\\sc*, \\it mot\\it* \\bd gras\\bd*; \\wj dit \\+nd Seigneur\\+nd*\\wj*.\n' +
        '\\v 40 \\w grâce|lemma="charis" strong="G5485"\\w* et paix\n' +
        '\\q Plus de salut! \\qs — Pause.\\qs*\n',
    );
    expect(verse(book, 1, 38).text).toBe('il leur dit: Que cherchez-vous? Ils répondirent.');
    expect(verse(book, 1, 39).text).toBe('et Éternel, Livre, Roi, mot gras; dit Seigneur.');
    expect(verse(book, 1, 40).text).toBe('grâce et paix Plus de salut! — Pause.');
  });

  it('removes cross-references and moves footnotes to notes', () => {
    const book = bookOf(
      '\\id MAL\n\\c 4\n\\p\n\\v 5 Voici, je vous enverrai \\x + \\xo 4:5 \\xt Mt 11:14; 17:11. Lu 1:17. \\x*Élie, le prophète,\n' +
        '\\v 6 Il ramènera\\f + \\fr 4.6 \\fq ramènera: \\ft ou, tournera\\f* le cœur.\n',
    );
    expect(verse(book, 4, 5)).toEqual({ number: 5, text: 'Voici, je vous enverrai Élie, le prophète,' });
    expect(verse(book, 4, 6)).toEqual({ number: 6, text: 'Il ramènera le cœur.', notes: ['ramènera: ou, tournera'] });
  });

  it('puts section headings in the heading field of the next verse, not in the text', () => {
    const book = bookOf(
      '\\id GEN\n\\mt1 GENÈSE\n\\c 1\n\\ms1 LES TEMPS ANCIENS\n\\mr (Ge 1.)\n\\s Création du monde\n\\r (Jn 1:1-3.)\n\\p\n\\v 1 Au commencement.\n\\v 2 La terre.\n\\s2 Le jardin\n\\p\n\\v 3 Dieu dit.\n',
    );
    expect(verse(book, 1, 1)).toEqual({ number: 1, text: 'Au commencement.', heading: 'LES TEMPS ANCIENS / Création du monde' });
    expect(verse(book, 1, 2).heading).toBeUndefined();
    expect(verse(book, 1, 3)).toEqual({ number: 3, text: 'Dieu dit.', heading: 'Le jardin' });
  });

  it('puts a Psalm title written as \\d in the heading of verse 1', () => {
    const book = bookOf('\\id PSA\n\\c 3\n\\d Psaume de David.\n\\q1\n\\v 1 O Éternel!\n');
    expect(verse(book, 3, 1)).toEqual({ number: 1, text: 'O Éternel!', heading: 'Psaume de David.' });
  });

  it('keeps the book introduction, titles and metadata out of the text', () => {
    const parsed = parse(
      '\\id GEN FRA (p.sfm)\n\\ide UTF-8\n\\h GENÈSE\n\\toc1 Genèse\n\\toc2 Ge\n\\toc3 Gn\n\\rem Table |name="1"|\n\\mt1 LA GENÈSE\n' +
        '\\imt1 INTRODUCTION\n\\is1 Titre\n\\ip Le livre \\ior 1:1\\ior* parle.\n\\ipi Détail.\n\\ili Liste\n\\iot Plan\n\\io1 Partie 1 \\ior 1–11\\ior*\n\\tr \\tc1 un \\tc2 8:1\n\\ie\n' +
        '\\c 1\n\\p\n\\v 1 Au commencement.\n\\mte9 ~\n',
    );
    expect(parsed.type).toBe('book');
    if (parsed.type !== 'book') return;
    expect(parsed.book.chapters).toEqual([{ number: 1, verses: [{ number: 1, text: 'Au commencement.' }] }]);
    expect(parsed.issues).toEqual([]);
  });

  it('reads \\v 1-2 as verse 1 holding the text of both, and reports it as merged', () => {
    const parsed = parse('\\id ROM\n\\c 16\n\\p\n\\v 1-2 Je vous recommande Phoebé.\n\\v 3 Saluez.\n');
    if (parsed.type !== 'book') throw new Error('not a book');
    expect(parsed.book.chapters[0].verses).toEqual([
      { number: 1, text: 'Je vous recommande Phoebé.' },
      { number: 3, text: 'Saluez.' },
    ]);
    expect(parsed.joinedVerses).toEqual([{ chapter: 16, verse: 1, through: 2 }]);
    expect(parsed.issues).toEqual([{ kind: 'merged-verse', where: 'ROM 16:1-2', detail: 'verses 1 to 2 are one verse in the source' }]);
  });

  it('reports an unknown marker with file, line and column, and keeps it out of the text', () => {
    const parsed = parse('\\id GEN\n\\c 1\n\\p\n\\v 1 Au \\zzz commencement\\zzz*.\n  \\qzz Dieu\n', 'GEN.sfm');
    if (parsed.type !== 'book') throw new Error('not a book');
    expect(parsed.book.chapters[0].verses[0].text).toBe('Au commencement. Dieu');
    expect(parsed.issues).toEqual([
      { kind: 'unknown-markup', where: 'GEN.sfm:4:9', detail: 'unknown marker \\zzz' },
      { kind: 'unknown-markup', where: 'GEN.sfm:5:3', detail: 'unknown marker \\qzz' },
    ]);
  });

  it('goes on after an error and collects every issue of the book', () => {
    const parsed = parse('\\id GEN\n\\c 1\n\\p\n\\v 1 Un \\x + \\xt Jn 1:1.\n\\p\n\\v 2 Deux\\wj*.\n\\v\n\\v 3 Trois.\n', 'GEN.sfm');
    if (parsed.type !== 'book') throw new Error('not a book');
    expect(parsed.book.chapters[0].verses.map((v) => v.text)).toEqual(['Un', 'Deux.', 'Trois.']);
    expect(parsed.issues.map((issue) => `${issue.where} ${issue.kind}`)).toEqual([
      'GEN.sfm:4:9 parse-error',
      'GEN.sfm:6:10 parse-error',
      'GEN.sfm:7:1 parse-error',
    ]);
  });

  it('repairs a verse number split by a space when it is exactly the next verse', () => {
    const parsed = parse('\\id PSA\n\\c 119\n\\q\n\\v 114 Tu es mon asile;\n\\q\n\\v 11 5Éloignez-vous de moi,\n', 'PSA.sfm');
    if (parsed.type !== 'book') throw new Error('not a book');
    expect(parsed.book.chapters[0].verses.map((v) => [v.number, v.text])).toEqual([
      [114, 'Tu es mon asile;'],
      [115, 'Éloignez-vous de moi,'],
    ]);
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.issues[0].where).toBe('PSA.sfm:6:1');
  });

  it('sets aside front matter and non-canonical books by their \\id', () => {
    expect(parse('\\id FRT FRA\n\\periph Title Page\n\\mt1 LA BIBLE\n')).toEqual({
      type: 'other',
      fileName: 'TEST.sfm',
      idCode: 'FRT',
      issues: [],
    });
    expect(parse('\\id INT\n\\ip Introduction\n')).toMatchObject({ type: 'other', idCode: 'INT' });
    expect(parse('\\id TOB\n\\c 1\n\\p\n\\v 1 Tobit.\n')).toMatchObject({ type: 'other', idCode: 'TOB' });
  });

  it('turns ~ into a space and collapses whitespace, leaving no markup characters', () => {
    const book = bookOf('\\id GEN\r\n\\c 1\r\n\\p\r\n\\v 1   Au~commencement,\t Dieu //créa   \r\n\\p   les cieux.  \r\n');
    expect(verse(book, 1, 1).text).toBe('Au commencement, Dieu créa les cieux.');
  });
});

describe('parseUsfmFile on USFM 3 details', () => {
  it('drops milestones with their attributes and alternate verse numbers', () => {
    const book = bookOf(
      '\\id MRK\n\\c 15\n\\p\n\\v 2 Pilate lui demanda: \\qt-s |who="Pilate"\\*Es-tu le roi?\\qt-e\\* \\ts\\*Jésus répondit.\n\\v 3 \\va 4\\va*\\vp 3a\\vp*Les principaux.\n',
    );
    expect(verse(book, 15, 2).text).toBe('Pilate lui demanda: Es-tu le roi? Jésus répondit.');
    expect(verse(book, 15, 3).text).toBe('Les principaux.');
  });

  it('reports a literal * or | in scripture and keeps it out of the text', () => {
    const parsed = parse('\\id GEN\n\\c 1\n\\p\n\\v 1 Au *commencement | lemma\n', 'GEN.sfm');
    if (parsed.type !== 'book') throw new Error('not a book');
    expect(parsed.book.chapters[0].verses[0].text).toBe('Au commencement');
    expect(parsed.issues.map((issue) => `${issue.where} ${issue.kind} ${issue.detail}`)).toEqual([
      'GEN.sfm:4:6 unknown-markup attributes outside a character style: "| lemma"',
      'GEN.sfm:4:6 unknown-markup "*" outside a closing marker: "Au *commencement"',
    ]);
  });
});
