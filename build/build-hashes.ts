// What the build's outputs are made from, as hashes: one per version (its files, index and rows), one for the whole build.
import { createHash } from 'node:crypto';
import { BIBLE_SCHEMA_VERSION } from './contract/layout.ts';
import type { VersionManifestEntry } from './version-manifest.ts';

/** Bumped whenever the builder's output changes for the same sources; part of every hash. */
export const BUILDER_VERSION = '7';

/**
 * The hash of one version's inputs: the builder and schema versions, its whole manifest entry
 * (metadata published in its files, format, and the SHA-256 of the source, which the build has
 * checked against the file) and `otherInputs`, the other data its files are made from (its
 * versification mapping and the days of the year: the pipeline's `alignmentInputs`). Its chapter
 * files, books list, verse map, days, search index and database rows are a function of these alone,
 * so an incremental build reuses them while the hash stays the same.
 *
 * @example versionHash(entry, [`mapping …`, `days …`]) // '5e0c…' (64 hex digits)
 */
export function versionHash(entry: VersionManifestEntry, otherInputs: readonly string[] = []): string {
  const fields = Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return sha256Lines([`builder ${BUILDER_VERSION}`, `schema ${BIBLE_SCHEMA_VERSION}`, `entry ${JSON.stringify(fields)}`, ...otherInputs]);
}

/**
 * The hash of the whole build: every version's hash, in build order, and the other inputs of the
 * shared files (the proxy origin written into `_redirects`, the public URL in the error files).
 * The stamp and the database carry it; the service serves a tree and a database only when they agree.
 *
 * @example buildHash(entries.map(versionHash), ['origin:https://api.example.org', 'publicUrl:https://api.example.org'])
 */
export function buildHash(versionHashes: readonly string[], otherInputs: readonly string[]): string {
  return sha256Lines([
    `builder ${BUILDER_VERSION}`,
    `schema ${BIBLE_SCHEMA_VERSION}`,
    ...versionHashes.map((hash) => `version ${hash}`),
    ...otherInputs,
  ]);
}

function sha256Lines(lines: readonly string[]): string {
  const hash = createHash('sha256');
  for (const line of lines) hash.update(`${line}\n`);
  return hash.digest('hex');
}
