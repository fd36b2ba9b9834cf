// Passages over real HTTP: /passage with one or several references, its bounds and errors, and one verse by URL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

let bible: BibleFixture;
let server: TestServer;

beforeAll(async () => {
  bible = await buildBibleFixture();
  server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', BIBLE_PASSAGE_MAX_VERSES: '6' });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

const api = (pathAndQuery: string) => `${server.url}/api/v1/bible${pathAndQuery}`;
const passage = (ref: string, lang = 'en') => rawRequest(api(`/passage?lang=${lang}&ref=${encodeURIComponent(ref)}`));

interface PassageBody {
  lang: string;
  version: string;
  reference: string;
  passages: {
    reference: string;
    book: { usfm: string; abbr: string; name: string; testament: string };
    from: { chapter: number; verse: number };
    to: { chapter: number; verse: number };
    verses: { chapter: number; verse: number; text: string }[];
  }[];
}

/** "JHN 3:16" per verse of each passage. */
const versesOf = (body: PassageBody) => body.passages.map((p) => p.verses.map((v) => `${p.book.usfm} ${v.chapter}:${v.verse}`));

describe('GET /passage', () => {
  test('one verse: the verse, its book and a normalised reference in the language', async () => {
    const res = await passage('jn 3.16');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json()).toEqual({
      lang: 'en',
      version: 'KJV',
      reference: 'John 3:16',
      passages: [
        {
          reference: 'John 3:16',
          book: { usfm: 'JHN', abbr: 'John', name: 'John', testament: 'NT' },
          from: { chapter: 3, verse: 16 },
          to: { chapter: 3, verse: 16 },
          verses: [{ chapter: 3, verse: 16, text: 'en For God so loved the world (John 3:16).' }],
        },
      ],
    });
  });

  test('a range across chapters holds every verse between, each naming its chapter', async () => {
    const body = (await passage('Jean 2:1-3:17', 'fr')).json() as PassageBody;
    expect(body.reference).toBe('Jean 2.1-3.17');
    expect(versesOf(body)).toEqual([['JHN 2:1', 'JHN 3:16', 'JHN 3:17']]);
  });

  test('a list of passages, grouped, in the order asked; whole chapters keep their short form', async () => {
    const body = (await passage('Gn 1:1-2; Sal 1; JHN 3', 'es')).json() as PassageBody;
    expect(body.reference).toBe('Génesis 1.1-2; Salmos 1; Juan 3');
    expect(versesOf(body)).toEqual([['GEN 1:1', 'GEN 1:2'], ['PSA 1:1'], ['JHN 3:16', 'JHN 3:17']]);
    expect(body.passages[2]).toMatchObject({ from: { chapter: 3, verse: 16 }, to: { chapter: 3, verse: 17 } });
  });

  test('each language reads its own convention: "Jn 3,16" in French is one verse, "John 3:16,17" in English two', async () => {
    const french = (await passage('Jn 3,16', 'fr')).json() as PassageBody;
    expect(french.reference).toBe('Jean 3.16');
    expect(versesOf(french)).toEqual([['JHN 3:16']]);
    const english = (await passage('John 3:16,17', 'en')).json() as PassageBody;
    expect(english.reference).toBe('John 3:16, 17');
    expect(versesOf(english)).toEqual([['JHN 3:16'], ['JHN 3:17']]);
    const genesis = (await passage('Gn 1,1-3', 'fr')).json() as PassageBody;
    expect(genesis.passages.map(({ reference, from, to }) => ({ reference, from, to }))).toEqual([
      { reference: 'Genèse 1.1-3', from: { chapter: 1, verse: 1 }, to: { chapter: 1, verse: 3 } },
    ]);
    const dutch = (await passage('Joh. 3:16, 17; Gen. 1:1', 'nl')).json() as PassageBody;
    expect(dutch.reference).toBe('Johannes 3:16, 17; Genesis 1:1');
  });

  test('a reference its language could read two ways answers 400 naming ref and the place', async () => {
    const res = await passage('John 3,16', 'en');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ parameter: 'ref', detail: expect.stringContaining('"," at character 7') });
    expect((res.json() as { detail: string }).detail).toContain('write 3:16');
  });

  test('passage verses carry the layout fields of the chapter verses: heading, notes, paragraphs, poetry, words of Jesus', async () => {
    const body = (await passage('Gn 1:1-2; Ps 1:1; Jn 3:16-17', 'en')).json() as PassageBody;
    const chapterVerses = async (path: string) => ((await rawRequest(api(`${path}?lang=en`))).json() as { verses: object[] }).verses;
    const [genesis, psalm, john] = body.passages;
    expect(genesis?.verses).toEqual((await chapterVerses('/GEN/1')).slice(0, 2).map((verse) => ({ chapter: 1, ...verse })));
    expect(psalm?.verses).toEqual((await chapterVerses('/PSA/1')).map((verse) => ({ chapter: 1, ...verse })));
    expect(john?.verses).toEqual((await chapterVerses('/JHN/3')).map((verse) => ({ chapter: 3, ...verse })));
    // The fixture's side fields, each present, so the comparison above compared them.
    expect(genesis?.verses.map((verse) => Object.keys(verse))).toEqual([
      ['chapter', 'verse', 'text', 'heading'],
      ['chapter', 'verse', 'text', 'notes'],
    ]);
    expect(psalm?.verses[0]).toMatchObject({ poetry: [{ at: 0, indent: 1 }, { indent: 2 }] });
    expect(john?.verses[1]).toMatchObject({ paragraphs: [0], wordsOfJesus: [{ start: 3, end: 18 }] });
  });

  test('an end past the chapter is clamped, and from/to say which verses are held', async () => {
    const body = (await passage('Gen 1:2-99', 'nl')).json() as PassageBody;
    expect(body.passages[0]).toMatchObject({ reference: 'Genesis 1:2-5', from: { chapter: 1, verse: 2 }, to: { chapter: 1, verse: 5 } });
    expect(body.passages[0]?.verses.map((verse) => verse.verse)).toEqual([2, 3, 5]);
  });

  test('a verse the version leaves out is absent; a passage of only such verses answers 400 naming ref', async () => {
    const body = (await passage('Gn 1:3-5', 'pt')).json() as PassageBody;
    expect(body.passages[0]?.verses.map((verse) => verse.verse)).toEqual([3, 5]);
    const gap = await passage('Gn 1:4', 'pt');
    expect(gap.status).toBe(400);
    expect(gap.json()).toMatchObject({ parameter: 'ref', detail: expect.stringContaining('has no verses in this version') });
  });

  test('more verses than BIBLE_PASSAGE_MAX_VERSES answers 400 naming ref, with the limit', async () => {
    const res = await passage('Gen 1-2; John 1-3');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, parameter: 'ref' });
    expect((res.json() as { detail: string }).detail).toContain('more than 6 verses');
    expect((await passage('Gen 1-2; John 1')).status).toBe(200);
  });

  test.each([
    ['Hezekiah 3:16', '"Hezekiah" at character 1'],
    ['John 3:', 'at the end (character 8)'],
    ['John 3:17-16', 'the range ends before it begins'],
    ['John 30:1', 'John has 3 chapters'],
    ['Gen 1:6', 'Genesis 1 ends at verse 5'],
    ['Jude 3', 'Jude is not in this version'],
  ])('ref "%s" answers 400 naming ref: %s', async (ref, detail) => {
    const res = await passage(ref);
    expect(res.status).toBe(400);
    const body = res.json() as { parameter: string; detail: string };
    expect(body.parameter).toBe('ref');
    expect(body.detail).toContain(detail);
  });

  test('ref missing, blank, repeated or too long answers 400 naming ref', async () => {
    for (const query of ['', 'ref=', 'ref=%20', 'ref=Gen%201&ref=Gen%202', `ref=${'Gen 1;'.repeat(100)}`]) {
      const res = await rawRequest(api(`/passage?${query}`));
      expect(res.status, query).toBe(400);
      expect(res.json()).toMatchObject({ parameter: 'ref' });
    }
  });
});

describe('one verse by URL', () => {
  test('/{abbr}/{chapter}/{verse} answers the same bytes as the range {verse}/{verse}', async () => {
    const verse = await rawRequest(api('/John/3/16?lang=en'));
    const range = await rawRequest(api('/John/3/16/16?lang=en'));
    expect(verse.status).toBe(200);
    expect(verse.body.equals(range.body)).toBe(true);
    expect(verse.headers.etag).toBe(range.headers.etag);
  });

  test('a malformed verse answers 400 naming verse; one past the chapter 404', async () => {
    const malformed = await rawRequest(api('/Gn/1/01'));
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toMatchObject({ parameter: 'verse' });
    expect((await rawRequest(api('/Gn/1/6'))).status).toBe(404);
  });
});
