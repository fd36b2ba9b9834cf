// Validation of a church import document (data/demo/churches.json is one) into typed records, and the import.
//
// Format (JSON): { "churches": [ { slug, name, bio?, denomination?, logoUrl?, coverImageUrl?, city,
//   country, language, website?, timeZone, isPublic, events?: [...], posts?: [...], library?: [...],
//   products?: [...], albums?: [...], live?: {...} | null } ] }
// Event times are local wall times in the church's zone: absolute "2026-12-24T19:30", or relative to
// the import day in that zone: "today+3T19:30", "today-1T09:00", "todayT10:00" (so demo data stays upcoming).
// Prices are decimal strings in the item's currency: "12.50".
import type { ChurchRepository } from './repository.ts';
import { isKnownTimeZone, localWallTime } from './local-time.ts';
import { amountToMinor, isKnownCurrency } from './money.ts';
import { LIBRARY_TYPES, type ChurchImportRecord, type ImportSummary, type LibraryType, type MoneyRecord } from './types.ts';

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

/**
 * Validates the whole document first, then writes it in one transaction: nothing is written when
 * any record is invalid.
 *
 * @example await importChurchDocument(churches, JSON.parse(fs.readFileSync('churches.json', 'utf8')))
 */
export async function importChurchDocument(repository: ChurchRepository, document: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  return repository.importChurches(validateChurchDocument(document, options));
}

/** Parses an import document into records, or throws ChurchImportError listing every problem found. */
export function validateChurchDocument(document: unknown, options: ImportOptions = {}): ChurchImportRecord[] {
  const now = options.now ?? new Date();
  const problems: string[] = [];
  if (!isObject(document) || !Array.isArray(document.churches)) {
    throw new ChurchImportError(['document: must be an object with a "churches" array']);
  }
  const records: ChurchImportRecord[] = [];
  const slugs = new Set<string>();
  document.churches.forEach((raw: unknown, index: number) => {
    const label = `churches[${index}]${isObject(raw) && typeof raw.slug === 'string' ? ` (${raw.slug})` : ''}`;
    const reader = new FieldReader(raw, label, problems);
    const record = readChurch(reader, now);
    reader.finish();
    if (record) {
      if (slugs.has(record.church.slug)) problems.push(`${label}.slug: "${record.church.slug}" appears twice in the document`);
      slugs.add(record.church.slug);
      records.push(record);
    }
  });
  if (problems.length > 0) throw new ChurchImportError(problems);
  return records;
}

// ─── One church and its parts ────────────────────────────────────────────────

function readChurch(r: FieldReader, now: Date): ChurchImportRecord | undefined {
  if (!r.ok) return undefined;
  const timeZone = r.string('timeZone', { max: 100 });
  const zoneKnown = isKnownTimeZone(timeZone);
  if (timeZone && !zoneKnown) r.problem('timeZone', `"${timeZone}" is not an IANA time zone (e.g. Europe/Paris)`);
  const today = zoneKnown ? localWallTime(now, timeZone).slice(0, 10) : undefined;

  const church = {
    slug: r.slug('slug'),
    name: r.string('name', { max: 200 }),
    bio: r.optionalString('bio', 5000) ?? '',
    denomination: r.optionalString('denomination', 200) ?? '',
    logoUrl: r.optionalUrl('logoUrl'),
    coverImageUrl: r.optionalUrl('coverImageUrl'),
    city: r.string('city', { max: 200 }),
    country: r.pattern('country', /^[A-Z]{2}$/, 'a two-letter upper-case country code (ISO 3166-1, e.g. FR)'),
    language: r.pattern('language', /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language code (e.g. fr, pt-BR)'),
    website: r.optionalUrl('website'),
    timeZone,
    isPublic: r.boolean('isPublic'),
  };

  const events = r.list('events', 'slug', (e) => {
    const start = e.localDateTime('start', today);
    const end = e.optionalLocalDateTime('end', today);
    if (start && end && end < start) e.problem('end', `must not be before start (${start})`);
    return {
      slug: e.slug('slug'),
      name: e.string('name', { max: 200 }),
      description: e.optionalString('description', 5000) ?? '',
      startLocal: start,
      endLocal: end,
      location: e.optionalString('location', 500) ?? '',
      coverImageUrl: e.optionalUrl('coverImageUrl'),
      isFree: e.boolean('isFree'),
      registrationUrl: e.optionalUrl('registrationUrl'),
      isPublished: e.boolean('isPublished'),
      isPublic: e.boolean('isPublic'),
    };
  });

  const posts = r.list('posts', 'slug', (p) => ({
    slug: p.slug('slug'),
    title: p.string('title', { max: 300 }),
    body: p.optionalString('body', 50_000) ?? '',
    imageUrl: p.optionalUrl('imageUrl'),
    publishedAt: p.instant('publishedAt'),
    isPublic: p.boolean('isPublic'),
  }));

  const library = r.list('library', 'slug', (item) => ({
    slug: item.slug('slug'),
    type: item.libraryType('type'),
    title: item.string('title', { max: 300 }),
    author: item.optionalString('author', 300) ?? '',
    description: item.optionalString('description', 5000) ?? '',
    coverImageUrl: item.optionalUrl('coverImageUrl'),
    price: item.optionalMoney('price'),
    isPublic: item.boolean('isPublic'),
  }));

  const products = r.list('products', 'slug', (p) => {
    const currency = p.currency('currency');
    const variants = p.list('variants', 'name', (v) => ({
      name: v.string('name', { max: 200 }),
      price: { amountMinor: v.amount('price', currency), currency },
    }));
    const hasPrice = p.has('price');
    if (!hasPrice && variants.length === 0) p.problem('price', 'is required for a product without variants');
    if (hasPrice && variants.length > 0) p.problem('price', 'must be left out when the product has variants (each variant has its price)');
    return {
      slug: p.slug('slug'),
      name: p.string('name', { max: 200 }),
      description: p.optionalString('description', 5000) ?? '',
      imageUrl: p.optionalUrl('imageUrl'),
      currency,
      priceMinor: hasPrice ? p.amount('price', currency) : null,
      variants,
      visibleOnPublicPage: p.boolean('visibleOnPublicPage'),
    };
  });

  const albums = r.list('albums', 'albumId', (a) => ({
    albumId: a.slug('albumId'),
    title: a.string('title', { max: 200 }),
    description: a.optionalString('description', 5000) ?? '',
    date: a.optionalDate('date'),
    coverUrl: a.optionalUrl('coverUrl'),
    isPublic: a.boolean('isPublic'),
    photos: a.list('photos', undefined, (photo) => ({
      url: photo.url('url'),
      thumbnailUrl: photo.optionalUrl('thumbnailUrl'),
      caption: photo.optionalString('caption', 1000) ?? '',
      width: photo.optionalPositiveInteger('width'),
      height: photo.optionalPositiveInteger('height'),
    })),
  }));

  const live = r.optionalObject('live', (l) => ({
    stationName: l.string('stationName', { max: 200 }),
    listenUrl: l.optionalUrl('listenUrl'),
    isVideo: l.boolean('isVideo'),
    isLive: l.boolean('isLive'),
  }));

  return { church, events, posts, library, products, albums, live };
}

// ─── Field reading with named errors ─────────────────────────────────────────

type Json = Record<string, unknown>;

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const RELATIVE_DATE_TIME = /^today(?:([+-])(\d{1,4}))?T(\d{2}):(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads typed fields of one JSON object; each fault is recorded as "label.field: message" and a placeholder returned. */
class FieldReader {
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

/** "2026-12-24T19:30" as is; "today+3T19:30" from `today`; undefined when malformed or not a real date. */
export function resolveLocalDateTime(value: string, today: string | undefined): string | undefined {
  const absolute = LOCAL_DATE_TIME.exec(value);
  if (absolute) return isRealDate(value.slice(0, 10)) && Number(absolute[4]) < 24 && Number(absolute[5]) < 60 ? value : undefined;
  const relative = RELATIVE_DATE_TIME.exec(value);
  if (!relative || today === undefined) return undefined;
  const [, sign, days, hour, minute] = relative;
  if (Number(hour) > 23 || Number(minute) > 59) return undefined;
  const base = new Date(`${today}T00:00:00Z`);
  base.setUTCDate(base.getUTCDate() + (sign === '-' ? -1 : 1) * Number(days ?? 0));
  return `${base.toISOString().slice(0, 10)}T${hour}:${minute}`;
}

function isRealDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}
