// Validation of a church import document (import/document.ts) into records, naming the record and field of every fault.
import { isKnownTimeZone } from '../local-time.ts';
import type { ChurchImportRecord } from '../records.ts';
import { FieldReader, isObject } from './field-reader.ts';
import { localToday } from './relative-time.ts';

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
 * Parses an import document into records, or throws ChurchImportError listing every problem found.
 * Relative event times ("today+3T19:30") are resolved against `options.now` in each church's zone.
 *
 * @example validateChurchDocument(JSON.parse(fs.readFileSync('churches.json', 'utf8')))
 */
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

/** One church and its parts; undefined when the entry is not an object. */
function readChurch(r: FieldReader, now: Date): ChurchImportRecord | undefined {
  if (!r.ok) return undefined;
  const timeZone = r.string('timeZone', { max: 100 });
  const zoneKnown = isKnownTimeZone(timeZone);
  if (timeZone && !zoneKnown) r.problem('timeZone', `"${timeZone}" is not an IANA time zone (e.g. Europe/Paris)`);
  const today = zoneKnown ? localToday(now, timeZone) : undefined;

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
