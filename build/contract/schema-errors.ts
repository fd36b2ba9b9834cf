// Failures of a TypeBox schema check in words: which field, and what it must be ("versions[0].lang: must be one of fr, en, …").
import type { TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';

/**
 * The first way `value` fails `check`, as "field: what it must be", or undefined when it passes.
 *
 * @example firstSchemaError(check, { versions: [{ lang: 'de' }] }) // 'versions[0].lang: must be one of fr, en, es, pt, nl, got "de"'
 */
export function firstSchemaError<T extends TSchema>(check: TypeCheck<T>, value: unknown): string | undefined {
  const error = check.Errors(value).First();
  return error === undefined ? undefined : `${fieldPath(error.path) || 'document'}: ${mustBe(error)}`;
}

/**
 * A JSON pointer as a reader writes the field: `/versions/0/sha256` → `versions[0].sha256`.
 *
 * @example fieldPath('/churches/1/events/0/start') // 'churches[1].events[0].start'
 */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`), '');
}

/**
 * What the value at a failed field must be, with the value when it is short enough to show. A
 * schema may say it itself with an `errorMessage` option.
 */
export function mustBe(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'is required';
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a known field';
  return `${expectation(error)}${shown(error.value)}`;
}

function expectation({ type, schema, message }: ValueError): string {
  if (typeof schema.errorMessage === 'string') return schema.errorMessage;
  const constants = (schema.anyOf as TSchema[] | undefined)?.map((option) => option.const);
  switch (type) {
    case ValueErrorType.Union:
      return constants?.every((constant) => constant !== undefined) ? `must be one of ${constants.join(', ')}` : 'has an unexpected form';
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.StringPattern:
      return `must match ${schema.pattern}`;
    case ValueErrorType.StringFormat:
      return `must be a ${schema.format}`;
    case ValueErrorType.Integer:
      return 'must be a whole number';
    case ValueErrorType.Number:
      return 'must be a number';
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${schema.maximum}`;
    case ValueErrorType.Boolean:
      return 'must be true or false';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Array:
      return 'must be an array';
    default:
      return message;
  }
}

/** `, got "de"` for a short scalar; nothing for objects, arrays and long strings. */
function shown(value: unknown): string {
  if (typeof value === 'string' && value.length <= 80) return `, got ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return `, got ${String(value)}`;
  return '';
}
