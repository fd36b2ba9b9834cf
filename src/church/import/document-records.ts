// A checked import document → the records the repository writes: defaults filled in, times resolved, amounts in minor units.
import { amountToMinor } from '../money.ts';
import type { ChurchImportRecord, MoneyRecord } from '../records.ts';
import type { ChurchDocument, ChurchImportDocument } from './document.ts';
import { localToday, resolveLocalDateTime } from './relative-time.ts';

/**
 * The records of a document that passed every check of validate.ts. Relative event times
 * ("today+3T19:30") are resolved against `now` in each church's own zone; fields left out become
 * empty strings (text) or null (everything else).
 */
export function documentRecords(document: ChurchImportDocument, now: Date): ChurchImportRecord[] {
  return document.churches.map((church) => churchRecord(church, now));
}

function churchRecord(church: ChurchDocument, now: Date): ChurchImportRecord {
  const today = localToday(now, church.timeZone);
  const localTime = (value: string) => checked(resolveLocalDateTime(value, today), value);
  return {
    church: {
      slug: church.slug,
      name: church.name,
      bio: church.bio ?? '',
      denomination: church.denomination ?? '',
      logoUrl: church.logoUrl ?? null,
      coverImageUrl: church.coverImageUrl ?? null,
      city: church.city,
      country: church.country,
      language: church.language,
      website: church.website ?? null,
      timeZone: church.timeZone,
      isPublic: church.isPublic,
    },
    events: (church.events ?? []).map((event) => ({
      slug: event.slug,
      name: event.name,
      description: event.description ?? '',
      startLocal: localTime(event.start),
      endLocal: event.end === undefined ? null : localTime(event.end),
      location: event.location ?? '',
      coverImageUrl: event.coverImageUrl ?? null,
      isFree: event.isFree,
      registrationUrl: event.registrationUrl ?? null,
      isPublished: event.isPublished,
      isPublic: event.isPublic,
    })),
    posts: (church.posts ?? []).map((post) => ({
      slug: post.slug,
      title: post.title,
      body: post.body ?? '',
      imageUrl: post.imageUrl ?? null,
      publishedAt: post.publishedAt,
      isPublic: post.isPublic,
    })),
    library: (church.library ?? []).map((item) => ({
      slug: item.slug,
      type: item.type,
      title: item.title,
      author: item.author ?? '',
      description: item.description ?? '',
      coverImageUrl: item.coverImageUrl ?? null,
      price: item.price === undefined ? null : money(item.price.amount, item.price.currency),
      isPublic: item.isPublic,
    })),
    products: (church.products ?? []).map((product) => ({
      slug: product.slug,
      name: product.name,
      description: product.description ?? '',
      imageUrl: product.imageUrl ?? null,
      currency: product.currency,
      priceMinor: product.price === undefined ? null : money(product.price, product.currency).amountMinor,
      variants: (product.variants ?? []).map((variant) => ({ name: variant.name, price: money(variant.price, product.currency) })),
      visibleOnPublicPage: product.visibleOnPublicPage,
    })),
    albums: (church.albums ?? []).map((album) => ({
      albumId: album.albumId,
      title: album.title,
      description: album.description ?? '',
      date: album.date ?? null,
      coverUrl: album.coverUrl ?? null,
      isPublic: album.isPublic,
      photos: (album.photos ?? []).map((photo) => ({
        url: photo.url,
        thumbnailUrl: photo.thumbnailUrl ?? null,
        caption: photo.caption ?? '',
        width: photo.width ?? null,
        height: photo.height ?? null,
      })),
    })),
    live:
      church.live === undefined
        ? null
        : {
            stationName: church.live.stationName,
            listenUrl: church.live.listenUrl ?? null,
            isVideo: church.live.isVideo,
            isLive: church.live.isLive,
          },
  };
}

function money(amount: string, currency: string): MoneyRecord {
  return { amountMinor: checked(amountToMinor(amount, currency), amount), currency };
}

/** A value validate.ts has already checked; undefined here is a bug, not bad input. */
function checked<T>(value: T | undefined, source: string): T {
  if (value === undefined) throw new Error(`import document value "${source}" was not checked before reading`);
  return value;
}
