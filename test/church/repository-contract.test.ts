// The ChurchRepository contract, written once against the interface and run on both backends (SQLite, PostgreSQL).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateChurchDocument } from '../../src/church/import/validate.ts';
import { createPostgresChurchRepository } from '../../src/church/postgres-repository.ts';
import type { ChurchImportRecord } from '../../src/church/records.ts';
import type { ChurchRepository } from '../../src/church/repository.ts';
import { createSqliteChurchRepository } from '../../src/church/sqlite-repository.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { churchDocument } from './church-api.ts';

interface RepositoryUnderTest {
  repository: ChurchRepository;
  close(): void | Promise<void>;
}

/** Runs the contract against one implementation; `create` gives an empty, migrated store each time. */
function describeChurchRepositoryContract(name: string, create: () => RepositoryUnderTest | Promise<RepositoryUnderTest>): void {
  describe(`ChurchRepository contract: ${name}`, () => {
    let subject: RepositoryUnderTest;
    let churches: ChurchRepository;
    const now = new Date('2026-06-15T00:30:00Z');

    beforeEach(async () => {
      subject = await create();
      churches = subject.repository;
      const event = (slug: string, start: string, end: string | null, extra: Record<string, unknown> = {}) => ({
        slug,
        name: slug,
        start,
        ...(end ? { end } : {}),
        isFree: true,
        isPublished: true,
        isPublic: true,
        ...extra,
      });
      await churches.importChurches(
        validateChurchDocument(
          {
            churches: [
              churchDocument('open', {
                timeZone: 'Pacific/Auckland',
                events: [
                  event('ended', '2026-06-15T11:00', '2026-06-15T12:00'),
                  event('b-later', '2026-06-15T13:00', null),
                  event('a-later', '2026-06-15T13:00', null),
                  event('draft', '2026-06-16T13:00', null, { isPublished: false }),
                  event('private', '2026-06-16T13:00', null, { isPublic: false }),
                ],
                posts: Array.from({ length: 7 }, (_, index) => ({
                  slug: `post-${index}`,
                  title: `Post ${index}`,
                  publishedAt: `2026-01-0${index + 1}T00:00:00Z`,
                  isPublic: index !== 3,
                })),
                library: [
                  { slug: 'pdf', type: 'PDF', title: 'P', isPublic: true },
                  { slug: 'book', type: 'BOOK', title: 'B', price: { amount: '5', currency: 'EUR' }, isPublic: true },
                  { slug: 'hidden', type: 'PDF', title: 'H', isPublic: false },
                ],
                products: [
                  {
                    slug: 'shown',
                    name: 'S',
                    currency: 'JPY',
                    variants: [
                      { name: 'big', price: '1500' },
                      { name: 'small', price: '900' },
                    ],
                    visibleOnPublicPage: true,
                  },
                  { slug: 'not-shown', name: 'N', currency: 'EUR', price: '1.00', visibleOnPublicPage: false },
                ],
                albums: [
                  {
                    albumId: 'public',
                    title: 'Public',
                    isPublic: true,
                    photos: [{ url: 'https://example.org/1.jpg' }, { url: 'https://example.org/2.jpg' }],
                  },
                  { albumId: 'private', title: 'Private', isPublic: false, photos: [{ url: 'https://example.org/3.jpg' }] },
                ],
                live: { stationName: 'Radio', isVideo: false, isLive: true },
              }),
              churchDocument('closed', { isPublic: false, albums: [{ albumId: 'public', title: 'X', isPublic: true }] }),
            ],
          },
          { now },
        ),
      );
    });
    afterEach(() => subject.close());

    it('finds public churches only', async () => {
      expect(await churches.publicChurchBySlug('open')).toMatchObject({ slug: 'open', timeZone: 'Pacific/Auckland', isPublic: true });
      expect(await churches.publicChurchBySlug('closed')).toBeUndefined();
      expect(await churches.publicChurchBySlug('nowhere')).toBeUndefined();
    });

    it('lists upcoming events in the church zone, published and public only, by start then name, capped', async () => {
      const church = (await churches.publicChurchBySlug('open'))!;
      expect((await churches.upcomingEvents(church, now, 50)).map((event) => event.slug)).toEqual(['a-later', 'b-later']);
      expect((await churches.upcomingEvents(church, now, 1)).map((event) => event.slug)).toEqual(['a-later']);
    });

    it('pages public posts newest first with the total', async () => {
      const church = (await churches.publicChurchBySlug('open'))!;
      const first = await churches.postsPage(church.id, { page: 0, size: 4 });
      expect(first.totalItems).toBe(6);
      expect(first.records.map((post) => post.slug)).toEqual(['post-6', 'post-5', 'post-4', 'post-2']);
      const past = await churches.postsPage(church.id, { page: 9, size: 4 });
      expect(past).toEqual({ records: [], totalItems: 6 });
    });

    it('pages public library items, optionally of one type', async () => {
      const church = (await churches.publicChurchBySlug('open'))!;
      expect((await churches.libraryPage(church.id, { page: 0, size: 10 })).totalItems).toBe(2);
      const books = await churches.libraryPage(church.id, { page: 0, size: 10 }, 'BOOK');
      expect(books.records).toEqual([
        {
          slug: 'book',
          type: 'BOOK',
          title: 'B',
          author: '',
          description: '',
          coverImageUrl: null,
          price: { amountMinor: 500, currency: 'EUR' },
        },
      ]);
    });

    it('gives visible products only, a variant product with its lowest price as starting-at', async () => {
      const church = (await churches.publicChurchBySlug('open'))!;
      const products = await churches.visibleProducts(church.id);
      expect(products.map((product) => product.slug)).toEqual(['shown']);
      expect(products[0]).toMatchObject({ price: { amountMinor: 900, currency: 'JPY' }, priceIsStartingAt: true });
    });

    it("gives public albums, and photos only of this church's public albums", async () => {
      const open = (await churches.publicChurchBySlug('open'))!;
      expect(await churches.publicAlbums(open.id)).toEqual([
        { albumId: 'public', title: 'Public', description: '', date: null, coverUrl: 'https://example.org/1.jpg', photoCount: 2 },
      ]);
      expect((await churches.publicAlbumPhotos(open.id, 'public'))!.map((photo) => photo.url)).toEqual([
        'https://example.org/1.jpg',
        'https://example.org/2.jpg',
      ]);
      expect(await churches.publicAlbumPhotos(open.id, 'private')).toBeUndefined();
      expect(await churches.publicAlbumPhotos(open.id + 1000, 'public')).toBeUndefined();
    });

    it('imports all or nothing: a record the database refuses part-way leaves every table as it was', async () => {
      const before = await churches.counts();
      const [valid] = validateChurchDocument(
        {
          churches: [
            churchDocument('rollback-ok', { posts: [{ slug: 'p', title: 'P', publishedAt: '2026-01-01T00:00:00Z', isPublic: true }] }),
          ],
        },
        { now },
      );
      // A record that skipped validation: the country CHECK refuses the second church, after the first was written.
      const refused: ChurchImportRecord = { ...valid, church: { ...valid.church, slug: 'rollback-bad', country: 'fr' } };
      await expect(churches.importChurches([valid, refused])).rejects.toThrow();
      expect(await churches.counts()).toEqual(before);
      expect(await churches.publicChurchBySlug('rollback-ok')).toBeUndefined();
    });

    it('replaces a church of the same slug whole, also when two imports of it run at once', async () => {
      const [renamed] = validateChurchDocument({ churches: [churchDocument('open', { name: 'Renamed' })] }, { now });
      const summaries = await Promise.all([churches.importChurches([renamed]), churches.importChurches([renamed])]);
      expect(summaries.map((summary) => summary.replaced)).toEqual([1, 1]);
      const open = (await churches.publicChurchBySlug('open'))!;
      expect(open.name).toBe('Renamed');
      expect(await churches.upcomingEvents(open, now, 50)).toEqual([]);
      expect(await churches.liveStation(open.id)).toBeUndefined();
      expect(await churches.counts()).toMatchObject({ churches: 2, events: 0, posts: 0, albums: 1, photos: 0, liveStations: 0 });
    });

    it('gives the station, and counts every table', async () => {
      const open = (await churches.publicChurchBySlug('open'))!;
      expect(await churches.liveStation(open.id)).toEqual({ stationName: 'Radio', listenUrl: null, isVideo: false, isLive: true });
      expect(await churches.counts()).toEqual({
        churches: 2,
        publicChurches: 1,
        events: 5,
        posts: 7,
        libraryItems: 3,
        products: 2,
        productVariants: 2,
        albums: 3,
        photos: 3,
        liveStations: 1,
      });
    });
  });
}

describeChurchRepositoryContract('SQLite', () => {
  const db: Db = openDatabase(':memory:');
  return {
    repository: createSqliteChurchRepository(db),
    close: () => {
      db.close();
    },
  };
});

describeWith(['postgres'], 'the church repository on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  describeChurchRepositoryContract('PostgreSQL', async () => {
    const database = await databases.migrated();
    return { repository: createPostgresChurchRepository(database.open()), close: () => database.close() };
  });
});
