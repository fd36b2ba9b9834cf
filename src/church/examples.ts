// Real answers of the church endpoints for the document's examples: the demo church grace-paris (data/demo/churches.json).
import type { PageEnvelope } from '../../build/contract/paging.ts';
import type { Album, ChurchEvent, ChurchProfile, LibraryItem, LiveStatus, Photo, Post, Product } from './responses.ts';

export interface ChurchExamples {
  church: ChurchProfile;
  /** Two of its upcoming events; the demo's event dates move with the day it is loaded. */
  events: ChurchEvent[];
  /** `?size=1` */
  posts: PageEnvelope<Post>;
  live: LiveStatus;
  /** `?size=1` */
  library: PageEnvelope<LibraryItem>;
  /** The first two products: one plain, one with variants. */
  store: Product[];
  albums: Album[];
  /** The first two photos of `paques-2026`. */
  photos: Photo[];
}

const IMAGES = 'https://images.example.org/demo';

/**
 * What the service answers for grace-paris with the demo data loaded, links on `publicSiteUrl`;
 * test/docs/openapi-examples.test.ts compares them with the running service.
 */
export function churchExamples(publicSiteUrl: string): ChurchExamples {
  const page = (...segments: string[]) => [publicSiteUrl, 'grace-paris', ...segments].join('/');
  return {
    church: {
      slug: 'grace-paris',
      name: 'Église Grâce Paris',
      bio: 'Une église protestante évangélique au cœur du 11e arrondissement. Cultes le dimanche à 10 h 30.',
      denomination: 'Évangélique',
      logoUrl: `${IMAGES}/grace-paris/logo.png`,
      coverImageUrl: `${IMAGES}/grace-paris/cover.jpg`,
      city: 'Paris',
      country: 'FR',
      language: 'fr',
      website: 'https://grace-paris.example.org',
      publicPage: page(),
    },
    events: [
      {
        name: 'Concert de louange',
        slug: 'concert-de-louange',
        description: 'Soirée de louange ouverte à tous.',
        startDate: '2026-11-26T20:00',
        endDate: '2026-11-26T22:00',
        location: 'Temple, 12 rue Oberkampf',
        coverImageUrl: `${IMAGES}/events/concert-de-louange.jpg`,
        isFree: true,
        registrationPage: page('events', 'concert-de-louange'),
      },
      {
        name: 'Brocante solidaire',
        slug: 'brocante-solidaire',
        description: 'Vide-grenier dans la cour.',
        startDate: '2026-12-03T09:00',
        endDate: null,
        location: 'Cour du temple',
        coverImageUrl: null,
        isFree: true,
        registrationPage: page('events', 'brocante-solidaire'),
      },
    ],
    posts: {
      items: [
        {
          slug: 'annonce-001',
          title: 'Culte du dimanche — annonce n° 1',
          body: 'Culte du dimanche : informations pratiques pour la semaine.\n\nHoraires et lieu sur notre page publique.',
          imageUrl: `${IMAGES}/posts/annonce-001.jpg`,
          publishedAt: '2026-10-28T08:00:00Z',
          postPage: page('posts', 'annonce-001'),
        },
      ],
      page: 0,
      size: 1,
      totalItems: 57,
      totalPages: 57,
    },
    live: { isLive: true, isVideo: true, stationName: 'Grâce TV', listenPage: 'https://live.example.org/grace-paris' },
    library: {
      items: [
        {
          slug: 'guide-du-nouveau-venu',
          type: 'PDF',
          title: 'Guide du nouveau venu',
          author: "Équipe d'accueil",
          description: "Tout savoir sur la vie de l'église.",
          coverImageUrl: `${IMAGES}/grace-paris/library/guide.jpg`,
          isFree: true,
          price: null,
          itemPage: page('library', 'guide-du-nouveau-venu'),
        },
      ],
      page: 0,
      size: 1,
      totalItems: 5,
      totalPages: 5,
    },
    store: [
      {
        slug: 'tasse-grace',
        name: 'Tasse Grâce',
        description: 'Tasse en céramique.',
        imageUrl: `${IMAGES}/grace-paris/store/tasse.jpg`,
        price: { amount: '8.50', currency: 'EUR' },
        priceIsStartingAt: false,
        variants: [],
        productPage: page('store', 'tasse-grace'),
      },
      {
        slug: 't-shirt-grace',
        name: 'T-shirt Grâce',
        description: 'Coton bio.',
        imageUrl: `${IMAGES}/grace-paris/store/t-shirt.jpg`,
        price: { amount: '12.00', currency: 'EUR' },
        priceIsStartingAt: true,
        variants: [
          { name: 'S', price: { amount: '15.00', currency: 'EUR' } },
          { name: 'M', price: { amount: '15.00', currency: 'EUR' } },
          { name: 'XL', price: { amount: '17.00', currency: 'EUR' } },
          { name: 'Enfant', price: { amount: '12.00', currency: 'EUR' } },
        ],
        productPage: page('store', 't-shirt-grace'),
      },
    ],
    albums: [
      {
        albumId: 'paques-2026',
        title: 'Pâques 2026',
        description: 'Le culte de Pâques.',
        date: '2026-04-05',
        photoCount: 5,
        coverUrl: `${IMAGES}/grace-paris/paques/1.jpg`,
        albumPage: page('gallery', 'paques-2026'),
      },
      {
        albumId: 'fete-de-rentree',
        title: 'Fête de rentrée',
        description: '',
        date: '2026-09-13',
        photoCount: 3,
        coverUrl: `${IMAGES}/grace-paris/rentree/cover.jpg`,
        albumPage: page('gallery', 'fete-de-rentree'),
      },
    ],
    photos: [1, 2].map((index) => ({
      url: `${IMAGES}/grace-paris/paques/${index}.jpg`,
      thumbnailUrl: `${IMAGES}/grace-paris/paques/${index}-thumb.jpg`,
      caption: `Photo ${index}`,
      width: 1600,
      height: 1067,
    })),
  };
}
