// One-off generator: SWORD canon headers (/usr/include/sword) → data/versifications/{kjv,kjva,nrsv}.json.
// Run: npx tsx scripts/gen-versifications.ts [/usr/include/sword]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface HeaderBook {
  name: string;
  osis: string;
  chapters: number;
}

const {
  positionals: [includeDir = '/usr/include/sword'],
} = parseArgs({ options: {}, allowPositionals: true });
const outDir = new URL('../data/versifications/', import.meta.url);

const kjvHeader = readFileSync(join(includeDir, 'canon.h'), 'utf8');
const kjvaHeader = readFileSync(join(includeDir, 'canon_kjva.h'), 'utf8');
const nrsvHeader = readFileSync(join(includeDir, 'canon_nrsv.h'), 'utf8');

const otbooks = parseBooks(kjvHeader, 'otbooks');
const ntbooks = parseBooks(kjvHeader, 'ntbooks');

writeVersification('kjv', 'KJV', otbooks, ntbooks, parseVerseMax(kjvHeader, 'vm'));
writeVersification('kjva', 'KJVA', parseBooks(kjvaHeader, 'otbooks_kjva'), ntbooks, parseVerseMax(kjvaHeader, 'vm_kjva'));
// canon_nrsv.h says "for otbooks_nrsv, use otbooks" and the same for ntbooks.
writeVersification('nrsv', 'NRSV', otbooks, ntbooks, parseVerseMax(nrsvHeader, 'vm_nrsv'));

function parseBooks(header: string, arrayName: string): HeaderBook[] {
  const body = arrayBody(header, `struct sbook ${arrayName}[]`);
  const books: HeaderBook[] = [];
  for (const match of body.matchAll(/\{\s*"([^"]*)",\s*"([^"]*)",\s*"([^"]*)",\s*(\d+)\s*\}/g)) {
    if (match[2] === '') break;
    books.push({ name: match[1], osis: match[2], chapters: Number(match[4]) });
  }
  return books;
}

function parseVerseMax(header: string, arrayName: string): number[] {
  const body = arrayBody(header, `int ${arrayName}[]`).replace(/\/\/[^\n]*/g, '');
  return [...body.matchAll(/\d+/g)].map((match) => Number(match[0]));
}

function arrayBody(header: string, declaration: string): string {
  const start = header.indexOf(declaration);
  if (start < 0) throw new Error(`${declaration} not found`);
  const open = header.indexOf('{', start);
  const close = header.indexOf('};', open);
  return header.slice(open + 1, close);
}

function writeVersification(file: string, name: string, ot: HeaderBook[], nt: HeaderBook[], verseMax: number[]): void {
  let cursor = 0;
  const books = [...ot.map((book) => ({ ...book, testament: 'OT' })), ...nt.map((book) => ({ ...book, testament: 'NT' }))].map((book) => {
    const verses = verseMax.slice(cursor, cursor + book.chapters);
    cursor += book.chapters;
    return { osis: book.osis, name: book.name, testament: book.testament, verses };
  });
  if (cursor !== verseMax.length) throw new Error(`${name}: ${verseMax.length} verse counts for ${cursor} chapters`);
  const json = { name, source: `SWORD ${file === 'kjv' ? 'canon.h' : `canon_${file}.h`}`, books };
  // One line per book keeps the file short and its diffs readable.
  const bookLines = books.map((book) => `    ${JSON.stringify(book)}`).join(',\n');
  const text = `{\n  "name": ${JSON.stringify(json.name)},\n  "source": ${JSON.stringify(json.source)},\n  "books": [\n${bookLines}\n  ]\n}\n`;
  writeFileSync(new URL(`${file}.json`, outDir), text);
  const total = books.reduce((sum, book) => sum + book.verses.reduce((a, b) => a + b, 0), 0);
  console.log(`${name}: ${books.length} books, ${cursor} chapters, ${total} verses`);
}
