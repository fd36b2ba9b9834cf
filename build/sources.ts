// The pinned Bible sources: where the files live, and checking them against the SHA-256 the version manifest pins.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VersionManifestEntry } from './version-manifest.ts';

/** Where the sources are read from when neither `--sources` nor BIBLE_SOURCES_DIR says otherwise. */
export const DEFAULT_SOURCES_DIR = fileURLToPath(new URL('../data/sources/', import.meta.url));

const FIX_HINT =
  'Run `npm run fetch:bible` to download the pinned files, or point BIBLE_SOURCES_DIR (or --sources DIR) ' +
  'to a directory that holds them.';

/** A source file that is missing or is not the pinned one. */
export class SourceFileError extends Error {
  constructor(
    message: string,
    /** The file that was checked. */
    readonly path: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The source file does not exist. */
export class SourceMissingError extends SourceFileError {
  constructor(path: string, entry: VersionManifestEntry) {
    super(`Bible source ${entry.code} (${entry.lang}) is missing: no file at ${path}. ${FIX_HINT}`, path);
  }
}

/** The source file's SHA-256 is not the one the manifest pins. */
export class SourceMismatchError extends SourceFileError {
  constructor(
    path: string,
    readonly expected: string,
    readonly actual: string,
    entry: VersionManifestEntry,
    /** Where the bytes came from, when they were just downloaded. */
    readonly url?: string,
  ) {
    super(
      `Bible source ${entry.code} (${entry.lang}) at ${path}${url ? ` (downloaded from ${url})` : ''} ` +
        `is not the pinned file: expected SHA-256 ${expected}, got ${actual}. ${FIX_HINT}`,
      path,
    );
  }
}

/** Path of the entry's file inside the sources directory. */
export function sourcePath(dir: string, entry: VersionManifestEntry): string {
  return join(dir, entry.file);
}

/**
 * Checks that the file at `path` is the one the manifest pins, by streaming it through SHA-256.
 * Throws SourceMissingError or SourceMismatchError, both with what to do about it.
 *
 * @example const { sha256 } = await verifySourceFile(sourcePath(dir, entry), entry);
 */
export async function verifySourceFile(path: string, entry: VersionManifestEntry): Promise<{ sha256: string }> {
  try {
    if (!(await stat(path)).isFile()) throw new SourceMissingError(path, entry);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceMissingError(path, entry);
    throw error;
  }
  const sha256 = await sha256OfFile(path);
  if (sha256 !== entry.sha256) throw new SourceMismatchError(path, entry.sha256, sha256, entry);
  return { sha256 };
}

/** Lower-case hex SHA-256 of a file, read as a stream (the sources are megabytes). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The sources directory: the `--sources` option beats BIBLE_SOURCES_DIR beats data/sources/
 * in the project. Relative paths are taken from `cwd`.
 *
 * @example resolveSourcesDir(options.sources, process.env)
 */
export function resolveSourcesDir(
  sourcesOption: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): string {
  const chosen = sourcesOption ?? (env.BIBLE_SOURCES_DIR?.trim() || undefined);
  if (chosen === undefined) return DEFAULT_SOURCES_DIR;
  return isAbsolute(chosen) ? chosen : resolve(cwd, chosen);
}
