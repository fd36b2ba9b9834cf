// Validation of a church import document against its schema (import/document.ts), naming the record and field of every fault.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { mustBe } from '../../../build/contract/schema-errors.ts';
import type { ChurchImportRecord } from '../records.ts';
import { crossFieldProblems } from './cross-field-checks.ts';
import { type ChurchImportDocument, ChurchImportDocumentSchema, type FieldMessages } from './document.ts';
import { documentRecords } from './document-records.ts';
import { fieldLabel, isObject } from './field-labels.ts';
import './formats.ts';

export interface ImportOptions {
  /** The instant relative event times are resolved against; now by default. */
  now?: Date;
}

/** An invalid import document; `problems` name the record (index and slug) and the field of each fault. */
export class ChurchImportError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
    super(`Invalid church import (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${shown.join('\n  ')}${more}`);
    this.name = 'ChurchImportError';
    this.problems = problems;
  }
}

const checkDocument = TypeCompiler.Compile(ChurchImportDocumentSchema);

/**
 * Checks an import document against its schema, then the rules that span fields, and reads it
 * into records; or throws ChurchImportError listing every problem found (one per field).
 * Relative event times ("today+3T19:30") are resolved against `options.now` in each church's zone.
 *
 * @example validateChurchDocument(JSON.parse(fs.readFileSync('churches.json', 'utf8')))
 */
export function validateChurchDocument(document: unknown, options: ImportOptions = {}): ChurchImportRecord[] {
  const now = options.now ?? new Date();
  const plain = withoutAnnotationsOrNulls(document);
  if (!isObject(plain) || !Array.isArray(plain.churches)) {
    throw new ChurchImportError(['document: must be an object with a "churches" array']);
  }
  const failures = checkDocument.Check(plain) ? new Map<string, string>() : schemaFailures(plain);
  // Read through its types from here on: the checks below skip every field that failed.
  const checked = plain as unknown as ChurchImportDocument;
  const problems = [...failures.values(), ...crossFieldProblems(checked, [...failures.keys()], now)];
  if (problems.length > 0) throw new ChurchImportError(problems);
  return documentRecords(checked, now);
}

/** Each field that fails the schema, by JSON pointer, with its problem; the first failure of a field says it all. */
function schemaFailures(document: unknown): Map<string, string> {
  const failures = new Map<string, string>();
  for (const error of checkDocument.Errors(document)) {
    if (!failures.has(error.path)) failures.set(error.path, `${fieldLabel(document, error.path)}: ${problemText(error)}`);
  }
  return failures;
}

/** The words of the field's schema (`messages`), else the generic ones. */
function problemText(error: ValueError): string {
  if (error.type === ValueErrorType.Object) return 'must be an object';
  if (error.type === ValueErrorType.Array) return 'must be an array';
  const messages = error.schema.messages as FieldMessages | undefined;
  if (messages === undefined || error.type === ValueErrorType.ObjectAdditionalProperties) return mustBe(error);
  if (error.type === ValueErrorType.ObjectRequiredProperty) return messages.absent ?? messages.invalid;
  if (error.type === ValueErrorType.StringMaxLength) return `must be at most ${error.schema.maxLength} characters`;
  return messages.invalid.replace('{value}', JSON.stringify(error.value));
}

/** The document with "$" keys (annotations such as "$comment") and null fields (read as left out) set aside. */
function withoutAnnotationsOrNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotationsOrNulls);
  if (!isObject(value)) return value;
  const entries = Object.entries(value).filter(([key, field]) => !key.startsWith('$') && field !== null);
  return Object.fromEntries(entries.map(([key, field]) => [key, withoutAnnotationsOrNulls(field)]));
}
