// Church profile, visibility (non-public = unknown), caching headers, HEAD, and no CORS — over real HTTP.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateChurchDocument } from '../../src/church/import/validate.ts';
import { createSqliteChurchRepository } from '../../src/church/sqlite-repository.ts';
import { openDatabase } from '../../src/db/open.ts';
import { strongEtag } from '../../src/http/cache.ts';
import { apiFetch } from '../helpers/api-client.ts';
import { problemType } from '../helpers/problem.ts';
import { CHURCHES, type ChurchApi, churchDocument, startChurchApi } from './church-api.ts';

let api: ChurchApi;
beforeAll(async () => {
  api = await startChurchApi();
});
afterAll(async () => {
  await api.close();
});

const SUB_PATHS = ['', '/events', '/posts', '/live', '/library', '/store', '/gallery', '/gallery/kerst/photos'];

describe('church profile', () => {
  it('answers the full profile with exactly the spec field names and a public page link', async () => {
    const response = await api.request(`${CHURCHES}/grace-paris`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'slug',
      'name',
      'bio',
      'denomination',
      'logoUrl',
      'coverImageUrl',
      'city',
      'country',
      'language',
      'website',
      'publicPage',
    ]);
    expect(body).toMatchObject({
      slug: 'grace-paris',
      name: 'Église Grâce Paris',
      city: 'Paris',
      country: 'FR',
      language: 'fr',
      publicPage: 'https://churches.example.org/grace-paris',
    });
    expect(body).not.toHaveProperty('timeZone');
  });

  it('builds links from PUBLIC_SITE_URL', async () => {
    const other = await startChurchApi({ PUBLIC_SITE_URL: 'https://pages.example.net/c/' });
    try {
      const body = await other.json<{ publicPage: string }>('harbour-light-auckland');
      expect(body.publicPage).toBe('https://pages.example.net/c/harbour-light-auckland');
    } finally {
      await other.close();
    }
  });

  it('gives null, not a missing field, for a profile without logo, cover or website', async () => {
    const body = await api.json<Record<string, unknown>>('iglesia-betel-la');
    expect(body.logoUrl).toBeNull();
    expect(body.website).toBeNull();
    expect(body.coverImageUrl).toBe('https://images.example.org/demo/betel/cover.jpg');
  });
});

describe('a hidden church answers exactly like an unknown one', () => {
  for (const sub of SUB_PATHS) {
    it(`on ${sub || '(profile)'}: same status, content type and bytes`, async () => {
      const hidden = await api.request(`${CHURCHES}/stille-kapel-utrecht${sub}`);
      const unknown = await api.request(`${CHURCHES}/no-such-church${sub}`);
      expect(hidden.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(hidden.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(unknown.headers.get('content-type')).toBe(hidden.headers.get('content-type'));
      expect(unknown.headers.get('content-length')).toBe(hidden.headers.get('content-length'));
      const hiddenBytes = Buffer.from(await hidden.arrayBuffer());
      const unknownBytes = Buffer.from(await unknown.arrayBuffer());
      expect(unknownBytes.equals(hiddenBytes)).toBe(true);
      expect(JSON.parse(hiddenBytes.toString())).toEqual({
        type: problemType('church-not-found'),
        title: 'Unknown church',
        status: 404,
        detail: 'No public church has this slug.',
      });
    });
  }

  it('does not echo the slug, so odd slugs give the same bytes too', async () => {
    const plain = await (await api.request(`${CHURCHES}/no-such-church`)).text();
    for (const slug of ['%E2%9C%9D', 'UPPER', 'a'.repeat(300), 'x%20y']) {
      const response = await api.request(`${CHURCHES}/${slug}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(plain);
    }
  });
});

describe('caching and HTTP semantics', () => {
  it("answers another process's import at once: new bytes and a new ETag, a church made private gone", async () => {
    const now = new Date('2026-06-15T00:00:00Z');
    await api.importChurches({ churches: [churchDocument('changing')] }, now);
    const before = await api.request(`${CHURCHES}/changing`);
    expect(((await before.json()) as { name: string }).name).toBe('Church changing');
    // The CLI's import: another connection to the same file, as from another process.
    const other = openDatabase(path.join(api.server.dir, 'church.sqlite'));
    try {
      const elsewhere = createSqliteChurchRepository(other);
      await elsewhere.importChurches(validateChurchDocument({ churches: [churchDocument('changing', { name: 'Renamed' })] }, { now }));
      const after = await api.request(`${CHURCHES}/changing`, { headers: { 'If-None-Match': before.headers.get('etag')! } });
      expect(after.status).toBe(200);
      expect(((await after.json()) as { name: string }).name).toBe('Renamed');
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));

      await elsewhere.importChurches(validateChurchDocument({ churches: [churchDocument('changing', { isPublic: false })] }, { now }));
      expect((await api.request(`${CHURCHES}/changing`)).status).toBe(404);
    } finally {
      other.close();
    }
  });

  it('sends Cache-Control private, max-age=60 and a strong ETag that is the SHA-256 of the body', async () => {
    const response = await api.request(`${CHURCHES}/grace-paris/events`);
    const text = await response.text();
    expect(response.headers.get('cache-control')).toBe('private, max-age=60');
    expect(response.headers.get('etag')).toBe(strongEtag(text));
  });

  it('answers 304 with no body to a matching If-None-Match, on every endpoint', async () => {
    for (const sub of ['', '/events', '/posts', '/live', '/library', '/store', '/gallery', '/gallery/paques-2026/photos']) {
      const first = await api.request(`${CHURCHES}/grace-paris${sub}`);
      const tag = first.headers.get('etag');
      expect(tag, sub).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await api.request(`${CHURCHES}/grace-paris${sub}`, { headers: { 'If-None-Match': tag! } });
      expect(again.status, sub).toBe(304);
      expect(again.headers.get('etag')).toBe(tag);
      expect(await again.text()).toBe('');
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await api.request(`${CHURCHES}/grace-paris/store`);
    const head = await api.request(`${CHURCHES}/grace-paris/store`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
  });

  it('sends no CORS headers, even to a request with an Origin', async () => {
    const response = await api.request(`${CHURCHES}/grace-paris`, { headers: { Origin: 'https://somewhere.example' } });
    expect(response.status).toBe(200);
    for (const name of response.headers.keys()) expect(name).not.toMatch(/^access-control-/);
  });

  it('needs a key: no Authorization answers 401 before any church lookup', async () => {
    for (const slug of ['grace-paris', 'stille-kapel-utrecht', 'no-such-church']) {
      const response = await apiFetch(`${api.server.url}${CHURCHES}/${slug}`);
      expect(response.status).toBe(401);
    }
  });

  it('answers 405 to other methods, also for unknown slugs', async () => {
    for (const slug of ['grace-paris', 'no-such-church']) {
      const response = await api.request(`${CHURCHES}/${slug}/events`, { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});
