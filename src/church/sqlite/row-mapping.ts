// Church rows as SELECTed (read-statements.ts) → the records the repository returns.
import type {
  AlbumRecord,
  ChurchRecord,
  EventRecord,
  LibraryItemRecord,
  LiveStationRecord,
  MoneyRecord,
  PhotoRecord,
  PostRecord,
  ProductRecord,
  ProductVariantRecord,
} from '../records.ts';
import type { AlbumRow, ChurchRow, EventRow, LibraryRow, LiveRow, PhotoRow, PostRow, ProductRow, VariantRow } from './read-statements.ts';

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
    isPublic: row.is_public === 1,
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
    isFree: row.is_free === 1,
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
  return { stationName: row.station_name, listenUrl: row.listen_url, isVideo: row.is_video === 1, isLive: row.is_live === 1 };
}
