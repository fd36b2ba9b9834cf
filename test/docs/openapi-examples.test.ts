// The examples of the OpenAPI document are real answers: the church ones are what the service answers for the demo church grace-paris.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHURCHES, type ChurchApi, startChurchApi } from '../church/church-api.ts';

interface Document {
  paths: Record<string, { get: { operationId: string; responses: { '200': { content: { 'application/json': { example: unknown } } } } } }>;
}

describe('the church examples of the OpenAPI document', () => {
  let api: ChurchApi;
  let document: Document;
  /** The 200 example of an operation of the served document. */
  const example = <T>(operationId: string): T =>
    Object.values(document.paths).find((item) => item.get.operationId === operationId)!.get.responses['200'].content['application/json']
      .example as T;
  const answer = async <T>(path: string): Promise<T> => {
    const response = await api.request(`${CHURCHES}/grace-paris${path}`);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };

  beforeAll(async () => {
    api = await startChurchApi({ PUBLIC_SITE_URL: 'https://site.example.net' });
    document = (await (await fetch(`${api.server.url}/api/openapi.json`)).json()) as Document;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('are what the service answers, links on its own public site', async () => {
    expect(example('getChurch')).toEqual(await answer(''));
    expect(example<{ publicPage: string }>('getChurch').publicPage).toBe('https://site.example.net/grace-paris');
    expect(example('getChurchLive')).toEqual(await answer('/live'));
    expect(example('getChurchAlbums')).toEqual(await answer('/gallery'));
    expect(example('getChurchPosts')).toEqual(await answer('/posts?size=1'));
    expect(example('getChurchLibrary')).toEqual(await answer('/library?size=1'));
  });

  it('show the first items of the longer lists', async () => {
    const store = example<unknown[]>('getChurchStore');
    expect(store).toEqual((await answer<unknown[]>('/store')).slice(0, store.length));
    const photos = example<unknown[]>('getChurchAlbumPhotos');
    expect(photos).toEqual((await answer<unknown[]>('/gallery/paques-2026/photos')).slice(0, photos.length));
  });

  it('show upcoming events as the service does, on dates of their own (the demo events move with the day)', async () => {
    type Event = { slug: string; startDate: string; endDate: string | null };
    const live = await answer<Event[]>('/events');
    const time = (date: string | null) => date?.slice(10) ?? null;
    for (const event of example<Event[]>('getChurchEvents')) {
      const served = live.find((candidate) => candidate.slug === event.slug);
      expect(served, event.slug).toBeDefined();
      expect({ ...event, startDate: time(event.startDate), endDate: time(event.endDate) }).toEqual({
        ...served,
        startDate: time(served!.startDate),
        endDate: time(served!.endDate),
      });
    }
  });
});
