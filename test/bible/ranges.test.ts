// Verse ranges over real HTTP: every edge of {from}/{to}, clamping, merged verses, caching and the per-address limit.
import { describe, expect, test } from 'vitest';
import { useBibleServer } from '../helpers/bible-server.ts';
import { startTestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

const fixture = useBibleServer();

const api = (pathAndQuery: string) => `${fixture.server.url}/api/v1/bible${pathAndQuery}`;

interface RangeBody {
  lang: string;
  version: string;
  book: { usfm: string; abbr: string; name: string; testament: string };
  chapter: number;
  from: number;
  to: number;
  verses: { verse: number; text: string; heading?: string; notes?: string[] }[];
}

describe('verse ranges', () => {
  test('a range has the chapter shape, holding only the asked verses', async () => {
    const res = await rawRequest(api('/Gn/1/1/2'));
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      lang: 'fr',
      version: 'LSG',
      book: { usfm: 'GEN', abbr: 'Gn', name: 'Genèse', testament: 'OT' },
      chapter: 1,
      from: 1,
      to: 2,
      verseCount: 5,
      previous: null,
      next: { usfm: 'GEN', abbr: 'Gn', chapter: 2 },
      attribution: 'Synthetic LSG, made for tests.',
      verses: [
        { verse: 1, text: "Au commencement, Dieu créa les cieux et la terre. L'Éternel est bon.", heading: 'La création' },
        { verse: 2, text: 'fr Genesis 1:2 text.', notes: ['A note on verse 2.'] },
      ],
    });
  });

  test('the whole chapter as a range has the same bytes as the chapter file', async () => {
    const chapter = await rawRequest(api('/JHN/3?lang=en'));
    const range = await rawRequest(api('/John/3/16/17?lang=en'));
    expect(range.body.equals(chapter.body)).toBe(true);
  });

  test('a single verse, and a range around a verse the source leaves out (the response says which verses it holds)', async () => {
    const single = (await rawRequest(api('/Gn/1/5/5'))).json() as RangeBody;
    expect([single.from, single.to, single.verses.map((verse) => verse.verse)]).toEqual([5, 5, [5]]);
    const around = (await rawRequest(api('/Gn/1/3/4'))).json() as RangeBody;
    expect([around.from, around.to]).toEqual([3, 3]);
    expect(around.verses).toEqual([{ verse: 3, text: 'fr Genesis 1:3-4 text.' }]);
  });

  test('a range of verses the source leaves out answers 404 naming from, not an empty passage', async () => {
    const res = await rawRequest(api('/Gn/1/4/4'));
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({
      status: 404,
      parameter: 'from',
      title: 'Verses missing from this version',
      detail: 'Genèse 1 has no verse 4 in this version.',
    });
  });

  test('to past the last verse is clamped, and to says so', async () => {
    const body = (await rawRequest(api('/Gn/1/2/999'))).json() as RangeBody;
    expect([body.from, body.to]).toEqual([2, 5]);
    expect(body.verses.map((verse) => verse.verse)).toEqual([2, 3, 5]);
  });

  test('from past the last verse answers 404 naming from', async () => {
    const res = await rawRequest(api('/Gn/1/6/8'));
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, parameter: 'from' });
  });

  test('from greater than to answers 400', async () => {
    const res = await rawRequest(api('/Gn/1/3/2'));
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ parameter: 'from' });
  });

  test('malformed from or to answers 400 naming the parameter', async () => {
    for (const bad of ['0', '-1', 'abc', '1.5', '01', '+1', '1e2']) {
      const from = await rawRequest(api(`/Gn/1/${bad}/3`));
      expect(from.status, `from=${bad}`).toBe(400);
      expect(from.json()).toMatchObject({ parameter: 'from' });
      const to = await rawRequest(api(`/Gn/1/1/${bad}`));
      expect(to.status, `to=${bad}`).toBe(400);
      expect(to.json()).toMatchObject({ parameter: 'to' });
    }
  });

  test('chapter outside the book answers 404 naming chapter; malformed chapter 400', async () => {
    const outside = await rawRequest(api('/Gn/3/1/2'));
    expect(outside.status).toBe(404);
    expect(outside.json()).toMatchObject({ parameter: 'chapter' });
    const malformed = await rawRequest(api('/Gn/x/1/2'));
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ parameter: 'chapter' });
  });

  test('unknown abbreviation answers 404, unknown lang 400, with CORS on both', async () => {
    const abbr = await rawRequest(api('/Xx/1/1/2'));
    expect(abbr.status).toBe(404);
    expect(abbr.json()).toMatchObject({ parameter: 'abbr' });
    expect(abbr.headers['access-control-allow-origin']).toBe('*');
    const lang = await rawRequest(api('/Gn/1/1/2?lang=xx'));
    expect(lang.status).toBe(400);
    expect(lang.json()).toMatchObject({ parameter: 'lang' });
  });

  test('per-language abbreviations and USFM alias in ranges', async () => {
    const pt = (await rawRequest(api('/Sl/1/1/1?lang=pt'))).json() as RangeBody;
    expect(pt).toMatchObject({ lang: 'pt', version: 'BLIVRE', book: { usfm: 'PSA', abbr: 'Sl', name: 'Salmos' } });
    const nl = (await rawRequest(api('/psa/1/1/1?lang=nl'))).json() as RangeBody;
    expect(nl.book).toMatchObject({ usfm: 'PSA', abbr: 'Ps' });
  });

  test('ranges carry CORS, a strong ETag, the long Cache-Control, 304 and HEAD', async () => {
    const res = await rawRequest(api('/Gn/1/1/3'));
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = res.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await rawRequest(api('/Gn/1/1/3'), { 'if-none-match': etag })).status).toBe(304);
    expect((await rawRequest(api('/Gn/1/1/3'), { 'if-none-match': `W/${etag}` })).status).toBe(304);
    const head = await rawRequest(api('/Gn/1/1/3'), {}, 'HEAD');
    expect([head.status, head.body.length, head.headers.etag]).toEqual([200, 0, etag]);
  });

  test('a range asked again (by its USFM code, or as one verse) is the kept answer: same bytes, same headers, 304 to its ETag', async () => {
    const first = await rawRequest(api('/John/3/16/16?lang=en'));
    for (const again of [api('/John/3/16/16?lang=en'), api('/JHN/3/16/16?lang=en'), api('/John/3/16?lang=en')]) {
      const res = await rawRequest(again);
      expect(res.body.equals(first.body)).toBe(true);
      expect([res.headers.etag, res.headers['cache-control'], res.headers['access-control-allow-origin']]).toEqual([
        first.headers.etag,
        first.headers['cache-control'],
        first.headers['access-control-allow-origin'],
      ]);
      expect((await rawRequest(again, { 'if-none-match': first.headers.etag! })).status).toBe(304);
    }
    // A refusal is never kept in its place: the same verses named wrongly are still refused, naming the parameter.
    expect((await rawRequest(api('/John/3/17/16?lang=en'))).status).toBe(400);
    expect((await rawRequest(api('/John/3/17/16?lang=en'))).status).toBe(400);
  });
});

describe('per-address limit of the dynamic endpoints', () => {
  test('ranges and search are limited per address, static files are not, and 0 turns the limit off', async () => {
    const limited = await startTestServer({ ...fixture.bible.env, DEMO_DATA: 'false', BIBLE_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await rawRequest(`${limited.url}/api/v1/bible/Gn/1/1/2`)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const tooMany = await rawRequest(`${limited.url}/api/v1/bible/search?q=terre`);
      expect(tooMany.status).toBe(429);
      expect(tooMany.headers['access-control-allow-origin']).toBe('*');
      expect(tooMany.headers['content-type']).toMatch(/^application\/problem\+json/);
      for (let i = 0; i < 5; i++) expect((await rawRequest(`${limited.url}/api/v1/bible/Gn/1`)).status).toBe(200);
    } finally {
      await limited.close();
    }
    const unlimited = await startTestServer({ ...fixture.bible.env, DEMO_DATA: 'false', BIBLE_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 5; i++) expect((await rawRequest(`${unlimited.url}/api/v1/bible/Gn/1/1/2`)).status).toBe(200);
    } finally {
      await unlimited.close();
    }
  });
});
