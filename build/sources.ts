// The pinned Bible sources: the version manifest, where the files live, and checking their SHA-256.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGS, type Lang } from './contract/books.ts';

export type SourceFormat = 'usfm' | 'sword';

/** One version as data/bible-versions.json pins it: what it is, where it comes from, its hash. */
export interface VersionManifestEntry {
  lang: Lang;
  /** Version code served by the API ("LSG", "KJV", "RVR", "BLIVRE", "STV"). */
  code: string;
  name: string;
  languageName: string;
  year: number;
  licence: string;
  attribution: string;
  format: SourceFormat;
  /** Bare file name inside the sources directory ("KJV.zip"). */
  file: string;
  /** Upstream project page. */
  upstream: string;
  /** Pinned upstream revision (a commit). */
  revision: string;
  /** Download address of the pinned file. */
  url: string;
  /** Lower-case hex SHA-256 of the file. */
  sha256: string;
}

export interface VersionManifest {
  schemaVersion: 1;
  versions: VersionManifestEntry[];
}

/** data/bible-versions.json, the manifest the project ships. */
export const VERSION_MANIFEST_PATH = fileURLToPath(new URL('../data/bible-versions.json', import.meta.url));

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

/** The manifest is malformed; the message names the entry and field. */
export class VersionManifestError extends Error {
  override name = 'VersionManifestError';
}

/**
 * Reads and validates a version manifest (by default data/bible-versions.json).
 *
 * @example loadVersionManifest().versions.map((entry) => entry.code) // ['LSG', 'KJV', 'RVR', 'BLIVRE', 'STV']
 */
export function loadVersionManifest(path: string = VERSION_MANIFEST_PATH): VersionManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new VersionManifestError(`Cannot read version manifest ${path}: ${(error as Error).message}`);
  }
  return parseVersionManifest(raw, path);
}

/** Validates parsed manifest JSON; `origin` names it in error messages. */
export function parseVersionManifest(raw: unknown, origin = 'version manifest'): VersionManifest {
  const manifest = raw as Partial<VersionManifest> | null;
  if (manifest?.schemaVersion !== 1 || !Array.isArray(manifest.versions)) {
    throw new VersionManifestError(`${origin}: expected { "schemaVersion": 1, "versions": [...] }`);
  }
  const codes = new Set<string>();
  manifest.versions.forEach((entry, index) => {
    const where = `${origin}: versions[${index}]`;
    for (const field of ['code', 'name', 'languageName', 'licence', 'attribution', 'file', 'upstream', 'revision', 'url'] as const) {
      if (typeof entry?.[field] !== 'string' || entry[field] === '') {
        throw new VersionManifestError(`${where}.${field} must be a non-empty string`);
      }
    }
    if (!LANGS.includes(entry.lang)) throw new VersionManifestError(`${where}.lang must be one of ${LANGS.join(', ')}`);
    if (entry.format !== 'usfm' && entry.format !== 'sword') {
      throw new VersionManifestError(`${where}.format must be "usfm" or "sword"`);
    }
    if (typeof entry.year !== 'number') throw new VersionManifestError(`${where}.year must be a number`);
    if (!/^[0-9a-f]{64}$/.test(entry.sha256)) {
      throw new VersionManifestError(`${where}.sha256 must be 64 lower-case hex digits`);
    }
    // The file name is joined to a directory and written to by fetch: it must not escape it.
    if (basename(entry.file) !== entry.file || entry.file.startsWith('.')) {
      throw new VersionManifestError(`${where}.file must be a bare file name, got "${entry.file}"`);
    }
    if (codes.has(entry.code)) throw new VersionManifestError(`${where}.code "${entry.code}" appears twice`);
    codes.add(entry.code);
  });
  return manifest as VersionManifest;
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
