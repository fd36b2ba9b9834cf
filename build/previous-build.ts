// What the previous build left that an incremental build may reuse: per version, its hash, counts and report entry, when every output agrees.
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { staticPaths } from './contract/layout.ts';
import { parseBuildStamp } from './contract/stamp.ts';
import type { VersionReport } from './report.ts';
import { databaseBuildHash } from './writers/database.ts';
import { searchIndexHead } from './writers/search-index.ts';

/** The previous build as far as reuse goes. */
export interface PreviousBuild {
  /** The version's report entry when its outputs can be reused as they are: same hash, every output of it present and of that build. */
  version(code: string, versionHash: string): VersionReport | undefined;
}

/** Nothing to reuse (a forced build, or no previous build). */
export const noPreviousBuild: PreviousBuild = { version: () => undefined };

/**
 * Reads the live build's stamp, database meta and report. A version may be reused only when all
 * three belong to the same build (a build killed while swapping in, or a report from another
 * build, rules reuse out), the stamp lists it with the same version hash, and its search index
 * begins with that hash (the index folder is swapped apart from the tree).
 *
 * @example (await previousBuild('public', 'var/bible.sqlite', 'var/bible-report.json')).version('KJV', hash)
 */
export async function previousBuild(publicDir: string, databasePath: string, reportPath: string): Promise<PreviousBuild> {
  let stampHash: string;
  let stampVersions: Map<string, { lang: string; versionHash: string }>;
  let reported: Map<string, VersionReport>;
  try {
    const stamp = parseBuildStamp(await readFile(join(publicDir, staticPaths.stamp), 'utf8'));
    stampHash = stamp.buildHash;
    stampVersions = new Map(stamp.versions.map((version) => [version.code, version]));
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as { buildHash?: unknown; versions?: unknown };
    if (report.buildHash !== stampHash || !Array.isArray(report.versions)) return noPreviousBuild;
    reported = new Map((report.versions as VersionReport[]).map((version) => [version.code, version]));
  } catch {
    return noPreviousBuild;
  }
  if (databaseBuildHash(databasePath) !== stampHash) return noPreviousBuild;
  return {
    version(code, versionHash) {
      const listed = stampVersions.get(code);
      const entry = reported.get(code);
      if (listed?.versionHash !== versionHash || entry?.versionHash !== versionHash) return undefined;
      const index = join(publicDir, ...staticPaths.searchIndex(listed.lang).split('/'));
      return startsWith(index, searchIndexHead(versionHash)) ? entry : undefined;
    },
  };
}

/** Whether the file begins with `text` (false when it cannot be read). */
function startsWith(path: string, text: string): boolean {
  const expected = Buffer.from(text);
  const actual = Buffer.alloc(expected.length);
  try {
    const fd = openSync(path, 'r');
    try {
      return readSync(fd, actual, 0, actual.length, 0) === actual.length && actual.equals(expected);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
