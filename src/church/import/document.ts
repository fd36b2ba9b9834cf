// The church import document as the operator writes it (data/demo/churches.json is one): the JSON format, as types.
//
// validate.ts reads a document of this shape into ChurchImportRecords (src/church/records.ts),
// naming the record and field of every fault. Optional fields may be left out or null. Keys
// starting with "$" ("$comment") are allowed on every object and ignored; any other unknown key
// is refused, so a misspelt optional field cannot vanish silently.
import type { LibraryType } from '../records.ts';

/** Keys such as "$comment", allowed anywhere and ignored. */
type Annotations = { [annotation: `$${string}`]: unknown };

export type ChurchImportDocument = Annotations & {
  /** Imported in one transaction; a church whose slug exists is replaced whole. Slugs are unique in the document. */
  churches: ChurchDocument[];
};

export type ChurchDocument = Annotations & {
  /** Lower-case letters, digits and hyphens, 1-100 characters, not starting or ending with a hyphen. */
  slug: string;
  name: string;
  bio?: string | null;
  denomination?: string | null;
  logoUrl?: string | null;
  coverImageUrl?: string | null;
  city: string;
  /** ISO 3166-1 alpha-2, upper case ("FR"). */
  country: string;
  /** BCP 47 language code ("fr", "pt-BR"). */
  language: string;
  website?: string | null;
  /** IANA time zone ("Europe/Paris"): event times are wall times in it. */
  timeZone: string;
  isPublic: boolean;
  /** Slugs unique within the church, as for every list below (albums by albumId, variants by name). */
  events?: EventDocument[] | null;
  posts?: PostDocument[] | null;
  /** In display order. */
  library?: LibraryItemDocument[] | null;
  /** In display order. */
  products?: ProductDocument[] | null;
  /** In display order. */
  albums?: AlbumDocument[] | null;
  live?: LiveStationDocument | null;
};

/**
 * A local wall time in the church's zone: absolute "2026-12-24T19:30", or relative to the import
 * day in that zone, "today+3T19:30", "today-1T09:00", "todayT10:00" (so demo data stays upcoming).
 */
export type LocalDateTimeText = string;

/** A non-negative decimal amount with at most the currency's minor digits: "12.50" EUR, "1500" JPY. */
export type AmountText = string;

export type EventDocument = Annotations & {
  slug: string;
  name: string;
  description?: string | null;
  start: LocalDateTimeText;
  /** Not before `start`; without one the event ends at its start. */
  end?: LocalDateTimeText | null;
  location?: string | null;
  coverImageUrl?: string | null;
  isFree: boolean;
  /** External ticketing page; without one, the event's page on the public site. */
  registrationUrl?: string | null;
  isPublished: boolean;
  isPublic: boolean;
};

export type PostDocument = Annotations & {
  slug: string;
  title: string;
  /** Plain text; paragraphs separated by blank lines. */
  body?: string | null;
  imageUrl?: string | null;
  /** UTC instant "2026-01-31T09:00:00Z". */
  publishedAt: string;
  isPublic: boolean;
};

export type LibraryItemDocument = Annotations & {
  slug: string;
  type: LibraryType;
  title: string;
  author?: string | null;
  description?: string | null;
  coverImageUrl?: string | null;
  /** Left out or null: free. */
  price?: MoneyDocument | null;
  isPublic: boolean;
};

export type MoneyDocument = Annotations & {
  amount: AmountText;
  /** ISO 4217 ("EUR"). */
  currency: string;
};

export type ProductDocument = Annotations & {
  slug: string;
  name: string;
  description?: string | null;
  imageUrl?: string | null;
  /** ISO 4217, for the price and every variant's price. */
  currency: string;
  /** Required without variants, refused with them (each variant has its price). */
  price?: AmountText | null;
  variants?: ProductVariantDocument[] | null;
  visibleOnPublicPage: boolean;
};

export type ProductVariantDocument = Annotations & {
  name: string;
  price: AmountText;
};

export type AlbumDocument = Annotations & {
  /** A slug; the album's id in endpoint 8's path. */
  albumId: string;
  title: string;
  description?: string | null;
  /** "YYYY-MM-DD". */
  date?: string | null;
  /** Without one, the first photo is the cover. */
  coverUrl?: string | null;
  isPublic: boolean;
  /** In album order. */
  photos?: PhotoDocument[] | null;
};

export type PhotoDocument = Annotations & {
  url: string;
  thumbnailUrl?: string | null;
  caption?: string | null;
  /** Pixels, positive whole numbers. */
  width?: number | null;
  height?: number | null;
};

export type LiveStationDocument = Annotations & {
  stationName: string;
  /** External player page; without one, the church's live page on the public site. */
  listenUrl?: string | null;
  isVideo: boolean;
  isLive: boolean;
};
