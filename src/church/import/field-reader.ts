// Reads typed fields of one JSON object of an import document, recording each fault as "label.field: message".

import { amountToMinor, isKnownCurrency } from '../money.ts';
import { LIBRARY_TYPES, type LibraryType, type MoneyRecord } from '../records.ts';
import { isRealDate, resolveLocalDateTime } from './relative-time.ts';

export type Json = Record<string, unknown>;

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * Each reading method returns the field's value, or records a problem and returns a placeholder,
 * so one pass over a document collects every fault rather than stopping at the first.
 *
 * @example
 * const reader = new FieldReader(raw, 'churches[0] (grace-paris)', problems);
 * const name = reader.string('name', { max: 200 });
 * reader.finish(); // refuses the fields nobody read
 */
export class FieldReader {
  readonly ok: boolean;
  private readonly object: Json;
  private readonly read = new Set<string>();

  constructor(
    value: unknown,
    private readonly label: string,
    private readonly problems: string[],
  ) {
    this.ok = isObject(value);
    const object = isObject(value) ? value : {};
    // Every field a reader looks at is remembered, so finish() can refuse the ones nobody read (typos).
    this.object = new Proxy(object, {
      get: (target, field) => {
        if (typeof field === 'string') this.read.add(field);
        return target[field as string];
      },
    });
    if (!this.ok) problems.push(`${label}: must be an object`);
  }

  /** Reports fields that no reader asked for: a misspelt optional field must not vanish silently. "$comment"-style keys are allowed. */
  finish(): void {
    for (const field of Object.keys(this.object)) {
      if (!this.read.has(field) && !field.startsWith('$')) this.problem(field, 'is not a known field');
    }
  }

  problem(field: string, message: string): void {
    this.problems.push(`${this.label}.${field}: ${message}`);
  }

  has(field: string): boolean {
    return this.object[field] !== undefined && this.object[field] !== null;
  }

  string(field: string, { max }: { max: number }): string {
    const value = this.object[field];
    if (typeof value !== 'string' || value.trim() === '') {
      this.problem(field, 'is required and must be a non-empty string');
      return '';
    }
    if (value.length > max) this.problem(field, `must be at most ${max} characters`);
    return value;
  }

  optionalString(field: string, max: number): string | null {
    if (!this.has(field)) return null;
    const value = this.object[field];
    if (typeof value !== 'string') {
      this.problem(field, 'must be a string');
      return null;
    }
    if (value.length > max) this.problem(field, `must be at most ${max} characters`);
    return value;
  }

  pattern(field: string, pattern: RegExp, what: string): string {
    const value = this.object[field];
    if (typeof value !== 'string' || !pattern.test(value)) {
      this.problem(field, `must be ${what}`);
      return '';
    }
    return value;
  }

  slug(field: string): string {
    return this.pattern(field, SLUG, 'a slug of lower-case letters, digits and hyphens (1-100 characters)');
  }

  boolean(field: string): boolean {
    const value = this.object[field];
    if (typeof value !== 'boolean') {
      this.problem(field, 'is required and must be true or false');
      return false;
    }
    return value;
  }

  url(field: string): string {
    const value = this.optionalUrl(field);
    if (value === null && !this.has(field)) this.problem(field, 'is required (an http or https URL)');
    return value ?? '';
  }

  optionalUrl(field: string): string | null {
    if (!this.has(field)) return null;
    const value = this.object[field];
    if (typeof value !== 'string' || !/^https?:\/\//.test(value) || !URL.canParse(value) || value.length > 2000) {
      this.problem(field, 'must be an absolute http or https URL');
      return null;
    }
    return value;
  }

  optionalPositiveInteger(field: string): number | null {
    if (!this.has(field)) return null;
    const value = this.object[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      this.problem(field, 'must be a positive whole number');
      return null;
    }
    return value;
  }

  optionalDate(field: string): string | null {
    if (!this.has(field)) return null;
    const value = this.object[field];
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || !isRealDate(value)) {
      this.problem(field, 'must be a date YYYY-MM-DD');
      return null;
    }
    return value;
  }

  /** A local wall time, absolute or relative to `today` (YYYY-MM-DD in the church's zone). */
  localDateTime(field: string, today: string | undefined): string {
    const value = this.object[field];
    if (typeof value !== 'string') {
      this.problem(field, 'is required: a local date-time "YYYY-MM-DDTHH:MM" or "today+NTHH:MM"');
      return '';
    }
    const resolved = resolveLocalDateTime(value, today);
    if (resolved === undefined) {
      this.problem(field, `"${value}" is not a local date-time "YYYY-MM-DDTHH:MM" or "today[+-N]THH:MM"`);
      return '';
    }
    return resolved;
  }

  optionalLocalDateTime(field: string, today: string | undefined): string | null {
    return this.has(field) ? this.localDateTime(field, today) || null : null;
  }

  instant(field: string): string {
    const value = this.object[field];
    if (typeof value !== 'string' || !INSTANT.test(value) || Number.isNaN(Date.parse(value))) {
      this.problem(field, 'must be a UTC instant "YYYY-MM-DDTHH:MM:SSZ"');
      return '1970-01-01T00:00:00Z';
    }
    return value;
  }

  libraryType(field: string): LibraryType {
    const value = this.object[field];
    const found = LIBRARY_TYPES.find((type) => type === value);
    if (!found) {
      this.problem(field, `must be one of ${LIBRARY_TYPES.join(', ')}`);
      return 'PDF';
    }
    return found;
  }

  currency(field: string): string {
    const value = this.object[field];
    if (typeof value !== 'string' || !isKnownCurrency(value)) {
      this.problem(field, 'must be an ISO 4217 currency code (e.g. EUR)');
      return 'XXX';
    }
    return value;
  }

  /** A decimal string amount in `currency` → minor units. */
  amount(field: string, currency: string): number {
    const value = this.object[field];
    const minor = typeof value === 'string' ? amountToMinor(value, currency) : undefined;
    if (minor === undefined) {
      this.problem(field, `must be a non-negative decimal string with at most the minor digits of ${currency} (e.g. "12.50")`);
      return 0;
    }
    return minor;
  }

  /** `{ amount: "12.50", currency: "EUR" }`, or null/absent for free. */
  optionalMoney(field: string): MoneyRecord | null {
    if (!this.has(field)) return null;
    const sub = new FieldReader(this.object[field], `${this.label}.${field}`, this.problems);
    if (!sub.ok) return null;
    const currency = sub.currency('currency');
    const money = { amountMinor: sub.amount('amount', currency), currency };
    sub.finish();
    return money;
  }

  optionalObject<T>(field: string, read: (reader: FieldReader) => T): T | null {
    if (!this.has(field)) return null;
    const sub = new FieldReader(this.object[field], `${this.label}.${field}`, this.problems);
    if (!sub.ok) return null;
    const value = read(sub);
    sub.finish();
    return value;
  }

  /** An optional array of objects; `key` names the field that must be unique within it (and labels errors). */
  list<T>(field: string, key: string | undefined, read: (reader: FieldReader) => T): T[] {
    if (!this.has(field)) return [];
    const value = this.object[field];
    if (!Array.isArray(value)) {
      this.problem(field, 'must be an array');
      return [];
    }
    const seen = new Set<unknown>();
    const out: T[] = [];
    value.forEach((item: unknown, index) => {
      const id = key && isObject(item) ? item[key] : undefined;
      const label = `${this.label}.${field}[${index}]${typeof id === 'string' ? ` (${id})` : ''}`;
      const reader = new FieldReader(item, label, this.problems);
      if (!reader.ok) return;
      if (key && id !== undefined) {
        if (seen.has(id)) reader.problem(key, `"${String(id)}" appears twice in ${this.label}.${field}`);
        seen.add(id);
      }
      out.push(read(reader));
      reader.finish();
    });
    return out;
  }
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
