// The public response bodies of church endpoints 1-8 as schemas: their TypeScript types and the OpenAPI components come from here.
//
// Response shapes are the contract: field names are exact, every field is always present
// (null when there is no value, never omitted), and nothing about members, finances or
// donations exists anywhere. Links (publicPage, registrationPage, postPage, itemPage,
// productPage, albumPage, listenPage) are absolute URLs on the public church site
// (PUBLIC_SITE_URL), unless the church gave an external page for that thing.
import { type Static, Type } from '@sinclair/typebox';
import { PageSchema } from '../../build/contract/paging.ts';
import { Nullable, StringEnum } from '../../build/contract/schema-shorthands.ts';
import {
  COUNTRY_PATTERN,
  CURRENCY_PATTERN,
  LANGUAGE_PATTERN,
  LOCAL_DATE_TIME_PATTERN,
  SLUG_PATTERN,
  UTC_INSTANT_PATTERN,
} from './field-patterns.ts';
import { LIBRARY_TYPES } from './records.ts';

/** Events endpoint cap (spec 4, rule 2). */
export const MAX_EVENTS = 50;

const url = (description: string, example: string) => Type.String({ format: 'uri', description, examples: [example] });
const slug = (example: string) => Type.String({ pattern: SLUG_PATTERN, examples: [example] });

/** Endpoint 1. Spec 2.1. */
export const ChurchSchema = Type.Object(
  {
    slug: Type.String({
      pattern: SLUG_PATTERN,
      description: "The church's identifier in paths and in its public page's address.",
      examples: ['grace-paris'],
    }),
    name: Type.String({ examples: ['Église Grâce Paris'] }),
    bio: Type.String({ description: 'Empty when the church wrote none.' }),
    denomination: Type.String({ description: 'Empty when the church gave none.', examples: ['Évangélique'] }),
    logoUrl: Nullable(url('The logo; null when the church has none.', 'https://images.example.org/demo/grace-paris/logo.png')),
    coverImageUrl: Nullable(
      url('The cover image; null when the church has none.', 'https://images.example.org/demo/grace-paris/cover.jpg'),
    ),
    city: Type.String({ examples: ['Paris'] }),
    country: Type.String({ pattern: COUNTRY_PATTERN, description: 'ISO 3166-1 alpha-2, upper case.', examples: ['FR'] }),
    language: Type.String({ pattern: LANGUAGE_PATTERN, description: 'BCP 47 language code.', examples: ['fr'] }),
    website: Nullable(url("The church's own website; null when it has none.", 'https://grace-paris.example.org')),
    publicPage: url("The church's page on the public church site.", 'https://churches.example.org/grace-paris'),
  },
  { $id: 'Church', additionalProperties: false, description: 'The full profile of a public church.' },
);

const localDateTime = (description: string, example: string) =>
  Type.String({ pattern: LOCAL_DATE_TIME_PATTERN, description, examples: [example] });

/** One element of endpoint 2's array. */
export const EventSchema = Type.Object(
  {
    name: Type.String({ examples: ['Concert de louange'] }),
    slug: slug('concert-de-louange'),
    description: Type.String(),
    startDate: localDateTime(
      "Local wall time in the church's own time zone, `YYYY-MM-DDTHH:MM`, no seconds, no offset.",
      '2026-11-26T20:00',
    ),
    endDate: Nullable(
      localDateTime('Same form; null when the event has no end time (it then counts as ending at its start).', '2026-11-26T22:00'),
    ),
    location: Type.String({ examples: ['Temple, 12 rue Oberkampf'] }),
    coverImageUrl: Nullable(url('Null when the event has no cover.', 'https://images.example.org/demo/events/concert-de-louange.jpg')),
    isFree: Type.Boolean(),
    registrationPage: url(
      "The church's ticketing page when it has one, else the event's page on the public church site.",
      'https://churches.example.org/grace-paris/events/concert-de-louange',
    ),
  },
  { $id: 'Event', additionalProperties: false },
);

/** Body of endpoint 2 (no envelope). */
export const EventListSchema = Type.Array(EventSchema, {
  $id: 'EventList',
  maxItems: MAX_EVENTS,
  description: `Published, public events that have not ended yet in the church's own time zone, sorted by start then name; at most ${MAX_EVENTS}.`,
});

/**
 * A price for display. `amount` is a decimal string with exactly the currency's minor digits,
 * so that no client meets floating-point rounding.
 */
export const PriceSchema = Type.Object(
  {
    amount: Type.String({
      pattern: '^\\d+(\\.\\d+)?$',
      description: 'Decimal string with the currency\'s minor digits ("12.50" EUR, "1500" JPY).',
      examples: ['12.50'],
    }),
    currency: Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217.', examples: ['EUR'] }),
  },
  { $id: 'Price', additionalProperties: false, description: 'A price for display, as a decimal string: no floating-point rounding.' },
);

/** Items of endpoint 3 (paged, newest first). */
export const PostSchema = Type.Object(
  {
    slug: slug('annonce-001'),
    title: Type.String({ examples: ['Culte du dimanche — annonce n° 1'] }),
    body: Type.String({ description: 'Plain text; paragraphs separated by blank lines.' }),
    imageUrl: Nullable(url('Null when the post has no image.', 'https://images.example.org/demo/posts/annonce-001.jpg')),
    publishedAt: Type.String({
      format: 'date-time',
      pattern: UTC_INSTANT_PATTERN,
      description: 'UTC instant, `YYYY-MM-DDTHH:MM:SSZ`.',
      examples: ['2026-10-28T08:00:00Z'],
    }),
    postPage: url("The post's page on the public church site.", 'https://churches.example.org/grace-paris/posts/annonce-001'),
  },
  { $id: 'Post', additionalProperties: false, description: 'A public announcement.' },
);

/** Body of endpoint 3. */
export const PostPageSchema = PageSchema(PostSchema, { $id: 'PostPage', description: 'Public announcements, newest first.' });

/** A library item's kind; the `type` query filter of endpoint 5 takes the same values, case-insensitively. */
export const LibraryItemTypeSchema = StringEnum(LIBRARY_TYPES, {
  $id: 'LibraryItemType',
  description: 'PDF: a document to read or download; BOOK: a printed book or e-book; AUDIO: a recording.',
});

/** Items of endpoint 5 (paged, in the church's order). */
export const LibraryItemSchema = Type.Object(
  {
    slug: slug('guide-du-nouveau-venu'),
    type: LibraryItemTypeSchema,
    title: Type.String({ examples: ['Guide du nouveau venu'] }),
    author: Type.String({ description: 'Empty when unknown.', examples: ["Équipe d'accueil"] }),
    description: Type.String(),
    coverImageUrl: Nullable(url('Null when the item has no cover.', 'https://images.example.org/demo/grace-paris/library/guide.jpg')),
    isFree: Type.Boolean({ description: 'True when the item can be read or heard without paying; `price` is then null.' }),
    price: Nullable(PriceSchema, { description: 'Null for a free item.' }),
    itemPage: url(
      'Where to read, listen or buy, on the public church site.',
      'https://churches.example.org/grace-paris/library/guide-du-nouveau-venu',
    ),
  },
  { $id: 'LibraryItem', additionalProperties: false },
);

/** Body of endpoint 5. */
export const LibraryItemPageSchema = PageSchema(LibraryItemSchema, {
  $id: 'LibraryItemPage',
  description: "Library items in the church's order.",
});

export const ProductVariantSchema = Type.Object(
  { name: Type.String({ examples: ['M'] }), price: PriceSchema },
  { $id: 'ProductVariant', additionalProperties: false },
);

/**
 * One element of endpoint 6's array: only products visible on the church's public page. A product
 * with variants shows its lowest variant price with `priceIsStartingAt: true`.
 */
export const ProductSchema = Type.Object(
  {
    slug: slug('t-shirt-grace'),
    name: Type.String({ examples: ['T-shirt Grâce'] }),
    description: Type.String(),
    imageUrl: Nullable(url('Null when the product has no image.', 'https://images.example.org/demo/grace-paris/store/t-shirt.jpg')),
    price: PriceSchema,
    priceIsStartingAt: Type.Boolean({
      description: 'True for a product with variants: `price` is the lowest variant price ("from 12.00 EUR").',
    }),
    variants: Type.Array(ProductVariantSchema, { description: 'In display order; empty for a product without variants.' }),
    productPage: url("The product's page on the public church site.", 'https://churches.example.org/grace-paris/store/t-shirt-grace'),
  },
  { $id: 'Product', additionalProperties: false },
);

/** Body of endpoint 6 (no envelope, in the church's order). */
export const ProductListSchema = Type.Array(ProductSchema, {
  $id: 'ProductList',
  description: "Products visible on the church's public page.",
});

/** One element of endpoint 7's array: public albums only. */
export const AlbumSchema = Type.Object(
  {
    albumId: Type.String({
      pattern: SLUG_PATTERN,
      description: 'Identifier of the album within the church; {albumId} in the photos path.',
      examples: ['paques-2026'],
    }),
    title: Type.String({ examples: ['Pâques 2026'] }),
    description: Type.String(),
    date: Nullable(Type.String({ format: 'date', description: 'Day the photos were taken; null when unknown.', examples: ['2026-04-05'] })),
    photoCount: Type.Integer({ minimum: 0, examples: [5] }),
    coverUrl: Nullable(
      url('The album cover, else its first photo, else null (an empty album).', 'https://images.example.org/demo/grace-paris/paques/1.jpg'),
    ),
    albumPage: url("The album's page on the public church site.", 'https://churches.example.org/grace-paris/gallery/paques-2026'),
  },
  { $id: 'Album', additionalProperties: false },
);

/** Body of endpoint 7 (no envelope, in the church's order). */
export const AlbumListSchema = Type.Array(AlbumSchema, { $id: 'AlbumList', description: 'Public photo albums.' });

/** One element of endpoint 8's array. */
export const PhotoSchema = Type.Object(
  {
    url: url('The photo.', 'https://images.example.org/demo/grace-paris/paques/1.jpg'),
    thumbnailUrl: Nullable(
      url('A smaller rendition; null when there is none.', 'https://images.example.org/demo/grace-paris/paques/1-thumb.jpg'),
    ),
    caption: Type.String({ examples: ['Photo 1'] }),
    width: Nullable(Type.Integer({ minimum: 1, description: 'Pixels; null when unknown.', examples: [1600] })),
    height: Nullable(Type.Integer({ minimum: 1, description: 'Pixels; null when unknown.', examples: [1067] })),
  },
  { $id: 'Photo', additionalProperties: false },
);

/** Body of endpoint 8 (no envelope, in album order). */
export const PhotoListSchema = Type.Array(PhotoSchema, { $id: 'PhotoList', description: 'The photos of one album, in album order.' });

/**
 * Endpoint 4. Spec 2.3. Not live: `isLive` false (station fields still given). No station at all:
 * `isLive` false, `isVideo` false, `stationName` and `listenPage` null.
 */
export const LiveStatusSchema = Type.Object(
  {
    isLive: Type.Boolean(),
    isVideo: Type.Boolean({ description: 'Video rather than radio.' }),
    stationName: Nullable(Type.String({ description: 'Null when the church has no station.', examples: ['Grâce TV'] })),
    listenPage: Nullable(
      url(
        "The church's player page when it has one, else its live page on the public church site; null when it has no station.",
        'https://live.example.org/grace-paris',
      ),
    ),
  },
  { $id: 'LiveStatus', additionalProperties: false },
);

export type ChurchProfile = Static<typeof ChurchSchema>;
export type ChurchEvent = Static<typeof EventSchema>;
export type Price = Static<typeof PriceSchema>;
export type Post = Static<typeof PostSchema>;
export type LibraryItem = Static<typeof LibraryItemSchema>;
export type ProductVariant = Static<typeof ProductVariantSchema>;
export type Product = Static<typeof ProductSchema>;
export type Album = Static<typeof AlbumSchema>;
export type Photo = Static<typeof PhotoSchema>;
export type LiveStatus = Static<typeof LiveStatusSchema>;
