// The church import document as the operator writes it (data/demo/churches.json is one): the JSON format, as a schema.
//
// validate.ts checks a document against it and reads it into ChurchImportRecords
// (src/church/records.ts), naming the record and field of every fault. Optional fields may be
// left out or null (null is read as left out). Keys starting with "$" ("$comment") are allowed on
// every object and ignored; any other unknown key is refused, so a misspelt optional field cannot
// vanish silently. Each field carries the words the importer uses when it is wrong (`messages`).
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { COUNTRY_PATTERN, LANGUAGE_PATTERN, SLUG_PATTERN } from '../field-patterns.ts';
import { LIBRARY_TYPES } from '../records.ts';
import { IMPORT_FORMATS } from './formats.ts';

/**
 * What the importer says about a field that fails its schema (validate.ts reads it). `{value}`
 * stands for the value as JSON. A string that is too long gets "must be at most N characters".
 */
export interface FieldMessages {
  /** The field is left out (or null); default `invalid`. */
  absent?: string;
  /** The field is there but of the wrong type or refused. */
  invalid: string;
}

const REQUIRED_TEXT = 'is required and must be a non-empty string';
const URL_TEXT = 'must be an absolute http or https URL';
const LOCAL_DATE_TIME_TEXT = '{value} is not a local date-time "YYYY-MM-DDTHH:MM" or "today[+-N]THH:MM"';

const messages = (invalid: string, absent?: string): { messages: FieldMessages } => ({ messages: { invalid, absent } });

const text = (maxLength: number) => Type.String({ pattern: '\\S', maxLength, ...messages(REQUIRED_TEXT) });
const optionalText = (maxLength: number) => Type.Optional(Type.String({ maxLength, ...messages('must be a string') }));
const slug = () =>
  Type.String({ pattern: SLUG_PATTERN, ...messages('must be a slug of lower-case letters, digits and hyphens (1-100 characters)') });
const flag = () => Type.Boolean(messages('is required and must be true or false'));
const httpUrl = () =>
  Type.String({ format: IMPORT_FORMATS.httpUrl, maxLength: 2000, ...messages(URL_TEXT, 'is required (an http or https URL)') });
const optionalUrl = () => Type.Optional(httpUrl());
const localDateTime = () =>
  Type.String({
    format: IMPORT_FORMATS.localDateTime,
    ...messages(LOCAL_DATE_TIME_TEXT, 'is required: a local date-time "YYYY-MM-DDTHH:MM" or "today+NTHH:MM"'),
  });
const currency = () => Type.String({ format: IMPORT_FORMATS.currency, ...messages('must be an ISO 4217 currency code (e.g. EUR)') });
/** Checked against the currency's minor digits by validate.ts, which knows the currency. */
const amount = () => Type.String({ pattern: '^\\d{1,12}(\\.\\d+)?$', ...messages('must be a non-negative decimal string (e.g. "12.50")') });
const positiveInteger = () => Type.Optional(Type.Integer({ minimum: 1, ...messages('must be a positive whole number') }));

/** An object of the document: no field but its own (after "$" keys are set aside). */
const record = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: false });
const list = <T extends TSchema>(item: T) => Type.Optional(Type.Array(item));

export const EventDocumentSchema = record({
  slug: slug(),
  name: text(200),
  description: optionalText(5000),
  /** A local wall time in the church's zone, absolute or relative to the import day ("today+3T19:30", so demo data stays upcoming). */
  start: localDateTime(),
  /** Not before `start`; without one the event ends at its start. */
  end: Type.Optional(localDateTime()),
  location: optionalText(500),
  coverImageUrl: optionalUrl(),
  isFree: flag(),
  /** External ticketing page; without one, the event's page on the public site. */
  registrationUrl: optionalUrl(),
  isPublished: flag(),
  isPublic: flag(),
});

export const PostDocumentSchema = record({
  slug: slug(),
  title: text(300),
  /** Plain text; paragraphs separated by blank lines. */
  body: optionalText(50_000),
  imageUrl: optionalUrl(),
  publishedAt: Type.String({ format: IMPORT_FORMATS.utcInstant, ...messages('must be a UTC instant "YYYY-MM-DDTHH:MM:SSZ"') }),
  isPublic: flag(),
});

/** A sum of money: a non-negative decimal with at most the currency's minor digits ("12.50" EUR, "1500" JPY). */
export const MoneyDocumentSchema = record({ amount: amount(), currency: currency() });

export const LibraryItemDocumentSchema = record({
  slug: slug(),
  type: Type.Union(
    LIBRARY_TYPES.map((type) => Type.Literal(type)),
    messages(`must be one of ${LIBRARY_TYPES.join(', ')}`),
  ),
  title: text(300),
  author: optionalText(300),
  description: optionalText(5000),
  coverImageUrl: optionalUrl(),
  /** Left out: free. */
  price: Type.Optional(MoneyDocumentSchema),
  isPublic: flag(),
});

export const ProductVariantDocumentSchema = record({ name: text(200), price: amount() });

export const ProductDocumentSchema = record({
  slug: slug(),
  name: text(200),
  description: optionalText(5000),
  imageUrl: optionalUrl(),
  /** ISO 4217, for the price and every variant's price. */
  currency: currency(),
  /** Required without variants, refused with them (each variant has its price). */
  price: Type.Optional(amount()),
  /** In display order; names unique within the product. */
  variants: list(ProductVariantDocumentSchema),
  visibleOnPublicPage: flag(),
});

export const PhotoDocumentSchema = record({
  url: httpUrl(),
  thumbnailUrl: optionalUrl(),
  caption: optionalText(1000),
  /** Pixels. */
  width: positiveInteger(),
  height: positiveInteger(),
});

export const AlbumDocumentSchema = record({
  /** A slug; the album's id in endpoint 8's path. */
  albumId: slug(),
  title: text(200),
  description: optionalText(5000),
  date: Type.Optional(Type.String({ format: IMPORT_FORMATS.date, ...messages('must be a date YYYY-MM-DD') })),
  /** Without one, the first photo is the cover. */
  coverUrl: optionalUrl(),
  isPublic: flag(),
  /** In album order. */
  photos: list(PhotoDocumentSchema),
});

export const LiveStationDocumentSchema = record({
  stationName: text(200),
  /** External player page; without one, the church's live page on the public site. */
  listenUrl: optionalUrl(),
  isVideo: flag(),
  isLive: flag(),
});

export const ChurchDocumentSchema = record({
  slug: slug(),
  name: text(200),
  bio: optionalText(5000),
  denomination: optionalText(200),
  logoUrl: optionalUrl(),
  coverImageUrl: optionalUrl(),
  city: text(200),
  country: Type.String({ pattern: COUNTRY_PATTERN, ...messages('must be a two-letter upper-case country code (ISO 3166-1, e.g. FR)') }),
  language: Type.String({ pattern: LANGUAGE_PATTERN, ...messages('must be a language code (e.g. fr, pt-BR)') }),
  website: optionalUrl(),
  /** IANA time zone ("Europe/Paris"): event times are wall times in it. */
  timeZone: Type.String({
    format: IMPORT_FORMATS.timeZone,
    maxLength: 100,
    ...messages('{value} is not an IANA time zone (e.g. Europe/Paris)', REQUIRED_TEXT),
  }),
  isPublic: flag(),
  /** Each list's slugs are unique within the church (albums by albumId). */
  events: list(EventDocumentSchema),
  posts: list(PostDocumentSchema),
  /** In display order. */
  library: list(LibraryItemDocumentSchema),
  /** In display order. */
  products: list(ProductDocumentSchema),
  /** In display order. */
  albums: list(AlbumDocumentSchema),
  live: Type.Optional(LiveStationDocumentSchema),
});

/** Imported in one transaction; a church whose slug exists is replaced whole. Slugs are unique in the document. */
export const ChurchImportDocumentSchema = record({ churches: Type.Array(ChurchDocumentSchema) });

export type ChurchImportDocument = Static<typeof ChurchImportDocumentSchema>;
export type ChurchDocument = Static<typeof ChurchDocumentSchema>;
export type EventDocument = Static<typeof EventDocumentSchema>;
export type PostDocument = Static<typeof PostDocumentSchema>;
export type LibraryItemDocument = Static<typeof LibraryItemDocumentSchema>;
export type MoneyDocument = Static<typeof MoneyDocumentSchema>;
export type ProductDocument = Static<typeof ProductDocumentSchema>;
export type AlbumDocument = Static<typeof AlbumDocumentSchema>;
export type PhotoDocument = Static<typeof PhotoDocumentSchema>;
export type LiveStationDocument = Static<typeof LiveStationDocumentSchema>;
