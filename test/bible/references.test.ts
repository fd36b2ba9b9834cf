// /references over real HTTP: the passages a text names, their offsets, normalised forms and verses in the version.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

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

const references = (text: string, lang = 'fr') =>
  rawRequest(`${server.url}/api/v1/bible/references?lang=${lang}&text=${encodeURIComponent(text)}`);

describe('GET /references', () => {
  test('Jn 3,16 and Ps 1 in a French sentence: offsets, normalised references, verses', async () => {
    const text = 'Lisez Jn 3,16 et le Ps 1, puis Gn 1.';
    const res = await references(text);
    expect(res.status).toBe(200);
    const body = res.json() as { lang: string; version: string; references: { start: number; end: number; text: string }[] };
    expect(body).toMatchObject({ lang: 'fr', version: 'LSG' });
    expect(body.references).toEqual([
      {
        start: 6,
        end: 13,
        text: 'Jn 3,16',
        reference: 'Jean 3.16',
        book: expect.objectContaining({ usfm: 'JHN' }),
        from: { chapter: 3, verse: 16 },
        to: { chapter: 3, verse: 16 },
      },
      {
        start: 20,
        end: 24,
        text: 'Ps 1',
        reference: 'Psaumes 1',
        book: expect.objectContaining({ usfm: 'PSA' }),
        from: { chapter: 1, verse: 1 },
        to: { chapter: 1, verse: 1 },
      },
      {
        start: 31,
        end: 35,
        text: 'Gn 1',
        reference: 'Genèse 1',
        book: expect.objectContaining({ usfm: 'GEN' }),
        from: { chapter: 1, verse: 1 },
        to: { chapter: 1, verse: 5 },
      },
    ]);
    for (const found of body.references) expect(text.slice(found.start, found.end)).toBe(found.text);
  });

  test('a chapter the version lacks is no reference; a text without one answers an empty list', async () => {
    expect((await references('Voir Ps 23 et Ap 22.')).json()).toMatchObject({ references: [] });
    expect((await references('Nothing to see here.', 'en')).json()).toMatchObject({ lang: 'en', version: 'KJV', references: [] });
  });

  test('English conventions in English: John 3:16,17 is two verses', async () => {
    const body = (await references('Read John 3:16,17 today.', 'en')).json() as { references: { text: string; reference: string }[] };
    expect(body.references.map((found) => [found.text, found.reference])).toEqual([
      ['John 3:16', 'John 3:16'],
      ['17', 'John 3:17'],
    ]);
  });

  test.each([
    ['', 'text'],
    ['x'.repeat(5001), 'text'],
  ])('text of %#: 400 naming %s', async (text, parameter) => {
    const res = await references(text);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ parameter });
  });

  test('5,000 characters is accepted; text given twice is a 400', async () => {
    expect((await references('Jn 3,16 '.repeat(625))).status).toBe(200);
    const twice = await rawRequest(`${server.url}/api/v1/bible/references?text=a&text=b`);
    expect(twice.json()).toMatchObject({ status: 400, parameter: 'text' });
  });
});
