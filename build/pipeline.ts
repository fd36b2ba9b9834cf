// The Bible build: verify sources → read each version → write tree, indexes, database, rewrites → report.
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadVersificationMapping, rulesFor, type VersificationMapping, type VersionMappingRules } from './alignment/mapping-data.ts';
import { PivotNumbering } from './alignment/pivot-numbering.ts';
import { type DayPassage, dayPassages, loadVersesOfTheDay, type VersesOfTheDay } from './alignment/verses-of-the-day.ts';
import { buildHash as computeBuildHash, versionHash } from './build-hashes.ts';
import { LANGS } from './contract/books.ts';
import { DEFAULT_PUBLIC_BASE_URL, parsePublicBaseUrl } from './contract/http-policy.ts';
import { defaultOutputs, staticPaths } from './contract/layout.ts';
import type { VerseOfTheDayResponse } from './contract/response-schemas.ts';
import { parseBuildStamp } from './contract/stamp.ts';
import type { VersionText } from './model.ts';
import { noPreviousBuild, previousBuild } from './previous-build.ts';
import { type BuildReport, countOutput, emptyOutputSizes, formatReport, type VersionReport, versionCountsOf } from './report.ts';
import { sourcePath, verifySourceFile } from './sources.ts';
import { loadVersionManifest, type VersionManifestEntry } from './version-manifest.ts';
import { compressedCopies } from './writers/compress.ts';
import { databaseBuildHash } from './writers/database.ts';
import {
  DEFAULT_ORIGIN,
  HOST_ROOT_FILES,
  type HostTarget,
  hostOutputs,
  hostRewrites,
  placeholderWarnings,
} from './writers/host-rewrites.ts';
import { StagingFolder, writeOutputs } from './writers/output-dir.ts';
import { treeIndex } from './writers/static-tree.ts';
import type { OutputFile } from './writers/types.ts';
import { verseOfTheDayFeed } from './writers/verse-of-the-day-feed.ts';
import type { TreeJob } from './writers/version-messages.ts';
import { type TreeResult, VersionThreads } from './writers/version-threads.ts';

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
  /**
   * The hosts the folder is for (`--host`): `all` (the default) is the folder the service and nginx
   * serve, with every host's files and the `.br` and `.gz` copies; a single host gets only its own
   * files, and no copies where it compresses itself (host-rewrites.ts, HOST_FILES). The data, and
   * so the build hash the database shares with the tree, is the same for every target.
   */
  host?: HostTarget;
  /** Rebuild every version, even when the existing output carries the same hashes. */
  force?: boolean;
  /** The versions to build; the project's manifest unless given (tests pass their own). */
  versions?: readonly VersionManifestEntry[];
  /** Reads one source; the SWORD and USFM readers unless given (tests pass synthetic ones). */
  readVersion?: (entry: VersionManifestEntry, bytes: Uint8Array) => VersionText;
  /** How each version's verses align with the shared numbering; data/versification-mapping.json unless given (tests pass their own). */
  versification?: VersificationMapping;
  /** The passage of each day of the year; data/verse-of-the-day.json unless given. */
  versesOfTheDay?: VersesOfTheDay;
  /** Told about each step as it starts. */
  onProgress?: (message: string) => void;
}

export type BuildResult = (
  | { status: 'up-to-date'; buildHash: string; totalMs: number }
  | { status: 'built'; buildHash: string; report: BuildReport; summary: string }
) & {
  /** The placeholders the files for static hosts fell back to (no origin, no public URL), one line each (placeholderWarnings). */
  warnings: string[];
};

/** The references widget (public/widget/bible-refs.js), published with the tree so a static host serves it beside the files it reads. */
const WIDGET_SOURCE = fileURLToPath(new URL('../public/widget/bible-refs.js', import.meta.url));
export const WIDGET_PATH = 'widget/bible-refs.js';

/** Entries the static host swaps as a whole on each build, relative to the public folder. */
export const REPLACED_ENTRIES: readonly string[] = ['api/v1/bible', 'bible-search', WIDGET_PATH, ...HOST_ROOT_FILES];

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
  // Every version needs its mapping entry, and every day's passage must be one of the pivot's: both are checked before any work.
  const mapping = options.versification ?? loadVersificationMapping();
  const versesOfTheDay = options.versesOfTheDay ?? loadVersesOfTheDay();
  const days = dayPassages(versesOfTheDay, new PivotNumbering(mapping.pivot));
  const alignmentRules = entries.map((entry) => rulesFor(mapping, entry.code));
  // A version's verse map and days are written with its other files, so its hash covers its mapping and the days.
  const versionHashes = entries.map((entry, index) => versionHash(entry, alignmentInputs(alignmentRules[index]!, versesOfTheDay)));
  // The origin is written into _redirects and the public URL into the error files, so another one is another build.
  const buildHash = computeBuildHash(versionHashes, [`origin:${origin}`, `publicUrl:${publicUrl}`]);
  const warnings = placeholderWarnings(options);
  const target = options.host ?? 'all';
  const { precompressed } = hostOutputs(target);
  if (!options.force && (await isUpToDate(publicDir, databasePath, buildHash, target))) {
    return { status: 'up-to-date', buildHash, totalMs: Math.round(performance.now() - started), warnings };
  }
  // A version's files are reused as they are, copies included: only from a tree that has copies exactly when this one wants them.
  const previous =
    options.force || (await hasCompressedCopies(publicDir)) !== precompressed
      ? noPreviousBuild
      : await previousBuild(publicDir, databasePath, reportPath);

  const staging = await StagingFolder.open(publicDir, REPLACED_ENTRIES);
  // The versions are read and written on two worker threads; this thread stages what is reused and what is shared.
  const threads = await VersionThreads.start(staging.dir, databasePath, buildHash, progress, precompressed).catch(async (error) => {
    await staging.discard();
    throw error;
  });
  const sizes = emptyOutputSizes();
  const write = (file: OutputFile): void => {
    const before = staging.stats.bytes;
    staging.write(file);
    countOutput(sizes, { path: file.path, bytes: staging.stats.bytes - before });
    if (precompressed) for (const copy of compressedCopies(file)) write(copy);
  };
  const built: VersionReport[] = [];
  try {
    const versions: (VersionReport | { pending: Promise<TreeResult>; versionHash: string })[] = [];
    for (const index of await writingOrder(entries, options.sourcesDir)) {
      const entry = entries[index]!;
      const hash = versionHashes[index];
      const reusable = previous.version(entry.code, hash);
      if (reusable) {
        await timed(`reuse ${entry.code}`, () => {
          const paths = [
            staticPaths.versionFolder(entry.lang),
            staticPaths.verseOfTheDayFolder(entry.lang),
            ...searchIndexFiles(entry.lang, precompressed),
          ];
          for (const path of paths) {
            for (const file of staging.reuse(path)) countOutput(sizes, file);
          }
          threads.copy(entry.lang, databasePath);
        });
        versions.push({ ...reusable, reused: true });
        continue;
      }
      const job: TreeJob = {
        entry,
        sourcePath: sourcePath(options.sourcesDir, entry),
        alignment: { rules: alignmentRules[index]!, days },
      };
      const readVersion = options.readVersion;
      if (readVersion) job.text = await timed(`read ${entry.code}`, async () => readVersion(entry, await readFile(job.sourcePath)));
      versions.push({ pending: threads.build(job, entry, hash), versionHash: hash });
    }
    for (const version of versions) {
      if (!('pending' in version)) {
        built.push(version);
        continue;
      }
      const result = await version.pending;
      for (const file of result.files) countOutput(sizes, file);
      built.push({ ...result.report, versionHash: version.versionHash, reused: false });
    }
    await threads.treeDone();
    // Listed, stamped and reported in the spec's order, whatever the order they were written in.
    built.sort((a, b) => LANGS.indexOf(a.lang) - LANGS.indexOf(b.lang));
    const infoOf = new Map(entries.map((entry) => [entry.code, entry]));
    const listed = built.map((version) => ({
      info: infoOf.get(version.code)!,
      counts: versionCountsOf(version),
      download: version.download,
      versionHash: version.versionHash,
    }));
    for (const file of treeIndex(listed, buildHash)) write(file);
    // The feeds carry the public URL, so they are made anew from the staged days of every version, built or reused.
    await timed('verse of the day feeds', () => {
      for (const { info } of listed) write(verseOfTheDayFeed(info, stagedDays(staging.dir, info.lang, days), publicUrl));
    });
    for (const file of hostRewrites({ origin, publicBaseUrl: publicUrl, langs: built.map((v) => v.lang), target })) write(file);
    write({ path: WIDGET_PATH, content: readFileSync(WIDGET_SOURCE, 'utf8') });
    const written = await timed('database and search indexes (wait)', () => threads.finish());
    for (const file of written.files) countOutput(sizes, file);
    sizes.databaseBytes = written.databaseBytes;
    Object.assign(timings, threads.timings);
    await timed('swap in', () => staging.commit());
  } catch (error) {
    await Promise.all([threads.abort(), staging.discard()]);
    throw error;
  }

  const report: BuildReport = {
    buildHash,
    builtAt: new Date().toISOString(),
    versions: built,
    outputs: sizes,
    timings,
    totalMs: Math.round(performance.now() - started),
  };
  await writeOutputs(
    dirname(reportPath),
    [{ path: basename(reportPath), content: `${JSON.stringify(report, null, 2)}\n` }],
    [basename(reportPath)],
  );
  return { status: 'built', buildHash, report, summary: formatReport(report), warnings };
}

/**
 * True when both the static tree's stamp and the database carry `buildHash`, and the folder is one
 * for `target`: the root files of its hosts and no others, the tree's copies exactly when it wants them.
 */
export async function isUpToDate(publicDir: string, databasePath: string, buildHash: string, target: HostTarget = 'all'): Promise<boolean> {
  try {
    const stamp = parseBuildStamp(await readFile(join(publicDir, staticPaths.stamp), 'utf8'));
    if (stamp.buildHash !== buildHash) return false;
    await stat(databasePath);
  } catch {
    return false;
  }
  const { rootFiles, precompressed } = hostOutputs(target);
  for (const file of HOST_ROOT_FILES) {
    if ((await exists(join(publicDir, file))) !== rootFiles.includes(file)) return false;
  }
  if ((await hasCompressedCopies(publicDir)) !== precompressed) return false;
  return databaseBuildHash(databasePath) === buildHash;
}

/** Whether the live tree was written with its `.br` and `.gz` copies (its versions list has them, as every file of it then does). */
async function hasCompressedCopies(publicDir: string): Promise<boolean> {
  return exists(join(publicDir, `${staticPaths.versions}.br`));
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** What a version's verse map and days are made from, besides its source: its mapping entry, the pivot, and the days' passages. */
function alignmentInputs(rules: VersionMappingRules, versesOfTheDay: VersesOfTheDay): string[] {
  return [
    `mapping ${JSON.stringify({ pivot: rules.pivot, licence: rules.licence, attribution: rules.attribution, mapping: rules.mapping })}`,
    `days ${JSON.stringify(versesOfTheDay.days)}`,
  ];
}

/** The verse of the day files of one language, as staged (written by the tree thread, or reused). */
function stagedDays(dir: string, lang: string, days: readonly DayPassage[]): VerseOfTheDayResponse[] {
  return days.map(({ day }) => JSON.parse(readFileSync(join(dir, ...staticPaths.verseOfTheDay(lang, day).split('/')), 'utf8')));
}

/** A language's search index, and its compressed copies when the tree has them. */
function searchIndexFiles(lang: string, precompressed: boolean): string[] {
  const path = staticPaths.searchIndex(lang);
  return precompressed ? [path, `${path}.br`, `${path}.gz`] : [path];
}

/**
 * The order the threads write the versions in (indexes into `entries`): the smallest source first,
 * then the others in the spec's order. The index thread waits for the tree thread to read a version
 * before it has anything to do, so the first read leaves a core idle: SpaRV (1.5 MB) is read in
 * 0.3 s, LSG (1.8 MB of USFM) in about 1 s. The lightest version today (STV) stays last, so little is left
 * for one thread alone at the end. The outputs (versions list, stamp, report) keep the spec's order;
 * only the database's blocks of verse ids follow this one (the service finds a language's block by
 * its ids, never by its place).
 */
async function writingOrder(entries: readonly VersionManifestEntry[], sourcesDir: string): Promise<number[]> {
  const sizes = await Promise.all(entries.map(async (entry) => (await stat(sourcePath(sourcesDir, entry))).size));
  const first = sizes.indexOf(Math.min(...sizes));
  return [first, ...[...entries.keys()].filter((index) => index !== first)];
}

/** Versions in the spec's language order (fr, en, es, pt, nl), whatever the manifest's order. */
function orderedEntries(entries: readonly VersionManifestEntry[]): VersionManifestEntry[] {
  return [...entries].sort((a, b) => LANGS.indexOf(a.lang) - LANGS.indexOf(b.lang));
}
