// Versions, books and chapters over real HTTP: bodies, caching headers, encodings, 304, HEAD, lang and abbreviations.

import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { staticPaths } from '../../build/contract/layout.ts';
import { useBibleServer } from '../helpers/bible-server.ts';
import { problemType } from '../helpers/problem.ts';
import { rawRequest } from './raw-request.ts';

const fixture = useBibleServer();

const api = (pathAndQuery: string) => `${fixture.server.url}/api/v1/bible${pathAndQuery}`;
const treeFile = (relative: string) => fs.readFileSync(path.join(fixture.bible.publicDir, relative));

interface ChapterBody {
  lang: string;
  version: string;
  book: { usfm: string; abbr: string; name: string; testament: string };
  chapter: number;
  from: number;
  to: number;
  verses: { verse: number; text: string; heading?: string; notes?: string[] }[];
}

describe('versions', () => {
  test('lists the five versions with metadata and counts, as the static file holds them', async () => {
    const res = await rawRequest(api('/versions'));
    expect(res.status).toBe(200);
    expect(res.body.equals(treeFile(staticPaths.versions))).toBe(true);
    const body = res.json() as { versions: Record<string, unknown>[] };
    expect(body.versions.map((version) => [version.lang, version.code])).toEqual([
      ['fr', 'LSG'],
      ['en', 'KJV'],
      ['es', 'RVR'],
      ['pt', 'BLIVRE'],
      ['nl', 'STV'],
    ]);
    expect(Object.keys(body.versions[0])).toEqual([
      'code',
      'lang',
      'name',
      'languageName',
      'year',
      'licence',
      'attribution',
      'books',
      'chapters',
      'verses',
      'download',
    ]);
    expect(body.versions[0]).toMatchObject({ books: 3, chapters: 6 });
  });

  test('carries CORS *, a strong ETag, a long public Cache-Control, Vary and the JSON content type', async () => {
    const res = await rawRequest(api('/versions'));
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
  });
});

describe('content negotiation', () => {
  test('brotli is preferred when accepted, and decompresses to the identity bytes', async () => {
    const identity = await rawRequest(api('/books'));
    const res = await rawRequest(api('/books'), { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(res.body).equals(identity.body)).toBe(true);
    expect(res.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-br"`);
  });

  test('gzip when brotli is not accepted (or refused with q=0)', async () => {
    const identity = await rawRequest(api('/GEN/1'));
    for (const acceptEncoding of ['gzip', 'gzip, br;q=0', 'x-gzip']) {
      const res = await rawRequest(api('/GEN/1'), { 'accept-encoding': acceptEncoding });
      expect(res.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(gunzipSync(res.body).equals(identity.body)).toBe(true);
      expect(res.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-gzip"`);
    }
  });

  test('identity when nothing compressed is accepted', async () => {
    for (const acceptEncoding of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await rawRequest(api('/GEN/1'), { 'accept-encoding': acceptEncoding });
      expect(res.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(res.body.equals(treeFile(staticPaths.chapter('fr', 'GEN', 1)))).toBe(true);
    }
  });
});

describe('conditional requests and HEAD', () => {
  test('a matching If-None-Match answers 304 without a body, with the caching headers', async () => {
    const first = await rawRequest(api('/books?lang=en'));
    const etag = first.headers.etag!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await rawRequest(api('/books?lang=en'), { 'if-none-match': ifNoneMatch });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect((await rawRequest(api('/books?lang=en'), { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  test('the ETag is per representation: the brotli tag revalidates the brotli copy only', async () => {
    const br = await rawRequest(api('/versions'), { 'accept-encoding': 'br' });
    expect((await rawRequest(api('/versions'), { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! })).status).toBe(304);
    expect((await rawRequest(api('/versions'), { 'if-none-match': br.headers.etag! })).status).toBe(200);
  });

  test('HEAD answers the GET headers without a body', async () => {
    const get = await rawRequest(api('/Gn/1'));
    const head = await rawRequest(api('/Gn/1'), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(String(get.body.length));
  });

  test('methods other than GET and HEAD answer 405 with Allow, and with the CORS header of every Bible response', async () => {
    const res = await rawRequest(api('/versions'), {}, 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('books and lang', () => {
  test('lang defaults to fr', async () => {
    const res = await rawRequest(api('/books'));
    expect(res.body.equals(treeFile(staticPaths.books('fr')))).toBe(true);
    const body = res.json() as { lang: string; version: string; books: Record<string, unknown>[] };
    expect(body.lang).toBe('fr');
    expect(body.version).toBe('LSG');
    expect(body.books[0]).toEqual({ usfm: 'GEN', abbr: 'Gn', name: 'Genèse', testament: 'OT', chapters: 2, verseCounts: [5, 1] });
  });

  test('each language has its own names and abbreviations', async () => {
    const en = (await rawRequest(api('/books?lang=en'))).json() as {
      version: string;
      books: { usfm: string; abbr: string; name: string }[];
    };
    expect(en.version).toBe('KJV');
    expect(en.books.find((book) => book.usfm === 'JHN')).toMatchObject({ abbr: 'John', name: 'John' });
    const pt = (await rawRequest(api('/books?lang=pt'))).json() as { books: { usfm: string; abbr: string }[] };
    expect(pt.books.find((book) => book.usfm === 'JHN')?.abbr).toBe('Jo');
  });

  test('lang is read in any letter case, as decisions.md says: the same answer as in lower case', async () => {
    const lower = await rawRequest(api('/books?lang=en'));
    for (const query of ['lang=EN', 'lang=En', 'lang=eN']) {
      const res = await rawRequest(api(`/books?${query}`));
      expect(res.status, query).toBe(200);
      expect(res.body.equals(lower.body), query).toBe(true);
    }
  });

  test('an unknown lang answers 400 problem+json listing the five values, with CORS', async () => {
    for (const query of ['lang=de', 'lang=', 'lang=fra', 'lang=fr&lang=en']) {
      const res = await rawRequest(api(`/books?${query}`));
      expect(res.status, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const body = res.json() as { status: number; detail: string; parameter: string; type: string; title: string };
      expect(body).toMatchObject({
        status: 400,
        parameter: 'lang',
        type: problemType('unknown-language'),
        title: 'Unknown Bible language',
      });
      expect(body.detail).toContain('fr, en, es, pt, nl');
    }
  });
});

describe('chapters', () => {
  test('a chapter is the static file: book, from/to, verses with heading and notes, a verse left out by the source absent', async () => {
    const res = await rawRequest(api('/Gn/1'));
    expect(res.status).toBe(200);
    expect(res.body.equals(treeFile(staticPaths.chapter('fr', 'GEN', 1)))).toBe(true);
    const body = res.json() as ChapterBody;
    expect(body).toMatchObject({
      lang: 'fr',
      version: 'LSG',
      book: { usfm: 'GEN', abbr: 'Gn', name: 'Genèse', testament: 'OT' },
      chapter: 1,
      from: 1,
      to: 5,
    });
    expect(body.verses[0]).toMatchObject({ verse: 1, heading: 'La création' });
    expect(body.verses[1]).toMatchObject({ verse: 2, notes: ['A note on verse 2.'] });
    expect(body.verses.slice(2)).toEqual([
      { verse: 3, text: 'fr Genesis 1:3-4 text.' },
      { verse: 5, text: 'fr Genesis 1:5 text.' },
    ]);
  });

  test('abbreviations match case-insensitively, and the USFM code is an alias in every language', async () => {
    const reference = (await rawRequest(api('/Jn/3'))).body;
    for (const abbr of ['jn', 'JN', 'jN', 'JHN', 'jhn']) {
      const res = await rawRequest(api(`/${abbr}/3`));
      expect(res.status, abbr).toBe(200);
      expect(res.body.equals(reference)).toBe(true);
    }
    for (const [lang, abbr] of [
      ['en', 'John'],
      ['pt', 'Jo'],
      ['nl', 'Joh'],
      ['es', 'Jn'],
      ['nl', 'JHN'],
    ]) {
      const res = await rawRequest(api(`/${abbr}/3?lang=${lang}`));
      expect(res.status, `${lang} ${abbr}`).toBe(200);
      expect((res.json() as ChapterBody).book.usfm).toBe('JHN');
    }
  });

  test("another language's abbreviation is unknown: 404 naming abbr", async () => {
    for (const [lang, abbr] of [
      ['fr', 'John'],
      ['en', 'Jo'],
      ['fr', 'Joh'],
      ['fr', 'Sal'],
      ['fr', 'XYZ'],
      // Spanish Génesis: another language's name, with an accent (French Gén redirects: book-names-in-paths.test.ts).
      ['fr', 'G%C3%A9nesis'],
    ]) {
      const res = await rawRequest(api(`/${abbr}/1?lang=${lang}`));
      expect(res.status, `${lang} ${abbr}`).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.json()).toMatchObject({ status: 404, parameter: 'abbr' });
    }
  });

  test('chapter must be an integer from 1 written canonically (400 naming chapter), inside the book (404)', async () => {
    for (const chapter of ['0', '-1', 'abc', '1.5', '01', '1e1', '%201']) {
      const res = await rawRequest(api(`/Gn/${chapter}`));
      expect(res.status, chapter).toBe(400);
      expect(res.json()).toMatchObject({ parameter: 'chapter' });
    }
    for (const chapter of ['3', '150', '99999999999']) {
      const res = await rawRequest(api(`/Gn/${chapter}`));
      expect(res.status, chapter).toBe(404);
      expect(res.json()).toMatchObject({ parameter: 'chapter' });
    }
    expect((await rawRequest(api('/Gn/99999999999999999999'))).status).toBe(400);
  });
});
