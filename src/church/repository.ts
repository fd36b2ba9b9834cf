// The church repository: the one seam between routes and storage (SQLite today, PostgreSQL later).

import type { PageRequest } from '../http/paging.ts';
import type {
  AlbumRecord,
  ChurchDataCounts,
  ChurchImportRecord,
  ChurchRecord,
  EventRecord,
  ImportSummary,
  LibraryItemRecord,
  LibraryType,
  LiveStationRecord,
  PhotoRecord,
  PostRecord,
  ProductRecord,
  RecordPage,
} from './records.ts';

/**
 * Reads of public church data and the bulk import. Every read method returns typed domain records,
 * never database rows, and only what is public: implementations filter visibility themselves, so a
 * route can never forget it. Methods are async so a networked backend can implement the same interface.
 *
 * @example
 * const church = await churches.publicChurchBySlug('grace-paris');
 * if (church) await churches.upcomingEvents(church, new Date(), 50);
 */
export interface ChurchRepository {
  /**
   * The church with this slug if it exists and is public; undefined for unknown and non-public alike.
   * The record may be one the repository keeps and returns again while the data is unchanged
   * (frozen, never to be modified); a new record means the data may have changed.
   */
  publicChurchBySlug(slug: string): Promise<ChurchRecord | undefined>;

  /**
   * Published, public events of the church that have not ended at `now` in the church's own time
   * zone (an event without an end ends at its start); sorted by start, then name; at most `limit`.
   */
  upcomingEvents(church: ChurchRecord, now: Date, limit: number): Promise<EventRecord[]>;

  /** Public posts, newest first (then by slug), one page. */
  postsPage(churchId: number, page: PageRequest): Promise<RecordPage<PostRecord>>;

  /** Public library items in the church's order, optionally of one type, one page. */
  libraryPage(churchId: number, page: PageRequest, type?: LibraryType): Promise<RecordPage<LibraryItemRecord>>;

  /** Products visible on the church's public page, in the church's order, with their variants. */
  visibleProducts(churchId: number): Promise<ProductRecord[]>;

  /** Public albums in the church's order, with photo count and cover. */
  publicAlbums(churchId: number): Promise<AlbumRecord[]>;

  /** Photos of a public album of this church, in album order; undefined when there is no such public album. */
  publicAlbumPhotos(churchId: number, albumId: string): Promise<PhotoRecord[] | undefined>;

  /** The church's station, or undefined when it has none. */
  liveStation(churchId: number): Promise<LiveStationRecord | undefined>;

  /** Row counts of every church table. */
  counts(): Promise<ChurchDataCounts>;

  /**
   * Writes validated churches in one transaction: all or nothing. A church whose slug already
   * exists is replaced whole (its events, posts, library, store, albums and station with it).
   */
  importChurches(records: readonly ChurchImportRecord[]): Promise<ImportSummary>;
}
