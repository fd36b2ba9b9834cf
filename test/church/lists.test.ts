// Posts and library paging, library type filter, store prices, gallery and photos, live status — over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Album, LibraryItem, LiveStatus, Photo, Post, Product } from '../../src/church/responses.ts';
import type { PageEnvelope } from '../../src/http/paging.ts';
import { CHURCHES, type ChurchApi, startChurchApi } from './church-api.ts';

let api: ChurchApi;
beforeAll(async () => {
  api = await startChurchApi();
});
afterAll(async () => {
  await api.close();
});

/** Public posts of grace-paris in the demo data: 62 written, 5 of them not public (every 13th from the 6th). */
const PARIS_PUBLIC_POSTS = 57;

describe('posts paging', () => {
  it('defaults to page 0, size 10, newest first, in the exact envelope', async () => {
    const body = await api.json<PageEnvelope<Post>>('grace-paris/posts');
    expect(Object.keys(body)).toEqual(['items', 'page', 'size', 'totalItems', 'totalPages']);
    expect(body).toMatchObject({ page: 0, size: 10, totalItems: PARIS_PUBLIC_POSTS, totalPages: 6 });
    expect(body.items).toHaveLength(10);
    expect(Object.keys(body.items[0])).toEqual(['slug', 'title', 'body', 'imageUrl', 'publishedAt', 'postPage']);
    const dates = body.items.map((post) => post.publishedAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(body.items[0].postPage).toBe(`https://churches.example.org/grace-paris/posts/${body.items[0].slug}`);
  });

  it('walks every page once: no post twice, none missing, private ones absent', async () => {
    const seen: string[] = [];
    for (let page = 0; page < 6; page++) {
      const body = await api.json<PageEnvelope<Post>>(`grace-paris/posts?page=${page}&size=10`);
      seen.push(...body.items.map((post) => post.slug));
    }
    expect(seen).toHaveLength(PARIS_PUBLIC_POSTS);
    expect(new Set(seen).size).toBe(PARIS_PUBLIC_POSTS);
    expect(seen).not.toContain('annonce-006');
  });

  it('accepts size 50 and size 1', async () => {
    const fifty = await api.json<PageEnvelope<Post>>('grace-paris/posts?size=50');
    expect(fifty.items).toHaveLength(50);
    expect(fifty.totalPages).toBe(2);
    const one = await api.json<PageEnvelope<Post>>('grace-paris/posts?size=1&page=56');
    expect(one.items).toHaveLength(1);
    expect(one.totalPages).toBe(PARIS_PUBLIC_POSTS);
  });

  it('answers a page past the end with 200 and empty items', async () => {
    const body = await api.json<PageEnvelope<Post>>('grace-paris/posts?page=6');
    expect(body).toEqual({ items: [], page: 6, size: 10, totalItems: PARIS_PUBLIC_POSTS, totalPages: 6 });
    const far = await api.json<PageEnvelope<Post>>('grace-paris/posts?page=1000000');
    expect(far.items).toEqual([]);
  });

  it('answers an empty first page for a church without posts', async () => {
    expect(await api.json('iglesia-betel-la/posts')).toEqual({ items: [], page: 0, size: 10, totalItems: 0, totalPages: 0 });
  });

  const invalid: [string, string][] = [
    ['size=51', 'size'],
    ['size=0', 'size'],
    ['size=-1', 'size'],
    ['size=abc', 'size'],
    ['size=1.5', 'size'],
    ['size=', 'size'],
    ['size=10&size=20', 'size'],
    ['size=%2050', 'size'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1e3', 'page'],
    ['page=99999999999999999999', 'page'],
    ['page=1000001', 'page'],
  ];
  for (const [query, parameter] of invalid) {
    it(`answers 400 naming ${parameter} for ?${query}, on posts and library`, async () => {
      for (const endpoint of ['posts', 'library']) {
        const response = await api.request(`${CHURCHES}/grace-paris/${endpoint}?${query}`);
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        const problem = (await response.json()) as { parameter: string; detail: string; status: number };
        expect(problem.status).toBe(400);
        expect(problem.parameter).toBe(parameter);
        expect(problem.detail).toContain(parameter);
      }
    });
  }

  it('checks the church before the parameters: a hidden church with a bad size is still 404', async () => {
    const response = await api.request(`${CHURCHES}/stille-kapel-utrecht/posts?size=500`);
    expect(response.status).toBe(404);
  });
});

describe('library', () => {
  it("lists public PDFs, books and audio in the church's order with prices or free", async () => {
    const body = await api.json<PageEnvelope<LibraryItem>>('grace-paris/library');
    expect(body.totalItems).toBe(5);
    expect(body.items.map((item) => item.slug)).not.toContain('brouillon-livret');
    expect(Object.keys(body.items[0])).toEqual([
      'slug',
      'type',
      'title',
      'author',
      'description',
      'coverImageUrl',
      'isFree',
      'price',
      'itemPage',
    ]);
    const book = body.items.find((item) => item.slug === 'la-grace-au-quotidien')!;
    expect(book).toMatchObject({ type: 'BOOK', isFree: false, price: { amount: '14.90', currency: 'EUR' } });
    const pdf = body.items.find((item) => item.slug === 'guide-du-nouveau-venu')!;
    expect(pdf).toMatchObject({
      type: 'PDF',
      isFree: true,
      price: null,
      itemPage: 'https://churches.example.org/grace-paris/library/guide-du-nouveau-venu',
    });
  });

  it('filters by type, case-insensitively, with totals for the filter', async () => {
    for (const type of ['PDF', 'pdf', 'Pdf']) {
      const body = await api.json<PageEnvelope<LibraryItem>>(`grace-paris/library?type=${type}`);
      expect(body.totalItems).toBe(2);
      expect(body.items.every((item) => item.type === 'PDF')).toBe(true);
    }
    const books = await api.json<PageEnvelope<LibraryItem>>('grace-paris/library?type=book&size=1&page=1');
    expect(books).toMatchObject({ page: 1, size: 1, totalItems: 2, totalPages: 2 });
    expect(books.items[0].type).toBe('BOOK');
    const audio = await api.json<PageEnvelope<LibraryItem>>('grace-paris/library?type=audio');
    expect(audio.items.map((item) => item.slug)).toEqual(['serie-romains']);
  });

  it('answers 400 for an unknown type, listing the allowed values', async () => {
    for (const type of ['video', '', 'PDF,BOOK']) {
      const response = await api.request(`${CHURCHES}/grace-paris/library?type=${encodeURIComponent(type)}`);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { parameter: string; detail: string };
      expect(problem.parameter).toBe('type');
      expect(problem.detail).toContain('PDF, BOOK, AUDIO');
    }
  });
});

describe('store', () => {
  it('lists only products visible on the public page, with exact fields and product pages', async () => {
    const products = await api.json<Product[]>('grace-paris/store');
    expect(products.map((product) => product.slug)).toEqual(['tasse-grace', 't-shirt-grace', 'recueil-de-chants']);
    for (const product of products) {
      expect(Object.keys(product)).toEqual([
        'slug',
        'name',
        'description',
        'imageUrl',
        'price',
        'priceIsStartingAt',
        'variants',
        'productPage',
      ]);
      expect(product.productPage).toBe(`https://churches.example.org/grace-paris/store/${product.slug}`);
    }
  });

  it('gives a product without variants its own price, not "starting at"', async () => {
    const products = await api.json<Product[]>('grace-paris/store');
    const mug = products.find((product) => product.slug === 'tasse-grace')!;
    expect(mug.price).toEqual({ amount: '8.50', currency: 'EUR' });
    expect(mug.priceIsStartingAt).toBe(false);
    expect(mug.variants).toEqual([]);
  });

  it('gives a product with variants its lowest variant price as a "starting at" price', async () => {
    const products = await api.json<Product[]>('grace-paris/store');
    const shirt = products.find((product) => product.slug === 't-shirt-grace')!;
    expect(shirt.price).toEqual({ amount: '12.00', currency: 'EUR' });
    expect(shirt.priceIsStartingAt).toBe(true);
    expect(shirt.variants).toEqual([
      { name: 'S', price: { amount: '15.00', currency: 'EUR' } },
      { name: 'M', price: { amount: '15.00', currency: 'EUR' } },
      { name: 'XL', price: { amount: '17.00', currency: 'EUR' } },
      { name: 'Enfant', price: { amount: '12.00', currency: 'EUR' } },
    ]);
    const brazil = await api.json<Product[]>('igreja-esperanca-sp/store');
    expect(brazil[0]).toMatchObject({ price: { amount: '45.00', currency: 'BRL' }, priceIsStartingAt: true });
  });

  it('answers an empty array for a church with no products', async () => {
    expect(await api.json('harbour-light-auckland/store')).toEqual([]);
  });
});

describe('gallery and photos', () => {
  it('lists public albums with id, count, cover and page', async () => {
    const albums = await api.json<Album[]>('grace-paris/gallery');
    expect(albums.map((album) => album.albumId)).toEqual(['paques-2026', 'fete-de-rentree']);
    expect(Object.keys(albums[0])).toEqual(['albumId', 'title', 'description', 'date', 'photoCount', 'coverUrl', 'albumPage']);
    expect(albums[0]).toMatchObject({
      photoCount: 5,
      date: '2026-04-05',
      coverUrl: 'https://images.example.org/demo/grace-paris/paques/1.jpg',
    });
    expect(albums[1]).toMatchObject({ photoCount: 3, coverUrl: 'https://images.example.org/demo/grace-paris/rentree/cover.jpg' });
    const empty = await api.json<Album[]>('harbour-light-auckland/gallery');
    expect(empty).toEqual([
      {
        albumId: 'empty-album',
        title: 'Coming soon',
        description: '',
        date: null,
        photoCount: 0,
        coverUrl: null,
        albumPage: 'https://churches.example.org/harbour-light-auckland/gallery/empty-album',
      },
    ]);
  });

  it('lists the photos of an album in order', async () => {
    const photos = await api.json<Photo[]>('grace-paris/gallery/paques-2026/photos');
    expect(photos).toHaveLength(5);
    expect(Object.keys(photos[0])).toEqual(['url', 'thumbnailUrl', 'caption', 'width', 'height']);
    expect(photos.map((photo) => photo.caption)).toEqual(['Photo 1', 'Photo 2', 'Photo 3', 'Photo 4', 'Photo 5']);
    expect(await api.json('harbour-light-auckland/gallery/empty-album/photos')).toEqual([]);
  });

  it("answers 404 for another church's album, a private album, an unknown album, and an album of a hidden church", async () => {
    for (const path of [
      'igreja-esperanca-sp/gallery/paques-2026/photos',
      'grace-paris/gallery/batismos-2026/photos',
      'grace-paris/gallery/album-prive/photos',
      'grace-paris/gallery/no-such-album/photos',
      'grace-paris/gallery/%00/photos',
      'stille-kapel-utrecht/gallery/kerst/photos',
    ]) {
      const response = await api.request(`${CHURCHES}/${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    }
  });
});

describe('live status', () => {
  it('a church live on video', async () => {
    expect(await api.json<LiveStatus>('grace-paris/live')).toEqual({
      isLive: true,
      isVideo: true,
      stationName: 'Grâce TV',
      listenPage: 'https://live.example.org/grace-paris',
    });
  });

  it('a church live on radio', async () => {
    expect(await api.json<LiveStatus>('igreja-esperanca-sp/live')).toEqual({
      isLive: true,
      isVideo: false,
      stationName: 'Rádio Esperança FM',
      listenPage: 'https://radio.example.org/esperanca',
    });
  });

  it('a church with a station that is not live: isLive false, station still named', async () => {
    const body = await api.json<LiveStatus>('harbour-light-auckland/live');
    expect(body).toEqual({
      isLive: false,
      isVideo: false,
      stationName: 'Harbour Light Radio',
      listenPage: 'https://radio.example.org/harbour-light',
    });
  });

  it('a church with no station: isLive false, stationName and listenPage null', async () => {
    expect(await api.json<LiveStatus>('iglesia-betel-la/live')).toEqual({
      isLive: false,
      isVideo: false,
      stationName: null,
      listenPage: null,
    });
  });
});
