// The build stamp (build.json): the schema version and build hash the service checks, and each version's counts.
import type { Lang } from './books.ts';
import { BIBLE_SCHEMA_VERSION } from './layout.ts';

/** Counts of one version, as the versions list and the build stamp publish them. */
export interface VersionCounts {
  lang: Lang;
  code: string;
  books: number;
  chapters: number;
  /** Verse entries: a merged verse ("1-2") counts once. */
  verses: number;
}

/**
 * Contents of `build.json`: what the service checks before it serves the tree. The database's
 * meta table carries the same schemaVersion and buildHash, so a tree and a database of
 * different builds are never served together.
 */
export interface BuildStamp {
  schemaVersion: number;
  /** Lower-case hex SHA-256 over the sources, the builder version and the schema version (build/pipeline.ts). */
  buildHash: string;
  versions: VersionCounts[];
}

/**
 * The stamp of a build of these versions.
 *
 * @example buildStamp('b783bf…', [{ lang: 'en', code: 'KJV', books: 66, chapters: 1189, verses: 31102 }])
 */
export function buildStamp(buildHash: string, versions: readonly VersionCounts[]): BuildStamp {
  return { schemaVersion: BIBLE_SCHEMA_VERSION, buildHash, versions: [...versions] };
}
