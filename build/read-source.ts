// Reads one pinned source into the model, with the reader for its format (SWORD module or USFM).
import type { VersionText } from './model.ts';
import { readSwordModule } from './sword/read-module.ts';
import { readUsfmBible } from './usfm/read-usfm.ts';
import { usfmFilesFromZip } from './usfm/source-zip.ts';
import type { VersionManifestEntry } from './version-manifest.ts';

/**
 * The version a source file holds, read by the reader for the entry's format.
 *
 * @example readSource(entry, readFileSync(sourcePath(dir, entry))).books.length // 66
 */
export function readSource(entry: Pick<VersionManifestEntry, 'format' | 'code'>, bytes: Uint8Array): VersionText {
  if (entry.format === 'sword') return readSwordModule(bytes, entry.code).version;
  const { code, books, issues } = readUsfmBible(usfmFilesFromZip(bytes), entry.code);
  return { code, books, issues };
}
