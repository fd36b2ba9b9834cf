// SWORD zText module (zip bytes) → the build's model: the 66 canonical books, verse by verse.
import { bookByOsis, type Testament } from '../contract/books.ts';
import type { Book, Chapter, SourceIssue, Verse, VersionText } from '../model.ts';
import { type Versification, versificationByName } from '../versification.ts';
import type { SwordConf } from './conf.ts';
import { openSwordModuleZip, type SwordModuleFiles } from './module-zip.ts';
import { osisToText } from './osis-text.ts';
import { testamentEntryCount, testamentLayout } from './verse-index.ts';
import { ZTextTestament } from './ztext.ts';

export interface SwordModule {
  conf: SwordConf;
  version: VersionText;
}

export interface ReadSwordOptions {
  /** Versification to use instead of the one the conf names (tests use small made-up ones). */
  versification?: Versification;
  /** Which conf to read when the zip holds several modules. */
  moduleName?: string;
}

/** One verse slot of the versification with its raw entry, as the reader walks a module. */
export interface RawVerse {
  /** USFM code of the canonical book ("GEN"). */
  book: string;
  /** SWORD's English book name, as `mod2imp` prints it ("Genesis"). */
  swordBookName: string;
  chapter: number;
  verse: number;
  /** The entry exactly as stored (OSIS markup); empty when the module lacks the verse. */
  raw: string;
}

/**
 * Reads a SWORD zText module from the bytes of its zip. Pure: no file access.
 * Only the 66 canonical books are read (apocrypha of KJVA modules are skipped); empty
 * entries are left out and reported as `missing-verse`; unknown markup is reported.
 *
 * @example const { conf, version } = readSwordModule(readFileSync('KJV.zip'), 'KJV');
 */
export function readSwordModule(zipBytes: Uint8Array, code: string, options: ReadSwordOptions = {}): SwordModule {
  const files = openSwordModuleZip(zipBytes, options.moduleName);
  const issues: SourceIssue[] = [];
  const books: Book[] = [];
  let currentBook: Book | undefined;
  let currentChapter: Chapter | undefined;

  for (const slot of rawCanonicalVerses(files, options.versification, issues)) {
    if (currentBook?.code !== slot.book) {
      currentBook = { code: slot.book, chapters: [] };
      books.push(currentBook);
      currentChapter = undefined;
    }
    if (currentChapter?.number !== slot.chapter) {
      currentChapter = { number: slot.chapter, verses: [] };
      currentBook.chapters.push(currentChapter);
    }
    const where = `${slot.book} ${slot.chapter}:${slot.verse}`;
    if (slot.raw.trim() === '') {
      issues.push({ kind: 'missing-verse', where, detail: 'the module has no text for this verse' });
      continue;
    }
    const plain = osisToText(slot.raw, where);
    issues.push(...plain.issues);
    if (plain.text === '') {
      issues.push({ kind: 'missing-verse', where, detail: 'the entry holds markup but no verse text' });
      continue;
    }
    const verse: Verse = { number: slot.verse, text: plain.text };
    if (plain.heading) verse.heading = plain.heading;
    if (plain.notes) verse.notes = plain.notes;
    Object.assign(verse, plain.layout);
    currentChapter.verses.push(verse);
  }
  return { conf: files.conf, version: { code, books, issues } };
}

/**
 * Every verse slot of the canonical books in the module's versification, in canonical
 * order, with its raw entry. Structural problems (an index shorter than the
 * versification, a missing testament) are pushed onto `issues`.
 *
 * @example for (const v of rawCanonicalVerses(openSwordModuleZip(zip))) console.log(v.book, v.chapter, v.verse, v.raw);
 */
export function* rawCanonicalVerses(
  files: SwordModuleFiles,
  versification: Versification = versificationByName(files.conf.versification),
  issues: SourceIssue[] = [],
): Generator<RawVerse> {
  const driver = files.conf.modDrv?.toLowerCase();
  if (driver && driver !== 'ztext' && driver !== 'ztext4') {
    throw new Error(`SWORD module ${files.conf.name} uses driver ${files.conf.modDrv}, not zText`);
  }
  if (driver === 'ztext4') throw new Error(`SWORD module ${files.conf.name}: zText4 (32-bit entry sizes) is not supported`);
  if (files.conf.compressType && files.conf.compressType.toUpperCase() !== 'ZIP') {
    throw new Error(`SWORD module ${files.conf.name} uses CompressType=${files.conf.compressType}; only ZIP is supported`);
  }

  for (const testament of ['OT', 'NT'] as Testament[]) {
    const layouts = testamentLayout(versification, testament).filter((layout) => bookByOsis(layout.book.osis));
    if (layouts.length === 0) continue;
    const testamentFiles = testament === 'OT' ? files.ot : files.nt;
    if (!testamentFiles) {
      issues.push({ kind: 'parse-error', where: testament, detail: `the module has no ${testament.toLowerCase()}.bz* files` });
    }
    const entries = testamentFiles ? new ZTextTestament(testamentFiles, files.conf.encoding) : undefined;
    const expected = testamentEntryCount(versification, testament);
    if (entries && entries.entryCount < expected) {
      issues.push({
        kind: 'parse-error',
        where: testament,
        detail: `verse index has ${entries.entryCount} entries, versification ${versification.name} needs ${expected}`,
      });
    }
    for (const layout of layouts) {
      const book = bookByOsis(layout.book.osis)!.usfm;
      for (let chapterIndex = 0; chapterIndex < layout.chapterIntroIndex.length; chapterIndex++) {
        const introIndex = layout.chapterIntroIndex[chapterIndex];
        const verseCount = layout.book.verses[chapterIndex];
        for (let verse = 1; verse <= verseCount; verse++) {
          yield {
            book,
            swordBookName: layout.book.name,
            chapter: chapterIndex + 1,
            verse,
            raw: entries ? entries.rawEntry(introIndex + verse) : '',
          };
        }
      }
    }
  }
}
