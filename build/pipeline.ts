// The Bible build: verify sources → read each version → write tree, indexes, database, rewrites → report.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { buildHash as computeBuildHash, versionHash } from './build-hashes.ts';
import { LANGS } from './contract/books.ts';
import { DEFAULT_PUBLIC_BASE_URL, parsePublicBaseUrl } from './contract/http-policy.ts';
import { defaultOutputs, staticPaths } from './contract/layout.ts';
import { parseBuildStamp } from './contract/stamp.ts';
import type { VersionText } from './model.ts';
import { noPreviousBuild, previousBuild } from './previous-build.ts';
import { type BuildReport, formatReport, type VersionReport, versionCountsOf, versionReport } from './report.ts';
import { sourcePath, verifySourceFile } from './sources.ts';
import { readSwordModule } from './sword/read-module.ts';
import { readUsfmBible } from './usfm/read-usfm.ts';
import { usfmFilesFromZip } from './usfm/source-zip.ts';
import { loadVersionManifest, type VersionManifestEntry } from './version-manifest.ts';
import { compressedCopies } from './writers/compress.ts';
import { databaseBuildHash } from './writers/database.ts';
import { DEFAULT_ORIGIN, HEADERS_PATH, hostRewrites, NGINX_MAPS_PATH } from './writers/host-rewrites.ts';
import { StagingFolder, writeOutputs } from './writers/output-dir.ts';
import { treeIndex, versionCounts, versionTree } from './writers/static-tree.ts';
import type { BuiltVersion, OutputFile } from './writers/types.ts';
import { VersionWorker } from './writers/version-worker.ts';

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
  /** Rebuild every version, even when the existing output carries the same hashes. */
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
 * build hash of the current inputs, it stops after hashing (unless `force`). Otherwise each
 * version whose own hash (build/build-hashes.ts) is the one the previous build recorded is
 * reused: its files hard-linked from the live tree, its rows copied from the live database, its
 * report entry carried over; the others are read and written. Either way the new tree is staged
 * beside the live one and swapped in whole, so a killed build leaves the previous one intact.
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

  // Each file is checked against its pinned SHA-256, which the version hashes then stand for.
  await timed('verify sources', () => Promise.all(entries.map((entry) => verifySourceFile(sourcePath(options.sourcesDir, entry), entry))));
  const origin = options.origin ?? DEFAULT_ORIGIN;
  const publicUrl = parsePublicBaseUrl(options.publicUrl ?? DEFAULT_PUBLIC_BASE_URL);
  const versionHashes = entries.map(versionHash);
  // The origin is written into _redirects and the public URL into the error files, so another one is another build.
  const buildHash = computeBuildHash(versionHashes, [`origin:${origin}`, `publicUrl:${publicUrl}`]);
  if (!options.force && (await isUpToDate(publicDir, databasePath, buildHash))) {
    return { status: 'up-to-date', buildHash, totalMs: Math.round(performance.now() - started) };
  }
  const previous = options.force ? noPreviousBuild : await previousBuild(publicDir, databasePath, reportPath);

  const readVersion = options.readVersion ?? readSource;
  const staging = await StagingFolder.open(publicDir, REPLACED_ENTRIES);
  // Database rows and search indexes on a worker thread, a version behind the main thread's reading and static files.
  const writer = new VersionWorker(staging.dir, databasePath, buildHash);
  const sizes = { files: 0, bytes: 0, compressedFiles: 0, bytesBrotli: 0, bytesGzip: 0, searchIndexBytes: 0 };
  const count = (file: { path: string; bytes: number }): void => {
    if (file.path.endsWith('.br')) sizes.bytesBrotli += file.bytes;
    else if (file.path.endsWith('.gz')) sizes.bytesGzip += file.bytes;
    else {
      sizes.files++;
      sizes.bytes += file.bytes;
      if (file.path.startsWith(`${dirname(staticPaths.searchIndex('en'))}/`)) sizes.searchIndexBytes += file.bytes;
      return;
    }
    sizes.compressedFiles++;
  };
  const write = (file: OutputFile): void => {
    const before = staging.stats.bytes;
    staging.write(file);
    count({ path: file.path, bytes: staging.stats.bytes - before });
    for (const copy of compressedCopies(file)) write(copy);
  };
  const built: VersionReport[] = [];
  let databaseBytes = 0;
  try {
    // One version at a time: read it, hand it to the writer thread, write its files, let it go.
    for (const [index, entry] of entries.entries()) {
      const hash = versionHashes[index];
      const reusable = previous.version(entry.code, hash);
      if (reusable) {
        await timed(`reuse ${entry.code}`, async () => {
          for (const path of [staticPaths.versionFolder(entry.lang), ...searchIndexFiles(entry.lang)]) {
            for (const file of staging.reuse(path)) count(file);
          }
          await writer.copy(entry.lang, databasePath);
        });
        built.push({ ...reusable, reused: true });
        continue;
      }
      const bytes = await readFile(sourcePath(options.sourcesDir, entry));
      const version: BuiltVersion = { info: entry, text: await timed(`read ${entry.code}`, () => readVersion(entry, bytes)) };
      await writer.build(version, hash);
      await timed(`tree ${entry.code}`, () => {
        for (const file of versionTree(version)) write(file);
      });
      built.push({ ...versionReport(versionCounts(version), version.text.issues), versionHash: hash, reused: false });
    }
    const infoOf = new Map(entries.map((entry) => [entry.code, entry]));
    const versions = built.map((version) => ({
      info: infoOf.get(version.code)!,
      counts: versionCountsOf(version),
      versionHash: version.versionHash,
    }));
    for (const file of treeIndex(versions, buildHash)) write(file);
    for (const file of hostRewrites({ origin, publicBaseUrl: publicUrl, langs: built.map((v) => v.lang) })) write(file);
    const written = await timed('database and search indexes (wait)', () => writer.finish());
    for (const file of written.files) count(file);
    databaseBytes = written.databaseBytes;
    await timed('swap in', () => staging.commit());
  } catch (error) {
    await Promise.all([writer.abort(), staging.discard()]);
    throw error;
  }

  const report: BuildReport = {
    buildHash,
    builtAt: new Date().toISOString(),
    versions: built,
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

/** A language's search index and its compressed copies. */
function searchIndexFiles(lang: string): string[] {
  const path = staticPaths.searchIndex(lang);
  return [path, `${path}.br`, `${path}.gz`];
}

/** Versions in the spec's language order (fr, en, es, pt, nl), whatever the manifest's order. */
function orderedEntries(entries: readonly VersionManifestEntry[]): VersionManifestEntry[] {
  return [...entries].sort((a, b) => LANGS.indexOf(a.lang) - LANGS.indexOf(b.lang));
}
