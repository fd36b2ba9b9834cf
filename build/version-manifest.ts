// The version manifest (data/bible-versions.json): which sources the build reads, pinned by revision and SHA-256, as a schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { VersionDescriptionSchema } from './contract/response-schemas.ts';
import { firstSchemaError } from './contract/schema-errors.ts';
import { StringEnum } from './contract/schema-shorthands.ts';

/** One version as the manifest pins it: what it is (published as is by the versions list), where it comes from, its hash. */
export const VersionManifestEntrySchema = Type.Object(
  {
    ...VersionDescriptionSchema.properties,
    format: StringEnum(['usfm', 'sword'] as const),
    /** Bare file name inside the sources directory ("KJV.zip"): joined to a directory and written to by fetch, so it must not escape it. */
    file: Type.String({ pattern: '^[^./\\\\][^/\\\\]*$', errorMessage: 'must be a bare file name' }),
    /** Upstream project page. */
    upstream: Type.String({ minLength: 1 }),
    /** Pinned upstream revision (a commit). */
    revision: Type.String({ minLength: 1 }),
    /** Download address of the pinned file. */
    url: Type.String({ minLength: 1 }),
    /** Lower-case hex SHA-256 of the file. */
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', errorMessage: 'must be 64 lower-case hex digits' }),
  },
  { additionalProperties: false },
);

export const VersionManifestSchema = Type.Object(
  { schemaVersion: Type.Literal(1), versions: Type.Array(VersionManifestEntrySchema) },
  { additionalProperties: false },
);

export type VersionManifestEntry = Static<typeof VersionManifestEntrySchema>;
export type VersionManifest = Static<typeof VersionManifestSchema>;
export type SourceFormat = VersionManifestEntry['format'];

/** data/bible-versions.json, the manifest the project ships. */
export const VERSION_MANIFEST_PATH = fileURLToPath(new URL('../data/bible-versions.json', import.meta.url));

/** The manifest is malformed; the message names the entry and field. */
export class VersionManifestError extends Error {
  override name = 'VersionManifestError';
}

const checkManifest = TypeCompiler.Compile(VersionManifestSchema);

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

/** Validates parsed manifest JSON against the schema, and that codes are unique; `origin` names it in error messages. */
export function parseVersionManifest(raw: unknown, origin = 'version manifest'): VersionManifest {
  const problem = firstSchemaError(checkManifest, raw);
  if (problem !== undefined) throw new VersionManifestError(`${origin}: ${problem}`);
  const manifest = raw as VersionManifest;
  const codes = new Set<string>();
  manifest.versions.forEach((entry, index) => {
    if (codes.has(entry.code)) throw new VersionManifestError(`${origin}: versions[${index}].code "${entry.code}" appears twice`);
    codes.add(entry.code);
  });
  return manifest;
}
