// The build stamp (build.json): the schema version and build hash the service checks, and each version's counts.
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { BIBLE_SCHEMA_VERSION } from './layout.ts';
import { DownloadLinkSchema, LangSchema } from './response-schemas.ts';
import { firstSchemaError } from './schema-errors.ts';

/** Counts of one version, as the versions list, the build stamp and the download publish them. */
export const VersionCountsSchema = Type.Object(
  {
    lang: LangSchema,
    code: Type.String({ minLength: 1 }),
    books: Type.Integer({ minimum: 0 }),
    chapters: Type.Integer({ minimum: 0 }),
    /** Verse entries of the version. */
    verses: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** One version in the build stamp: its counts, its download (the same link the versions list carries) and the hash of what its files are made from. */
export const StampVersionSchema = Type.Composite(
  [
    VersionCountsSchema,
    Type.Object({
      download: DownloadLinkSchema,
      /**
       * Lower-case hex SHA-256 over the version's manifest entry (its source's SHA-256 included), the
       * builder version and the schema version (build/build-hashes.ts). Its chapter files, books list,
       * download, search index and database rows change only when it does; an incremental build reuses
       * them while it stays the same. The search index file carries it too.
       */
      versionHash: Type.String({ minLength: 1 }),
    }),
  ],
  { additionalProperties: false },
);

/**
 * Contents of `build.json`: what the service checks before it serves the tree. The database's
 * meta table carries the same schemaVersion and buildHash, so a tree and a database of
 * different builds are never served together.
 */
export const BuildStampSchema = Type.Object(
  {
    schemaVersion: Type.Literal(BIBLE_SCHEMA_VERSION),
    /**
     * Lower-case hex SHA-256 over every version's hash and the build's other inputs (proxy origin,
     * public URL; build/build-hashes.ts): any change to any output changes it.
     */
    buildHash: Type.String({ minLength: 1 }),
    versions: Type.Array(StampVersionSchema),
  },
  { additionalProperties: false },
);

export type VersionCounts = Static<typeof VersionCountsSchema>;
export type StampVersion = Static<typeof StampVersionSchema>;
export type BuildStamp = Static<typeof BuildStampSchema>;

/** A build.json that cannot be served: not JSON, of another schema version, or not of the stamp's shape. */
export class BuildStampError extends Error {
  override name = 'BuildStampError';
}

const checkStamp = TypeCompiler.Compile(BuildStampSchema);

/**
 * The stamp of a build of these versions.
 *
 * @example buildStamp('b783bf…', [{ lang: 'en', code: 'KJV', books: 66, chapters: 1189, verses: 31102, download, versionHash: '5e0c…' }])
 */
export function buildStamp(buildHash: string, versions: readonly StampVersion[]): BuildStamp {
  return { schemaVersion: BIBLE_SCHEMA_VERSION, buildHash, versions: [...versions] };
}

/**
 * Reads the text of a build.json, checked against the schema; throws BuildStampError saying what
 * is wrong. The schema version is looked at first: a stamp of another version may have another shape.
 *
 * @example parseBuildStamp(fs.readFileSync(stampFile, 'utf8')).buildHash
 */
export function parseBuildStamp(text: string): BuildStamp {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BuildStampError('is not valid JSON');
  }
  const schemaVersion = typeof parsed === 'object' && parsed !== null ? (parsed as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (schemaVersion !== BIBLE_SCHEMA_VERSION) {
    throw new BuildStampError(`has schema version ${String(schemaVersion)}; this code reads version ${BIBLE_SCHEMA_VERSION}`);
  }
  const problem = firstSchemaError(checkStamp, parsed);
  if (problem !== undefined) throw new BuildStampError(`is not a build stamp (${problem})`);
  return parsed as BuildStamp;
}
