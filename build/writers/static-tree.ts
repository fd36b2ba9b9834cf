// Static JSON tree writer: versions, books per language, one file per chapter, the downloads, and the build stamp.
import { staticPaths } from '../contract/layout.ts';
import type { DownloadLink } from '../contract/response-schemas.ts';
import { versionsResponse } from '../contract/responses.ts';
import { buildStamp, type VersionCounts } from '../contract/stamp.ts';
import { downloadFile } from './download.ts';
import type { BuiltVersion, OutputFile, VersionInfo } from './types.ts';
import { versionBooks, versionChapters, versionCounts } from './version-bodies.ts';

// Where the pipeline and the search-index writer have always found them.
export { canonicalBooks, versionCounts } from './version-bodies.ts';

/**
 * Turns the built versions into the static tree: every file is a response body of the API,
 * serialised deterministically (fixed key order, no timestamps) so ETags survive rebuilds.
 * Books the canon does not know (apocrypha) are left out. Each version's download is made here
 * too (the versions list names its size and hash); the streaming build makes it in its tree thread.
 *
 * `versionHash` gives each version's hash for the stamp (build/build-hashes.ts).
 *
 * @example staticTree(versions, hash, (info) => hashes[info.code]).find((f) => f.path === 'api/v1/bible/fr/GEN/1.json')
 */
export function staticTree(versions: readonly BuiltVersion[], buildHash: string, versionHash: (info: VersionInfo) => string): OutputFile[] {
  const downloads = versions.map((version) => downloadFile(version));
  const index = treeIndex(
    versions.map((version, i) => ({
      info: version.info,
      counts: versionCounts(version),
      download: downloads[i]!.link,
      versionHash: versionHash(version.info),
    })),
    buildHash,
  );
  return [...index, ...versions.flatMap((version, i) => [...versionTree(version), downloads[i]!.file])];
}

/** The files that describe the whole build: the stamp and the versions list (written last by the streaming build). */
export function treeIndex(
  versions: readonly { info: VersionInfo; counts: VersionCounts; download: DownloadLink; versionHash: string }[],
  buildHash: string,
): OutputFile[] {
  return [
    json(
      staticPaths.stamp,
      buildStamp(
        buildHash,
        versions.map(({ counts, download, versionHash }) => ({ ...counts, download, versionHash })),
      ),
    ),
    json(staticPaths.versions, versionsResponse(versions)),
  ];
}

/**
 * The files of one version, one at a time (books list, then every chapter), so the build can
 * compress and write each before the next is made.
 *
 * @example for (const file of versionTree(version)) staging.write(file);
 */
export function* versionTree(version: BuiltVersion): Generator<OutputFile> {
  yield json(staticPaths.books(version.info.lang), versionBooks(version));
  for (const { path, body } of versionChapters(version)) yield json(path, body);
}

function json(path: string, body: unknown): OutputFile {
  return { path, content: JSON.stringify(body) };
}
