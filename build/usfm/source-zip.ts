// A zip of USFM files, or files already read from a folder → the USFM files to parse, decoded as UTF-8.
import { unzipEntries } from '../zip-archive.ts';
import type { UsfmFile } from './types.ts';

/** A file as read from a folder or an archive, before decoding. */
export interface SourceFileBytes {
  /** Path or name inside the source; only the last path segment is kept. */
  name: string;
  bytes: Uint8Array;
}

/**
 * The USFM files (`.sfm`, `.usfm`) of a zip archive, in name order. Other entries (Paratext
 * settings, stylesheets, README) are left out; front matter files are kept, since only their
 * `\id` line tells what they are, and the reader sets them aside.
 *
 * @example
 * const files = usfmFilesFromZip(await readFile('FRA-B-LSG1910-PD-UBS.zip'));
 */
export function usfmFilesFromZip(zip: Uint8Array): UsfmFile[] {
  const entries = unzipEntries(zip, (entry) => isUsfmFileName(entry.name));
  return usfmFilesFromBytes(Object.entries(entries).map(([name, bytes]) => ({ name, bytes })));
}

/**
 * The USFM files among files already read (for instance every file of a folder), in name order.
 *
 * @example
 * const names = await readdir(dir);
 * const files = usfmFilesFromBytes(await Promise.all(names.map(async (name) => ({ name, bytes: await readFile(join(dir, name)) }))));
 */
export function usfmFilesFromBytes(files: SourceFileBytes[]): UsfmFile[] {
  const decoder = new TextDecoder('utf-8');
  return files
    .filter((file) => isUsfmFileName(file.name))
    .map((file) => ({ fileName: baseName(file.name), text: decoder.decode(file.bytes) }))
    .sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
}

function isUsfmFileName(name: string): boolean {
  return /\.(u?sfm)$/i.test(name) && !name.endsWith('/');
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
