// Search over real HTTP: references first, AND, phrases, OR, -word, prefix*, filters, matched words, accents and case, paging, bad q, FTS5 syntax typed by users.
import { describe, expect, test, vi } from 'vitest';
import type { BuiltVersion } from '../../build/writers/types.ts';
import { pageEnvelope } from '../../src/http/paging.ts';
import { useBibleServer } from '../helpers/bible-server.ts';
import { syntheticInfo, syntheticText } from '../helpers/synthetic-model.ts';
import { rawRequest } from './raw-request.ts';

/**
 * The synthetic versions, plus 23 English verses saying "grace" in Psalm 2 to page through, and an
 * Old Testament verse quoting "John 3:16", so that a New Testament reference has word hits in both testaments.
 */
function versionsWithManyHits(): BuiltVersion[] {
  const versions: BuiltVersion[] = (['fr', 'en', 'es', 'pt', 'nl'] as const).map((lang) => ({
    info: syntheticInfo(lang),
    text: syntheticText(lang),
  }));
  const english = versions[1].text;
  const psalms = english.books.find((book) => book.code === 'PSA')!;
  psalms.chapters.push({
    number: 2,
    verses: Array.from({ length: 23 }, (_, index) => ({ number: index + 1, text: `Grace number ${index + 1} in Psalm two.` })),
  });
  english.books.find((book) => book.code === 'GEN')!.chapters[1].verses.push({ number: 2, text: 'A later verse quoting John 3:16.' });
  return versions;
}

const fixture = useBibleServer(versionsWithManyHits());

interface SearchBody {
  items: {
    match: 'reference' | 'words';
    reference?: string;
    book: { usfm: string; abbr: string; name: string; testament: string };
    chapter: number;
    verse: number;
    text: string;
    matches: { offset: number; length: number }[];
  }[];
  page: number;
  size: number;
  totalItems: number;
  totalPages: number;
}

const search = async (query: string) => rawRequest(`${fixture.server.url}/api/v1/bible/search?${query}`);
const searchBody = async (query: string) => {
  const res = await search(query);
  expect(res.status, query).toBe(200);
  return res.json() as SearchBody;
};
const references = (body: SearchBody) => body.items.map((item) => `${item.book.usfm} ${item.chapter}:${item.verse}`);

describe('search', () => {
  test('answers the paging envelope; each item names how it matched, book (usfm, abbr, name, testament), chapter, verse, text and matched words', async () => {
    const body = await searchBody('q=terre');
    expect(Object.keys(body)).toEqual(['items', 'page', 'size', 'totalItems', 'totalPages']);
    expect(body).toMatchObject({ page: 0, size: 10, totalItems: 1, totalPages: 1 });
    expect(body.items[0]).toEqual({
      match: 'words',
      book: { usfm: 'GEN', abbr: 'Gn', name: 'Genèse', testament: 'OT' },
      chapter: 1,
      verse: 1,
      text: "Au commencement, Dieu créa les cieux et la terre. L'Éternel est bon.",
      matches: [{ offset: 43, length: 5 }],
    });
  });

  test('matched words are offsets into text, whatever the case and accents typed', async () => {
    const [item] = (await searchBody(`q=${encodeURIComponent('eternel CREA')}`)).items;
    expect(item?.matches.map(({ offset, length }) => item.text.slice(offset, offset + length))).toEqual(['créa', 'Éternel']);
  });

  test('searches only the version of lang (default fr)', async () => {
    expect((await searchBody('q=beginning')).totalItems).toBe(0);
    expect(references(await searchBody('q=beginning&lang=en'))).toEqual(['GEN 1:1']);
    expect(references(await searchBody('q=hemel&lang=nl'))).toEqual(['GEN 1:1']);
    expect((await searchBody('q=principio&lang=es')).items[0].book).toEqual({ usfm: 'GEN', abbr: 'Gn', name: 'Génesis', testament: 'OT' });
  });

  test('is case- and accent-insensitive', async () => {
    for (const q of ['eternel', 'ÉTERNEL', 'Eternel', 'éternel', 'e%CC%81ternel', "l'eternel"]) {
      expect(references(await searchBody(`q=${q}`)), q).toEqual(['GEN 1:1']);
    }
    expect(references(await searchBody('q=PRINCIPIO&lang=pt'))).toEqual(['GEN 1:1']);
    expect(references(await searchBody('q=ceus&lang=pt'))).toEqual(['GEN 1:1']);
  });

  test('words are ANDed', async () => {
    expect(references(await searchBody('q=god+world&lang=en'))).toEqual(['JHN 3:16']);
    expect(references(await searchBody('q=god&lang=en'))).toEqual(['GEN 1:1', 'JHN 3:16']);
    expect((await searchBody('q=god+grace&lang=en')).totalItems).toBe(0);
  });

  test('a "quoted phrase" matches the words in that order only', async () => {
    expect(references(await searchBody(`q=${encodeURIComponent('"God created"')}&lang=en`))).toEqual(['GEN 1:1']);
    expect((await searchBody(`q=${encodeURIComponent('"created God"')}&lang=en`)).totalItems).toBe(0);
    expect(references(await searchBody(`q=${encodeURIComponent('"so loved" world')}&lang=en`))).toEqual(['JHN 3:16']);
  });

  test('results come in canonical order (book, chapter, verse) and page through without repeats', async () => {
    const all: string[] = [];
    for (let page = 0; page < 3; page++) {
      const body = await searchBody(`q=grace&lang=en&page=${page}`);
      expect(body).toMatchObject({ page, size: 10, totalItems: 23, totalPages: 3 });
      all.push(...references(body));
    }
    expect(all).toEqual(Array.from({ length: 23 }, (_, index) => `PSA 2:${index + 1}`));
    const last = await searchBody('q=grace&lang=en&page=2&size=10');
    expect(last.items).toHaveLength(3);
    const big = await searchBody('q=grace&lang=en&size=50');
    expect([big.items.length, big.totalPages]).toEqual([23, 1]);
    const five = await searchBody('q=grace&lang=en&size=5&page=4');
    expect(references(five)).toEqual(['PSA 2:21', 'PSA 2:22', 'PSA 2:23']);
  });

  test('a page past the end answers 200 with no items; no hits gives totalPages 0', async () => {
    expect(await searchBody('q=grace&lang=en&page=3')).toMatchObject({ items: [], page: 3, totalItems: 23, totalPages: 3 });
    expect(await searchBody('q=zzzz')).toMatchObject({ items: [], totalItems: 0, totalPages: 0 });
  });

  test('bad page and size answer 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['page=-1', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=99999999999999999999', 'page'],
      ['size=0', 'size'],
      ['size=-1', 'size'],
      ['size=51', 'size'],
      ['size=1.5', 'size'],
      ['size=', 'size'],
      ['size=10&size=20', 'size'],
    ]) {
      const res = await search(`q=grace&lang=en&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json(), query).toMatchObject({ status: 400, parameter });
    }
  });

  test('missing, blank, over-long or unsearchable q answers 400 naming q', async () => {
    for (const query of ['', 'q=', 'q=%20%20', `q=${'a'.repeat(201)}`, 'q=*', 'q=-', 'q=%22%22', 'q=()', 'q=a&q=b']) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.json(), query).toMatchObject({ status: 400, parameter: 'q' });
    }
    expect((await search(`q=${'a'.repeat(200)}`)).status).toBe(200);
  });

  test('a repeated word is searched once; a query too complex to search answers 400 naming q', async () => {
    expect(references(await searchBody(`q=${Array(50).fill('god').join('+')}&lang=en`))).toEqual(['GEN 1:1', 'JHN 3:16']);
    const phrase = `"${Array(66).fill('de').join(' ')}"`;
    const eleven = Array.from({ length: 11 }, (_, index) => `word${index}`).join(' ');
    for (const q of [phrase, eleven]) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json(), q).toMatchObject({ status: 400, parameter: 'q', detail: expect.stringContaining('too complex') });
    }
  });

  test('FTS5 syntax typed by a user is searched as text, never a 500', async () => {
    const inputs = [
      'NEAR(god world)',
      'god NEAR world',
      'god*',
      '*god',
      '-god',
      'god -world',
      'text:god',
      'god:',
      '^god',
      '(god',
      'god)',
      '"god',
      'god"',
      '"god" "',
      'god AND',
      'OR',
      'NOT god',
      'god OR world',
      '{text}: god',
      "l'",
      '\\',
      "'; DROP TABLE verses; --",
      '%',
      '_',
      'col:"x"',
      '""""',
      '+',
      '&',
      '\u0000god',
    ];
    for (const q of inputs) {
      const res = await search(`q=${encodeURIComponent(q)}&lang=en`);
      expect([200, 400], q).toContain(res.status);
    }
    // Only OR, -word and word* are operators (see below); the rest of FTS5's syntax is text.
    expect(references(await searchBody(`q=${encodeURIComponent('NEAR(god world)')}&lang=en`))).toEqual([]);
    expect(references(await searchBody(`q=${encodeURIComponent('god AND world')}&lang=en`))).toEqual([]);
  });

  test('OR in capitals between two words finds either; lower-case or is a word', async () => {
    expect(references(await searchBody(`q=${encodeURIComponent('commencement OR blessed')}&lang=en`))).toEqual(['PSA 1:1']);
    expect(references(await searchBody(`q=${encodeURIComponent('beginning OR blessed')}&lang=en`))).toEqual(['GEN 1:1', 'PSA 1:1']);
    expect(references(await searchBody(`q=${encodeURIComponent('world OR blessed')}&lang=en`))).toEqual(['PSA 1:1', 'JHN 3:16']);
    // OR binds closer than the implicit AND: (world OR blessed) AND loved.
    expect(references(await searchBody(`q=${encodeURIComponent('world OR blessed loved')}&lang=en`))).toEqual(['JHN 3:16']);
    expect((await searchBody(`q=${encodeURIComponent('world or blessed')}&lang=en`)).totalItems).toBe(0);
  });

  test('-word leaves out the verses holding it; word* finds words beginning with it', async () => {
    expect(references(await searchBody(`q=${encodeURIComponent('god -world')}&lang=en`))).toEqual(['GEN 1:1']);
    expect(references(await searchBody(`q=${encodeURIComponent('god -"so loved"')}&lang=en`))).toEqual(['GEN 1:1']);
    const prefix = await searchBody(`q=${encodeURIComponent('bless*')}&lang=en`);
    expect(references(prefix)).toEqual(['PSA 1:1']);
    expect(prefix.items[0]?.matches).toEqual([{ offset: 19, length: 7 }]);
  });

  test('a misused operator answers 400 naming q and saying what q may hold', async () => {
    for (const q of ['OR god', 'god OR', 'god OR OR world', '-god', 'g*', 'god OR -world']) {
      const res = await search(`q=${encodeURIComponent(q)}&lang=en`);
      expect(res.status, q).toBe(400);
      const body = res.json() as { parameter: string; detail: string };
      expect(body.parameter).toBe('q');
      expect(body.detail, q).toContain('OR in capitals');
    }
  });

  test('a reference typed as q answers with its verses first, marked as a reference match, then word hits', async () => {
    const body = await searchBody(`q=${encodeURIComponent('Jn 3:16-17')}&lang=en`);
    expect(body.items.slice(0, 2)).toEqual([
      expect.objectContaining({ match: 'reference', reference: 'John 3:16-17', chapter: 3, verse: 16, matches: [] }),
      expect.objectContaining({ match: 'reference', reference: 'John 3:16-17', chapter: 3, verse: 17, matches: [] }),
    ]);
    expect(body.items).toHaveLength(2); // no verse holds the words jn, 3, 16 and 17
    expect(body.totalItems).toBe(2);
    // Its words are in two verses: after the reference, both as word hits (the referenced verse among them).
    const withWords = await searchBody(`q=${encodeURIComponent('John 3:16')}&lang=en`);
    expect(withWords.items.map((item) => `${item.match} ${item.book.usfm} ${item.chapter}:${item.verse}`)).toEqual([
      'reference JHN 3:16',
      'words GEN 2:2',
      'words JHN 3:16',
    ]);
    expect(withWords.totalItems).toBe(3);
    for (const [lang, q] of [
      ['fr', 'Jean 3.16'],
      ['es', 'Juan 3:16'],
      ['pt', 'João 3:16'],
      ['pt', 'joao 3:16'],
      ['nl', 'Johannes 3:16'],
      ['en', 'JHN 3:16'],
    ]) {
      const first = (await searchBody(`q=${encodeURIComponent(q)}&lang=${lang}`)).items[0];
      expect(first, `${lang} ${q}`).toMatchObject({ match: 'reference', book: { usfm: 'JHN' }, chapter: 3, verse: 16 });
    }
  });

  test('whole chapters and lists as references; a chapter the version lacks searches words only', async () => {
    expect(references(await searchBody(`q=${encodeURIComponent('Ps 2')}&lang=en&size=50`)).slice(0, 23)).toEqual(
      Array.from({ length: 23 }, (_, index) => `PSA 2:${index + 1}`),
    );
    const list = await searchBody(`q=${encodeURIComponent('Gen 1:1; Ps 1')}&lang=en`);
    expect(list.items.filter((item) => item.match === 'reference').map((item) => item.reference)).toEqual(['Genesis 1:1', 'Psalms 1']);
    // John has 3 chapters: "John 16" is no reference, but its words (john, 16) are in two verses.
    const missing = await searchBody(`q=${encodeURIComponent('John 16')}&lang=en`);
    expect(missing.items.map((item) => `${item.match} ${item.book.usfm} ${item.chapter}:${item.verse}`)).toEqual([
      'words GEN 2:2',
      'words JHN 3:16',
    ]);
  });

  test('references and word hits page together, the total exact', async () => {
    // "Psalm 2" names the 23 verses of Psalm 2; its words (psalm, 2) are in one of them.
    const q = encodeURIComponent('Psalm 2');
    const all = await searchBody(`q=${q}&lang=en&size=50`);
    expect(all.totalItems).toBe(23 + 1);
    expect(all.items.at(-1)).toMatchObject({ match: 'words', chapter: 2, verse: 2 });
    const pages: string[] = [];
    for (let page = 0; page < 5; page++) pages.push(...references(await searchBody(`q=${q}&lang=en&size=5&page=${page}`)));
    expect(pages).toEqual(references(all));
  });

  test('book and testament filters narrow both reference and word hits', async () => {
    expect(references(await searchBody(`q=god&lang=en&book=John`))).toEqual(['JHN 3:16']);
    expect(references(await searchBody(`q=god&lang=en&book=gen`))).toEqual(['GEN 1:1']);
    expect(references(await searchBody(`q=god&lang=en&testament=OT`))).toEqual(['GEN 1:1']);
    expect(references(await searchBody(`q=god&lang=en&testament=NT&book=JHN`))).toEqual(['JHN 3:16']);
    expect((await searchBody(`q=god&lang=en&testament=OT&book=JHN`)).totalItems).toBe(0);
    const grace = await searchBody(`q=grace&lang=en&book=PSA&size=1`);
    expect(grace.totalItems).toBe(23);
    // The New Testament reference is filtered out; its words' Old Testament hit stays.
    const oldTestament = await searchBody(`q=${encodeURIComponent('John 3:16')}&lang=en&testament=OT`);
    expect(oldTestament.items.map((item) => `${item.match} ${item.book.usfm} ${item.chapter}:${item.verse}`)).toEqual(['words GEN 2:2']);
    const newTestament = await searchBody(`q=${encodeURIComponent('John 3:16')}&lang=en&testament=NT`);
    expect(newTestament.items.map((item) => `${item.match} ${item.book.usfm} ${item.chapter}:${item.verse}`)).toEqual([
      'reference JHN 3:16',
      'words JHN 3:16',
    ]);
  });

  test('an unknown book or testament filter answers 400 naming it', async () => {
    for (const [query, parameter] of [
      ['q=god&book=Hezekiah', 'book'],
      ['q=god&book=', 'book'],
      ['q=god&book=GEN&book=JHN', 'book'],
      ['q=god&testament=ot', 'testament'],
      ['q=god&testament=AT', 'testament'],
    ]) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(res.json()).toMatchObject({ parameter });
    }
  });

  test('search carries CORS, a strong ETag, the long Cache-Control and answers 304', async () => {
    const res = await search('q=terre');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    expect((await rawRequest(`${fixture.server.url}/api/v1/bible/search?q=terre`, { 'if-none-match': res.headers.etag! })).status).toBe(
      304,
    );
  });

  test('the answer is, byte for byte, the paging envelope as JSON.stringify writes it: references only, words only, both, none', async () => {
    for (const query of [
      'q=John%203%3A16&lang=en&size=1',
      'q=John%203%3A16&lang=en&size=20',
      'q=John%203%3A16&lang=en&size=1&page=1',
      'q=grace&lang=en&size=5&page=2',
      'q=zzzunfound&lang=en',
      'q=grace&lang=en&page=99',
    ]) {
      const res = await search(query);
      expect(res.status, query).toBe(200);
      const body = res.json() as SearchBody;
      const envelope = pageEnvelope(body.items, { page: body.page, size: body.size }, body.totalItems);
      expect(res.body.toString('utf8'), query).toBe(JSON.stringify(envelope));
      for (const item of body.items) {
        const keys = ['match', ...(item.match === 'reference' ? ['reference'] : []), 'book', 'chapter', 'verse', 'text', 'matches'];
        expect(Object.keys(item), query).toEqual(keys);
      }
    }
    const both = (await search('q=John%203%3A16&lang=en&size=20')).json() as SearchBody;
    expect(new Set(both.items.map((item) => item.match))).toEqual(new Set(['reference', 'words']));
  });

  test('a search asked again is answered from the kept answer, with no worker: same bytes and ETag, 304 to it', async () => {
    const first = await search('q=gr%C3%A2ce&lang=en&size=3');
    expect(first.status).toBe(200);
    const run = vi.spyOn(fixture.server.services.bible.current().pool, 'run');
    try {
      const again = await search('q=gr%C3%A2ce&lang=en&size=3');
      expect([again.status, again.headers.etag, again.body.equals(first.body)]).toEqual([200, first.headers.etag, true]);
      expect(
        (
          await rawRequest(`${fixture.server.url}/api/v1/bible/search?q=gr%C3%A2ce&lang=en&size=3`, {
            'if-none-match': first.headers.etag!,
          })
        ).status,
      ).toBe(304);
      expect(run).not.toHaveBeenCalled();
      // Another page, size, filter or language is another answer, searched on a worker.
      expect((await search('q=gr%C3%A2ce&lang=en&size=3&page=1')).status).toBe(200);
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      run.mockRestore();
    }
  });
});
