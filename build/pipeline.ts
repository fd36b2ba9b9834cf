// The Bible build: verify sources → read each version → write tree, indexes, database, rewrites → report.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LANGS } from './contract/books.ts';
import { DEFAULT_PUBLIC_BASE_URL, parsePublicBaseUrl } from './contract/http-policy.ts';
import { BIBLE_SCHEMA_VERSION, defaultOutputs, staticPaths } from './contract/layout.ts';
import type { DownloadLink } from './contract/response-schemas.ts';
import { parseBuildStamp, type VersionCounts } from './contract/stamp.ts';
import type { SourceIssue, VersionText } from './model.ts';
import { type BuildReport, formatReport, versionReport } from './report.ts';
import { sourcePath, verifySourceFile } from './sources.ts';
import { readSwordModule } from './sword/read-module.ts';
import { readUsfmBible } from './usfm/read-usfm.ts';
import { usfmFilesFromZip } from './usfm/source-zip.ts';
import { loadVersionManifest, type VersionManifestEntry } from './version-manifest.ts';
import { compressedCopies } from './writers/compress.ts';
import { DatabaseWriter, databaseBuildHash } from './writers/database.ts';
import { DownloadWriter } from './writers/download.ts';
import { DEFAULT_ORIGIN, HEADERS_PATH, hostRewrites, NGINX_MAPS_PATH } from './writers/host-rewrites.ts';
import { StagingFolder, writeOutputs } from './writers/output-dir.ts';
import { searchDocuments } from './writers/search-index.ts';
import { SearchIndexWorker } from './writers/search-index-worker.ts';
import { treeIndex, versionCounts, versionTree } from './writers/static-tree.ts';
import type { BuiltVersion, OutputFile } from './writers/types.ts';

/** Bumped whenever the builder's output changes for the same sources; part of the build hash. */
export const BUILDER_VERSION = '2';

export interface BuildOptions {
  /** Folder holding the pinned source files. */
  sourcesDir: string;
  /** The public folder (the static tree goes to its api/v1/bible, bible-search, and rewrite files). */
  publicDir?: string;
  databasePath?: string;
  reportPath?: string;
  /** Origin of the service that `_redirects` proxies ranges and search to. */
  origin?: string;
  /**
   * The service's public address, base of the problem `type` URIs in the host's error files
   * (`--public-url`, else PUBLIC_BASE_URL, else DEFAULT_PUBLIC_BASE_URL); the service's
   * PUBLIC_BASE_URL should be the same, so both name the same docs page.
   */
  publicUrl?: string;
  /** Rebuild even when the existing output carries the same build hash. */
  force?: boolean;
  /** The versions to build; the project's manifest unless given (tests pass their own). */
  versions?: readonly VersionManifestEntry[];
  /** Reads one source; the SWORD and USFM readers unless given (tests pass synthetic ones). */
  readVersion?: (entry: VersionManifestEntry, bytes: Uint8Array) => VersionText;
  /** Told about each step as it starts. */
  onProgress?: (message: string) => void;
}

export type BuildResult =
  | { status: 'up-to-date'; buildHash: string; totalMs: number }
  | { status: 'built'; buildHash: string; report: BuildReport; summary: string };

/** Entries the static host swaps as a whole on each build, relative to the public folder. */
export const REPLACED_ENTRIES = [
  'api/v1/bible',
  'bible-search',
  staticPaths.nginx,
  NGINX_MAPS_PATH,
  staticPaths.redirects,
  HEADERS_PATH,
] as const;

/**
 * Runs the whole build. When the static tree's stamp and the database's meta both carry the
 * build hash of the current sources, it stops after hashing (unless `force`).
 *
 * @example const result = await buildBible({ sourcesDir: process.env.BIBLE_SOURCES_DIR! });
 */
export async function buildBible(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const publicDir = options.publicDir ?? defaultOutputs.publicDir;
  const databasePath = options.databasePath ?? defaultOutputs.database;
  const reportPath = options.reportPath ?? defaultOutputs.report;
  const entries = orderedEntries(options.versions ?? loadVersionManifest().versions);
  const progress = options.onProgress ?? (() => {});
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, work: () => T | Promise<T>): Promise<T> => {
    progress(step);
    const at = performance.now();
    try {
      return await work();
    } finally {
      timings[step] = Math.round(performance.now() - at);
    }
  };

  const hashes = await timed('verify sources', () =>
    Promise.all(entries.map(async (entry) => (await verifySourceFile(sourcePath(options.sourcesDir, entry), entry)).sha256)),
  );
  const origin = options.origin ?? DEFAULT_ORIGIN;
  const publicUrl = parsePublicBaseUrl(options.publicUrl ?? DEFAULT_PUBLIC_BASE_URL);
  // The origin is written into _redirects and the public URL into the error files, so another one is another build.
  const buildHash = computeBuildHash([
    ...entries.map((entry, index) => `${entry.code}:${hashes[index]}`),
    `origin:${origin}`,
    `publicUrl:${publicUrl}`,
  ]);
  if (!options.force && (await isUpToDate(publicDir, databasePath, buildHash))) {
    return { status: 'up-to-date', buildHash, totalMs: Math.round(performance.now() - started) };
  }

  const readVersion = options.readVersion ?? readSource;
  const staging = await StagingFolder.open(publicDir, REPLACED_ENTRIES);
  const database = await DatabaseWriter.open(databasePath, buildHash);
  // Search indexes (the longest step) on a worker thread, a version behind the main thread's reading and writing.
  const search = new SearchIndexWorker(staging.dir, buildHash);
  const sizes = { files: 0, bytes: 0, compressedFiles: 0, bytesBrotli: 0, bytesGzip: 0, searchIndexBytes: 0 };
  // `precompressed`: its .br and .gz come separately (the downloads are compressed off the main thread).
  const write = (file: OutputFile, precompressed = false): void => {
    const before = staging.stats.bytes;
    staging.write(file);
    const bytes = staging.stats.bytes - before;
    if (file.path.endsWith('.br')) sizes.bytesBrotli += bytes;
    else if (file.path.endsWith('.gz')) sizes.bytesGzip += bytes;
    else {
      sizes.files++;
      sizes.bytes += bytes;
      if (!precompressed) for (const copy of compressedCopies(file)) write(copy);
      return;
    }
    sizes.compressedFiles++;
  };
  const downloads = new DownloadWriter((file) => write(file, true));
  const built: { info: VersionManifestEntry; counts: VersionCounts; download: DownloadLink; issues: SourceIssue[] }[] = [];
  let databaseBytes = 0;
  try {
    // One version at a time: read it, write its files and rows, hand its verses to the search worker, let it go.
    for (const entry of entries) {
      const bytes = await readFile(sourcePath(options.sourcesDir, entry));
      const version: BuiltVersion = { info: entry, text: await timed(`read ${entry.code}`, () => readVersion(entry, bytes)) };
      search.add(entry, searchDocuments(version.text));
      await timed(`tree ${entry.code}`, () => {
        for (const file of versionTree(version)) write(file);
      });
      await timed(`database ${entry.code}`, () => database.addVersion(version));
      const download = await timed(`download ${entry.code}`, () => downloads.add(version));
      built.push({ info: entry, counts: versionCounts(version), download, issues: version.text.issues });
    }
    for (const file of treeIndex(built, buildHash)) write(file);
    for (const file of hostRewrites({ origin, publicBaseUrl: publicUrl, langs: built.map((v) => v.info.lang) })) write(file);
    databaseBytes = (await timed('database index', () => database.finish())).bytes;
    const searchFiles = await timed('search indexes (wait)', () => search.finish());
    for (const file of searchFiles) {
      if (file.path.endsWith('.br')) sizes.bytesBrotli += file.bytes;
      else if (file.path.endsWith('.gz')) sizes.bytesGzip += file.bytes;
      else {
        sizes.files++;
        sizes.bytes += file.bytes;
        sizes.searchIndexBytes += file.bytes;
        continue;
      }
      sizes.compressedFiles++;
    }
    await timed('downloads (wait)', () => downloads.finish());
    await timed('swap in', () => staging.commit());
  } catch (error) {
    await downloads.abort();
    await Promise.all([search.abort(), database.discard(), staging.discard()]);
    throw error;
  }

  const report: BuildReport = {
    buildHash,
    builtAt: new Date().toISOString(),
    versions: built.map((version) => versionReport(version.counts, version.issues)),
    outputs: { ...sizes, databaseBytes },
    timings,
    totalMs: Math.round(performance.now() - started),
  };
  await writeOutputs(
    dirname(reportPath),
    [{ path: basename(reportPath), content: `${JSON.stringify(report, null, 2)}\n` }],
    [basename(reportPath)],
  );
  return { status: 'built', buildHash, report, summary: formatReport(report) };
}

/**
 * sha256 over the sources' hashes (and any other input line, such as the proxy origin), the
 * builder version and the schema version: the same inputs built by the same builder give the
 * same hash, so a rebuild can be skipped.
 */
export function computeBuildHash(sourceHashes: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`builder ${BUILDER_VERSION}\nschema ${BIBLE_SCHEMA_VERSION}\n`);
  for (const line of sourceHashes) hash.update(`${line}\n`);
  return hash.digest('hex');
}

/** True when both the static tree's stamp and the database carry `buildHash`. */
export async function isUpToDate(publicDir: string, databasePath: string, buildHash: string): Promise<boolean> {
  try {
    const stamp = parseBuildStamp(await readFile(join(publicDir, staticPaths.stamp), 'utf8'));
    if (stamp.buildHash !== buildHash) return false;
    await stat(databasePath);
  } catch {
    return false;
  }
  return databaseBuildHash(databasePath) === buildHash;
}

/** The reader for the entry's format. */
export function readSource(entry: VersionManifestEntry, bytes: Uint8Array): VersionText {
  if (entry.format === 'sword') return readSwordModule(bytes, entry.code).version;
  const { code, books, issues } = readUsfmBible(usfmFilesFromZip(bytes), entry.code);
  return { code, books, issues };
}

/** Versions in the spec's language order (fr, en, es, pt, nl), whatever the manifest's order. */
function orderedEntries(entries: readonly VersionManifestEntry[]): VersionManifestEntry[] {
  return [...entries].sort((a, b) => LANGS.indexOf(a.lang) - LANGS.indexOf(b.lang));
}
