// Every name of a book in a path: the abbreviation and USFM code answer, any other name the reference reader knows answers 301 to the abbreviation's URL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let bible: BibleFixture;
let server: TestServer;

beforeAll(async () => {
  bible = await buildBibleFixture();
  server = await startTestServer({ ...bible.env, DEMO_DATA: 'false' });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

const get = (path: string, redirect: 'manual' | 'follow' = 'manual') => fetch(`${server.url}/api/v1/bible${path}`, { redirect });

describe('book names in paths', () => {
  test.each([
    ['/Jn/3/16?lang=en', '/api/v1/bible/John/3/16?lang=en'],
    ['/Juan/3/16?lang=es', '/api/v1/bible/Jn/3/16?lang=es'],
    ['/1%20John/1?lang=en', null],
    ['/Gen%C3%A8se/1', '/api/v1/bible/Gn/1?lang=fr'],
    ['/Genesis/1/1/2?lang=en', '/api/v1/bible/Gen/1/1/2?lang=en'],
    ['/Johannes/3?lang=nl', '/api/v1/bible/Joh/3?lang=nl'],
    ['/Jo%C3%A3o/3/16?lang=pt', '/api/v1/bible/Jo/3/16?lang=pt'],
  ])('%s answers 301 to %s, with CORS and the long caching', async (path, location) => {
    const res = await get(path);
    if (location === null) {
      // 1 John is not in the synthetic versions: a name the reader knows, of a book the version lacks, is a 404.
      expect(res.status).toBe(404);
      return;
    }
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(location);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toContain('max-age=86400');
  });

  test('a client that follows the redirect gets the canonical answer: /Jn/3/16?lang=en reaches John 3:16', async () => {
    const res = await get('/Jn/3/16?lang=en', 'follow');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ book: { usfm: 'JHN' }, chapter: 3, verses: [{ verse: 16 }] });
    expect(res.url).toBe(`${server.url}/api/v1/bible/John/3/16?lang=en`);
  });

  test('the abbreviation and the USFM code, in any case, answer as before, without a redirect', async () => {
    for (const path of ['/John/3/16?lang=en', '/john/3?lang=en', '/JHN/3?lang=es', '/jhn/3/16/17?lang=fr']) {
      expect((await get(path)).status, path).toBe(200);
    }
  });

  test('an unknown name is still a 404 naming abbr, and a name of another language is unknown', async () => {
    for (const path of ['/Xyz/3', '/Juan/3?lang=en', `/${'J'.repeat(60)}/3`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ parameter: 'abbr' });
    }
  });
});
