// Church rows as both backends SELECT them (sqlite/read-statements.ts, postgres-repository.ts) → the records the repository returns.
import type {
  AlbumRecord,
  ChurchRecord,
  EventRecord,
  LibraryItemRecord,
  LibraryType,
  LiveStationRecord,
  MoneyRecord,
  PhotoRecord,
  PostRecord,
  ProductRecord,
  ProductVariantRecord,
} from './records.ts';

// ─── Row shapes, exactly as SELECTed ─────────────────────────────────────────

/** A yes/no column: SQLite stores 0 or 1, PostgreSQL a boolean. */
export type Flag = 0 | 1 | boolean;

export interface ChurchRow {
  id: number;
  slug: string;
  name: string;
  bio: string;
  denomination: string;
  logo_url: string | null;
  cover_image_url: string | null;
  city: string;
  country: string;
  language: string;
  website: string | null;
  time_zone: string;
  is_public: Flag;
}

export interface EventRow {
  slug: string;
  name: string;
  description: string;
  start_local: string;
  end_local: string | null;
  location: string;
  cover_image_url: string | null;
  is_free: Flag;
  registration_url: string | null;
}

export interface PostRow {
  slug: string;
  title: string;
  body: string;
  image_url: string | null;
  published_at: string;
}

export interface LibraryRow {
  slug: string;
  type: LibraryType;
  title: string;
  author: string;
  description: string;
  cover_image_url: string | null;
  price_minor: number | null;
  currency: string | null;
}

export interface ProductRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  image_url: string | null;
  currency: string;
  price_minor: number | null;
}

export interface VariantRow {
  product_id: number;
  name: string;
  price_minor: number;
}

export interface AlbumRow {
  album_key: string;
  title: string;
  description: string;
  taken_on: string | null;
  cover_url: string | null;
  photo_count: number;
}

export interface PhotoRow {
  url: string;
  thumbnail_url: string | null;
  caption: string;
  width: number | null;
  height: number | null;
}

export interface LiveRow {
  station_name: string;
  listen_url: string | null;
  is_video: Flag;
  is_live: Flag;
}

export interface IdRow {
  id: number;
}

export interface CountRow {
  n: number;
}

export function toChurch(row: ChurchRow): ChurchRecord {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    bio: row.bio,
    denomination: row.denomination,
    logoUrl: row.logo_url,
    coverImageUrl: row.cover_image_url,
    city: row.city,
    country: row.country,
    language: row.language,
    website: row.website,
    timeZone: row.time_zone,
    isPublic: isSet(row.is_public),
  };
}

export function toEvent(row: EventRow): EventRecord {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    startLocal: row.start_local,
    endLocal: row.end_local,
    location: row.location,
    coverImageUrl: row.cover_image_url,
    isFree: isSet(row.is_free),
    registrationUrl: row.registration_url,
  };
}

export function toPost(row: PostRow): PostRecord {
  return { slug: row.slug, title: row.title, body: row.body, imageUrl: row.image_url, publishedAt: row.published_at };
}

export function toLibraryItem(row: LibraryRow): LibraryItemRecord {
  return {
    slug: row.slug,
    type: row.type,
    title: row.title,
    author: row.author,
    description: row.description,
    coverImageUrl: row.cover_image_url,
    price: row.price_minor !== null && row.currency !== null ? { amountMinor: row.price_minor, currency: row.currency } : null,
  };
}

export function toProduct(row: ProductRow, variants: VariantRow[]): ProductRecord {
  const money = (amountMinor: number): MoneyRecord => ({ amountMinor, currency: row.currency });
  const variantRecords: ProductVariantRecord[] = variants.map((variant) => ({ name: variant.name, price: money(variant.price_minor) }));
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    imageUrl: row.image_url,
    // The import refuses a product with neither a price nor variants; 0 is never reached in practice.
    price: variantRecords.length > 0 ? lowestPrice(variantRecords) : money(row.price_minor ?? 0),
    priceIsStartingAt: variantRecords.length > 0,
    variants: variantRecords,
  };
}

function lowestPrice(variants: ProductVariantRecord[]): MoneyRecord {
  return variants.reduce((low, variant) => (variant.price.amountMinor < low.amountMinor ? variant.price : low), variants[0].price);
}

export function toAlbum(row: AlbumRow): AlbumRecord {
  return {
    albumId: row.album_key,
    title: row.title,
    description: row.description,
    date: row.taken_on,
    coverUrl: row.cover_url,
    photoCount: row.photo_count,
  };
}

export function toPhoto(row: PhotoRow): PhotoRecord {
  return { url: row.url, thumbnailUrl: row.thumbnail_url, caption: row.caption, width: row.width, height: row.height };
}

export function toLiveStation(row: LiveRow): LiveStationRecord {
  return { stationName: row.station_name, listenUrl: row.listen_url, isVideo: isSet(row.is_video), isLive: isSet(row.is_live) };
}

function isSet(flag: Flag): boolean {
  return flag === 1 || flag === true;
}
