// TypeBox schemas → OpenAPI components: each schema with a `$id` becomes a named component, and every use of it a `$ref`.
import type { TSchema } from '@sinclair/typebox';

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/**
 * The schema components of one document, filled as its operations ask for schemas. The schemas
 * are the ones the code validates and types with (build/contract/, src/church/), so the
 * document cannot drift from them.
 *
 * @example const components = new SchemaComponents(); const body = components.ref(ChurchSchema); components.all().Church
 */
export class SchemaComponents {
  private readonly schemas = new Map<string, Json>();

  /** `{ $ref }` to the component of a named schema; the schema and the named schemas inside it become components. */
  ref(schema: TSchema): Json {
    const name = schema.$id;
    if (typeof name !== 'string') throw new Error('Only a schema with a $id is a component.');
    const converted = this.convert(plainJson(schema), true);
    const known = this.schemas.get(name);
    if (known === undefined) this.schemas.set(name, converted);
    // One name, one shape: a second schema of the same name (the Problem narrowed twice differently, say) is a bug.
    else if (JSON.stringify(known) !== JSON.stringify(converted)) throw new Error(`Two different schemas are named ${name}.`);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** A schema written in place (a parameter's, say): the named schemas inside it become `$ref`s. */
  inline(schema: TSchema, options: Json = {}): Json {
    return { ...this.convert(plainJson(schema), false), ...options };
  }

  /** Every component, by name in alphabetical order. */
  all(): Record<string, Json> {
    return Object.fromEntries([...this.schemas.entries()].sort(([a], [b]) => alphabetical(a, b)));
  }

  /** The OpenAPI form of a schema node, children first. */
  private convert(node: Json, isComponent: boolean): Json {
    if (!isComponent && typeof node.$id === 'string') return this.ref(node as TSchema);
    const { $id: _id, ...rest } = node;
    const converted: Json = {};
    for (const [key, value] of Object.entries(rest)) converted[key] = this.convertValue(value);
    const result = simplified(converted);
    // `type` first, as people write schemas by hand (TypeBox puts it after the options).
    return 'type' in result ? { type: result.type, ...result } : result;
  }

  private convertValue(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.convertValue(item));
    if (isJson(value)) return this.convert(value, false);
    return value;
  }
}

/**
 * The shorter spelling that generated clients read best: `anyOf [X, null]` as `type: [X's type,
 * "null"]`, and `anyOf` of string constants as `enum`. Both mean exactly the same to a validator.
 */
function simplified(node: Json): Json {
  const options = node.anyOf;
  if (!Array.isArray(options) || !options.every(isJson)) return node;
  const { anyOf: _anyOf, ...outer } = node;
  const nonNull = options.filter((option) => option.type !== 'null');
  if (options.length === 2 && nonNull.length === 1) {
    const [inner] = nonNull;
    if (typeof inner.type === 'string' && inner.$ref === undefined) return { ...inner, ...outer, type: [inner.type, 'null'] };
  }
  const constants = options.map((option) => option.const);
  const types = new Set(options.map((option) => option.type));
  if (constants.every((constant) => constant !== undefined) && types.size === 1) {
    return { type: [...types][0], enum: constants, ...outer };
  }
  return node;
}

/** A TypeBox schema as plain JSON: its symbol keys (Kind, Optional) are TypeBox's own and left out. */
function plainJson(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema)) as Json;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Names of letters and digits in the order `localeCompare` gives them (case ignored, then the lower-case one
 * first), without it: `localeCompare` loads ICU's collation data, 1.7 MB of the node binary's pages made
 * resident for the process's life, and the service used it for nothing else (docs/memory.md, round 7).
 */
export function alphabetical(a: string, b: string): number {
  const byLetters = ordinal(a.toLowerCase(), b.toLowerCase());
  return byLetters !== 0 ? byLetters : ordinal(b, a);
}

function ordinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
