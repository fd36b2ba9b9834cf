// The public response bodies of church endpoints 1-8 (what the API sends); paged lists use src/http/paging.ts.
//
// Response shapes are the contract: field names are exact, every field is always present
// (null when there is no value, never omitted), and nothing about members, finances or
// donations exists anywhere. Links (publicPage, registrationPage, postPage, itemPage,
// productPage, albumPage, listenPage) are absolute URLs on the public church site
// (PUBLIC_SITE_URL), unless the church gave an external page for that thing.
import type { LibraryType } from './records.ts';

/** Endpoint 1. Spec 2.1; logoUrl, coverImageUrl and website are null when the church has none. */
export interface ChurchProfile {
  slug: string;
  name: string;
  bio: string;
  denomination: string;
  logoUrl: string | null;
  coverImageUrl: string | null;
  city: string;
  /** ISO 3166-1 alpha-2, upper case ("FR"). */
  country: string;
  /** BCP 47 language code ("fr", "pt-BR"). */
  language: string;
  website: string | null;
  /** `{PUBLIC_SITE_URL}/{slug}`. */
  publicPage: string;
}

/**
 * Endpoint 2 returns `ChurchEvent[]` (no envelope): published and public events that have not
 * ended in the church's own time zone, sorted by startDate then name, at most 50.
 */
export interface ChurchEvent {
  name: string;
  slug: string;
  description: string;
  /** Local wall time of the church, `YYYY-MM-DDTHH:MM`, no seconds, no offset. */
  startDate: string;
  /** Same form; null when the event has no end time (it then counts as ending at its start). */
  endDate: string | null;
  location: string;
  coverImageUrl: string | null;
  isFree: boolean;
  /** The church's ticketing page if it has one, else `{PUBLIC_SITE_URL}/{slug}/events/{eventSlug}`. */
  registrationPage: string;
}

/**
 * A price for display. `amount` is a decimal string with exactly the currency's minor digits
 * ("12.50" EUR, "1500" JPY) — a string so that no client meets floating-point rounding;
 * `currency` is the ISO 4217 code.
 */
export interface Price {
  amount: string;
  currency: string;
}

/** Endpoint 3 items (paged, newest first). `body` is plain text; paragraphs separated by blank lines. */
export interface Post {
  slug: string;
  title: string;
  body: string;
  imageUrl: string | null;
  /** UTC instant, ISO 8601 `YYYY-MM-DDTHH:MM:SSZ`. */
  publishedAt: string;
  /** `{PUBLIC_SITE_URL}/{slug}/posts/{postSlug}`. */
  postPage: string;
}

/** Endpoint 5 items (paged, in the church's order). */
export interface LibraryItem {
  slug: string;
  /** One of LIBRARY_TYPES: "PDF", "BOOK", "AUDIO". */
  type: LibraryType;
  title: string;
  author: string;
  description: string;
  coverImageUrl: string | null;
  /** True when the item can be read or heard without paying; `price` is then null. */
  isFree: boolean;
  price: Price | null;
  /** `{PUBLIC_SITE_URL}/{slug}/library/{itemSlug}`: where to read, listen or buy. */
  itemPage: string;
}

export interface ProductVariant {
  name: string;
  price: Price;
}

/**
 * Endpoint 6 returns `Product[]` (no envelope, in the church's order): only products visible on
 * the church's public page. A product with variants shows its lowest variant price with
 * `priceIsStartingAt: true` ("from 12.00 EUR"); the variants list their own prices.
 */
export interface Product {
  slug: string;
  name: string;
  description: string;
  imageUrl: string | null;
  price: Price;
  priceIsStartingAt: boolean;
  /** Empty for a product without variants. */
  variants: ProductVariant[];
  /** `{PUBLIC_SITE_URL}/{slug}/store/{productSlug}`. */
  productPage: string;
}

/** Endpoint 7 returns `Album[]` (no envelope, in the church's order): public albums only. */
export interface Album {
  /** Stable identifier of the album within the church (lower-case letters, digits, hyphens); used in endpoint 8's path. */
  albumId: string;
  title: string;
  description: string;
  /** Day the photos were taken, `YYYY-MM-DD`, or null. */
  date: string | null;
  photoCount: number;
  /** The album's cover, else its first photo, else null (an empty album). */
  coverUrl: string | null;
  /** `{PUBLIC_SITE_URL}/{slug}/gallery/{albumId}`. */
  albumPage: string;
}

/** Endpoint 8 returns `Photo[]` (no envelope, in album order). */
export interface Photo {
  url: string;
  /** A smaller rendition, or null. */
  thumbnailUrl: string | null;
  caption: string;
  /** Pixels, or null when unknown. */
  width: number | null;
  height: number | null;
}

/**
 * Endpoint 4. Spec 2.3. Not live: `isLive` false (station fields still given). No station at all:
 * `isLive` false, `isVideo` false, `stationName` and `listenPage` null.
 */
export interface LiveStatus {
  isLive: boolean;
  isVideo: boolean;
  stationName: string | null;
  /** The church's player page if it has one, else `{PUBLIC_SITE_URL}/{slug}/live`. */
  listenPage: string | null;
}
