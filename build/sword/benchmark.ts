// Timing of one full SWORD module read, for scripts/bench-bible.ts to compare with `mod2imp`.
import { performance } from 'node:perf_hooks';
import { openSwordModuleZip } from './module-zip.ts';
import { rawCanonicalVerses, readSwordModule } from './read-module.ts';

export interface SwordReadTiming {
  /** Verses with text in the model. */
  verses: number;
  /** Unzip + decompress + index walk only (what `mod2imp` does: raw entries, no markup work). */
  rawMilliseconds: number;
  /** The whole `readSwordModule`: raw entries and OSIS → plain text for every verse. */
  modelMilliseconds: number;
}

/**
 * Reads every canonical verse of a module twice (raw, then into the model) and times both.
 * The zip bytes are read by the caller, so file I/O is not counted.
 *
 * @example const timing = timeSwordModuleRead(readFileSync('KJV.zip'), 'KJV'); // { verses: 31102, … }
 */
export function timeSwordModuleRead(zipBytes: Uint8Array, code: string): SwordReadTiming {
  let start = performance.now();
  let rawLength = 0;
  for (const slot of rawCanonicalVerses(openSwordModuleZip(zipBytes))) rawLength += slot.raw.length;
  const rawMilliseconds = performance.now() - start;
  if (rawLength === 0) throw new Error(`SWORD module ${code} has no verse text`);

  start = performance.now();
  const { version } = readSwordModule(zipBytes, code);
  const modelMilliseconds = performance.now() - start;
  const verses = version.books.reduce(
    (sum, book) => sum + book.chapters.reduce((chapterSum, chapter) => chapterSum + chapter.verses.length, 0),
    0,
  );
  return { verses, rawMilliseconds, modelMilliseconds };
}
