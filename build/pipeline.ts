// The Bible build: verify sources → read each version → write tree, indexes, database, rewrites → report.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LANGS } from './contract/books.ts';
import { DEFAULT_PUBLIC_BASE_URL, parsePublicBaseUrl } from './contract/http-policy.ts';
import { BIBLE_SCHEMA_VERSION, defaultOutputs, staticPaths } from './contract/layout.ts';
import { parseBuildStamp } from './contract/stamp.ts';
import type { VersionText } from './model.ts';
import { type BuildReport, formatReport, versionReport } from './report.ts';
import { sourcePath, verifySourceFile } from './sources.ts';
import { readSwordModule } from './sword/read-module.ts';
import { readUsfmBible } from './usfm/read-usfm.ts';
import { usfmFilesFromZip } from './usfm/source-zip.ts';
import { loadVersionManifest, type VersionManifestEntry } from './version-manifest.ts';
import { precompress } from './writers/compress.ts';
import { databaseBuildHash, writeDatabase } from './writers/database.ts';
import { DEFAULT_ORIGIN, HEADERS_PATH, hostRewrites, NGINX_MAPS_PATH } from './writers/host-rewrites.ts';
import { writeOutputs } from './writers/output-dir.ts';
import { searchIndexesInWorkers } from './writers/search-index-worker.ts';
import { staticTree, versionCounts } from './writers/static-tree.ts';
import type { BuiltVersion, OutputFile } from './writers/types.ts';

/** Bumped whenever the builder's output changes for the same sources; part of the build hash. */
export const BUILDER_VERSION = '1';

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
  const versions: BuiltVersion[] = [];
  for (const entry of entries) {
    const bytes = await readFile(sourcePath(options.sourcesDir, entry));
    const text = await timed(`read ${entry.code}`, () => readVersion(entry, bytes));
    versions.push({ info: entry, text });
  }

  const tree = await timed('static tree', () => [
    ...staticTree(versions, buildHash),
    ...hostRewrites({ origin, publicBaseUrl: publicUrl, langs: versions.map((v) => v.info.lang) }),
  ]);
  // Search indexes (and their compressed copies) on worker threads, while the main thread
  // writes the database and compresses the tree.
  progress('search indexes (workers)');
  const searchStarted = performance.now();
  const searchBuilt = searchIndexesInWorkers(versions, buildHash).then((output) => {
    timings['search indexes (workers)'] = Math.round(performance.now() - searchStarted);
    return output;
  });
  searchBuilt.catch(() => {});
  const database = await timed('database', () => writeDatabase(databasePath, versions, buildHash));
  const treeCompressed = await timed('compress tree', () => precompress(tree));
  const { indexes: search, compressed: searchCompressed } = await timed('search indexes (wait)', () => searchBuilt);
  const compressed = [...treeCompressed, ...searchCompressed];
  const files = [...tree, ...search];
  await timed('write tree', () => writeOutputs(publicDir, [...files, ...compressed], REPLACED_ENTRIES));

  const report: BuildReport = {
    buildHash,
    builtAt: new Date().toISOString(),
    versions: versions.map((version) => versionReport(versionCounts(version), version.text.issues)),
    outputs: {
      files: files.length,
      bytes: totalBytes(files),
      compressedFiles: compressed.length,
      bytesBrotli: totalBytes(compressed.filter((file) => file.path.endsWith('.br'))),
      bytesGzip: totalBytes(compressed.filter((file) => file.path.endsWith('.gz'))),
      searchIndexBytes: totalBytes(search),
      databaseBytes: database.bytes,
    },
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

function totalBytes(files: readonly OutputFile[]): number {
  return files.reduce(
    (sum, file) => sum + (typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength),
    0,
  );
}
