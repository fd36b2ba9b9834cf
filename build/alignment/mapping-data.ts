// The versification mapping (data/versification-mapping.json): how each version's verse numbers stand to the shared numbering, as a schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { firstSchemaError } from '../contract/schema-errors.ts';
import { StringEnum } from '../contract/schema-shorthands.ts';

/** "EXO 7:26" or "EXO 7:26-29": verses of one chapter, as the version numbers them. */
const VersionRange = Type.String({
  pattern: '^[0-9A-Z]{3} [1-9][0-9]*:[1-9][0-9]*(-[1-9][0-9]*)?$',
  errorMessage: 'must be "BOOK chapter:verse" or "BOOK chapter:verse-verse" (USFM book code)',
});

/** "EXO 8:1-4", "ISA 63:19-64:1" or "PSA 3:0": pivot verses, which may cross a chapter. */
const PivotRange = Type.String({
  pattern: '^[0-9A-Z]{3} [1-9][0-9]*:(0|[1-9][0-9]*)(-(([1-9][0-9]*:)?(0|[1-9][0-9]*)))?$',
  errorMessage: 'must be "BOOK chapter:verse", "BOOK chapter:verse-verse" or "BOOK chapter:verse-chapter:verse"',
});

/** What one version's numbering does differently from the pivot's. */
export const VersionMappingSchema = Type.Object(
  {
    /** SHA-256 of the source file the mapping was checked against (the manifest's `sha256`): another source needs its mapping checked again. */
    source: Type.String({ pattern: '^[0-9a-f]{64}$', errorMessage: 'must be the 64 lower-case hex digits of the source’s SHA-256' }),
    /**
     * Where the version puts a Psalm title that the pivot numbers as verse 0: `in-verse-1`, inside
     * verse 1 (a heading of it, or its first words), so verse 1 holds pivot verses 0 and 1;
     * `own-verses`, as verses of its own, listed in `mapped` like any other difference.
     */
    psalmTitles: StringEnum(['in-verse-1', 'own-verses'] as const),
    /**
     * Verses of the version (key) and the pivot verses they hold (value), where these differ from the
     * verse of the same number. Equal lengths pair verse by verse; one verse may hold several pivot
     * verses, several verses may share one.
     */
    mapped: Type.Record(VersionRange, PivotRange, { additionalProperties: false }),
    /** Verses of the version that no pivot verse stands for. */
    unmatched: Type.Array(VersionRange),
    /** Pivot verses that no verse of the version holds (checked for the books the version has whole). */
    absent: Type.Array(PivotRange),
  },
  { additionalProperties: false },
);

export const VersificationMappingSchema = Type.Object(
  {
    schemaVersion: Type.Literal(1),
    /** Licence of this data, which is derived from CC BY-SA 4.0 data (versification-mapping.md). */
    licence: Type.String({ minLength: 1 }),
    attribution: Type.String({ minLength: 1 }),
    pivot: Type.Object(
      {
        /** How responses name the shared numbering. */
        description: Type.String({ minLength: 1 }),
        /** The SWORD versification whose verse counts the pivot has (build/versification.ts). */
        versification: Type.Literal('KJV'),
        /** Psalms whose title the pivot numbers as verse 0 (the Hebrew numbers it as verse 1, or 1-2). */
        psalmTitles: Type.Array(Type.Integer({ minimum: 1, maximum: 150 }), { uniqueItems: true }),
      },
      { additionalProperties: false },
    ),
    /** One entry per version code. */
    versions: Type.Record(Type.String({ pattern: '^[A-Z]+$' }), VersionMappingSchema, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export type VersionMapping = Static<typeof VersionMappingSchema>;
export type VersificationMapping = Static<typeof VersificationMappingSchema>;
export type PivotDefinition = VersificationMapping['pivot'];

/** What the build needs to map one version: its entry, with the pivot and the data's licence. */
export interface VersionMappingRules {
  code: string;
  pivot: PivotDefinition;
  licence: string;
  attribution: string;
  mapping: VersionMapping;
}

/** data/versification-mapping.json, the mapping the project ships. */
export const VERSIFICATION_MAPPING_PATH = fileURLToPath(new URL('../../data/versification-mapping.json', import.meta.url));

/** The mapping file is malformed, or has no entry for a version. */
export class VersificationMappingError extends Error {
  override name = 'VersificationMappingError';
}

const checkMapping = TypeCompiler.Compile(VersificationMappingSchema);

/**
 * Reads and validates a versification mapping (by default data/versification-mapping.json).
 *
 * @example Object.keys(loadVersificationMapping().versions) // ['LSG', 'KJV', 'RVR', 'BLIVRE', 'STV']
 */
export function loadVersificationMapping(path: string = VERSIFICATION_MAPPING_PATH): VersificationMapping {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new VersificationMappingError(`Cannot read the versification mapping ${path}: ${(error as Error).message}`);
  }
  return parseVersificationMapping(raw, path);
}

/** Validates parsed mapping JSON against the schema; `origin` names it in error messages. */
export function parseVersificationMapping(raw: unknown, origin = 'versification mapping'): VersificationMapping {
  const problem = firstSchemaError(checkMapping, raw);
  if (problem !== undefined) throw new VersificationMappingError(`${origin}: ${problem}`);
  return raw as VersificationMapping;
}

/**
 * The rules of version `code`; throws when the mapping has no entry for it (every version built
 * must be aligned, so a new version needs its entry: docs/bible-versions.md).
 */
export function rulesFor(mapping: VersificationMapping, code: string): VersionMappingRules {
  const entry = mapping.versions[code];
  if (!entry) {
    throw new VersificationMappingError(
      `The versification mapping has no entry for version ${code}: add one to data/versification-mapping.json (docs/versification.md says how)`,
    );
  }
  return { code, pivot: mapping.pivot, licence: mapping.licence, attribution: mapping.attribution, mapping: entry };
}
