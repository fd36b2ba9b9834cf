// Shorthands for the JSON Schema shapes the project's TypeBox schemas share: nullable values and string enums.
import { type SchemaOptions, type TLiteral, type TNull, type TSchema, type TUnion, Type } from '@sinclair/typebox';

/**
 * A value or null: response fields are always present, null when there is nothing to show. The
 * OpenAPI document writes it as `type: [..., "null"]`.
 *
 * @example Nullable(Type.String({ format: 'uri' })) // string | null
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()], options);
}

/**
 * One string of a fixed list; the OpenAPI document writes it as `enum`.
 *
 * @example StringEnum(LANGS, { $id: 'Lang' }) // 'fr' | 'en' | 'es' | 'pt' | 'nl'
 */
export function StringEnum<T extends string>(values: readonly T[], options: SchemaOptions = {}): TUnion<TLiteral<T>[]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
}
