// Church records: what the repository takes and returns (domain values, never database rows or response bodies).

/** Allowed values of a library item's `type`; the `type` query filter matches them case-insensitively. */
export const LIBRARY_TYPES = ['PDF', 'BOOK', 'AUDIO'] as const;
/** PDF: a document to read or download; BOOK: a printed book or e-book; AUDIO: a recording (sermon series, audiobook). */
export type LibraryType = (typeof LIBRARY_TYPES)[number];

/** A sum of money in minor units of an ISO 4217 currency (1250 + EUR = 12.50 €). */
export interface MoneyRecord {
  amountMinor: number;
  currency: string;
}

export interface ChurchRecord {
  id: number;
  slug: string;
  name: string;
  bio: string;
  denomination: string;
  logoUrl: string | null;
  coverImageUrl: string | null;
  city: string;
  country: string;
  language: string;
  website: string | null;
  /** IANA zone; internal, never in a response. */
  timeZone: string;
  isPublic: boolean;
}

export interface EventRecord {
  slug: string;
  name: string;
  description: string;
  /** Local wall time in the church's zone, `YYYY-MM-DDTHH:MM`. */
  startLocal: string;
  endLocal: string | null;
  location: string;
  coverImageUrl: string | null;
  isFree: boolean;
  /** External ticketing page, or null for the event's page on the public site. */
  registrationUrl: string | null;
}

export interface PostRecord {
  slug: string;
  title: string;
  body: string;
  imageUrl: string | null;
  /** UTC instant, `YYYY-MM-DDTHH:MM:SSZ`. */
  publishedAt: string;
}

export interface LibraryItemRecord {
  slug: string;
  type: LibraryType;
  title: string;
  author: string;
  description: string;
  coverImageUrl: string | null;
  /** Null: free. */
  price: MoneyRecord | null;
}

export interface ProductVariantRecord {
  name: string;
  price: MoneyRecord;
}

export interface ProductRecord {
  slug: string;
  name: string;
  description: string;
  imageUrl: string | null;
  /** Own price of a product without variants; the lowest variant price of one with variants. */
  price: MoneyRecord;
  /** True when the product has variants: `price` is then a "starting at" price. */
  priceIsStartingAt: boolean;
  /** In display order; empty for a product without variants. */
  variants: ProductVariantRecord[];
}

export interface AlbumRecord {
  albumId: string;
  title: string;
  description: string;
  /** `YYYY-MM-DD`, or null. */
  date: string | null;
  /** The album's own cover, else its first photo, else null. */
  coverUrl: string | null;
  photoCount: number;
}

export interface PhotoRecord {
  url: string;
  thumbnailUrl: string | null;
  caption: string;
  width: number | null;
  height: number | null;
}

export interface LiveStationRecord {
  stationName: string;
  /** External player page, or null for the church's live page on the public site. */
  listenUrl: string | null;
  isVideo: boolean;
  isLive: boolean;
}

/** One page of records plus the total, before shaping. */
export interface RecordPage<T> {
  records: T[];
  totalItems: number;
}

/** Row counts of the church tables (CLI `counts`, demo loading). */
export interface ChurchDataCounts {
  churches: number;
  publicChurches: number;
  events: number;
  posts: number;
  libraryItems: number;
  products: number;
  productVariants: number;
  albums: number;
  photos: number;
  liveStations: number;
}

// ─── The import, after validation (src/church/import/validate.ts → repository) ──

/** One church and everything it owns, validated from an import document (import/document.ts); dates already resolved to absolute values. */
export interface ChurchImportRecord {
  church: Omit<ChurchRecord, 'id'>;
  events: (EventRecord & { isPublished: boolean; isPublic: boolean })[];
  posts: (PostRecord & { isPublic: boolean })[];
  library: (LibraryItemRecord & { isPublic: boolean })[];
  products: (Omit<ProductRecord, 'price' | 'priceIsStartingAt'> & {
    currency: string;
    priceMinor: number | null;
    visibleOnPublicPage: boolean;
  })[];
  albums: {
    albumId: string;
    title: string;
    description: string;
    date: string | null;
    coverUrl: string | null;
    isPublic: boolean;
    photos: PhotoRecord[];
  }[];
  live: LiveStationRecord | null;
}

/** What an import wrote. `replaced`: churches that existed (by slug) and were replaced whole. */
export interface ImportSummary {
  churches: number;
  replaced: number;
  events: number;
  posts: number;
  libraryItems: number;
  products: number;
  albums: number;
  photos: number;
  liveStations: number;
}

/** An import's summary before anything is written: both backends' writers count from it. */
export function emptyImportSummary(): ImportSummary {
  return { churches: 0, replaced: 0, events: 0, posts: 0, libraryItems: 0, products: 0, albums: 0, photos: 0, liveStations: 0 };
}
