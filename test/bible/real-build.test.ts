// Against a full build of the five real versions (only when BIBLE_SOURCES_DIR is set): golden verses and search per language.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Lang } from '../../build/contract/books.ts';
import type { DownloadBody, VersionsResponse } from '../../build/contract/response-schemas.ts';
import { buildBible } from '../../build/pipeline.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { rawRequest } from './raw-request.ts';

const sourcesDir = requirement('BIBLE_SOURCES_DIR').path;

interface Golden {
  lang: Lang;
  version: string;
  /** The language's abbreviation of John. */
  john: string;
  genesis1v1: string;
  john3v16: string;
  /** A search (accents and case deliberately off) that must find John 3:16. */
  search: string;
  /** The language's full name of John, as normalised references write it. */
  johnName: string;
  /** What normalised references write between chapter and verse in the language. */
  chapterVerse: ':' | '.';
  /** John 3:16 as a reader of the language types it. */
  typedReference: string;
}

const GOLDEN: Golden[] = [
  {
    lang: 'fr',
    version: 'LSG',
    john: 'Jn',
    genesis1v1: 'Au commencement, Dieu créa les cieux et la terre.',
    john3v16:
      'Car Dieu a tant aimé le monde qu’il a donné son Fils unique, afin que quiconque croit en lui ne périsse point, mais qu’il ait la vie éternelle.',
    search: 'TANT AIME "son fils unique"',
    johnName: 'Jean',
    chapterVerse: '.',
    typedReference: 'jn 3,16',
  },
  {
    lang: 'en',
    version: 'KJV',
    john: 'John',
    genesis1v1: 'In the beginning God created the heaven and the earth.',
    john3v16:
      'For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life.',
    search: '"only begotten son" whosoever',
    johnName: 'John',
    chapterVerse: ':',
    typedReference: 'Jn 3:16',
  },
  {
    lang: 'es',
    version: 'RVR',
    john: 'Jn',
    genesis1v1: 'EN el principio crió Dios los cielos y la tierra.',
    john3v16:
      'Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito, para que todo aquel que en él cree, no se pierda, mas tenga vida eterna.',
    search: 'unigenito "amo dios al mundo"',
    johnName: 'Juan',
    chapterVerse: '.',
    typedReference: 'Juan 3:16',
  },
  {
    lang: 'pt',
    version: 'BLIVRE',
    john: 'Jo',
    genesis1v1: 'No princípio criou Deus os céus e a terra.',
    john3v16:
      'Porque Deus amou ao mundo de tal maneira, que deu o seu Filho unigênito; para que todo aquele que nele crê não pereça, mas tenha a vida eterna.',
    search: 'UNIGENITO "amou ao mundo"',
    johnName: 'João',
    chapterVerse: '.',
    typedReference: 'Joao 3:16',
  },
  {
    lang: 'nl',
    version: 'STV',
    john: 'Joh',
    genesis1v1: 'In den beginne schiep God den hemel en de aarde.',
    john3v16:
      'Want alzo lief heeft God de wereld gehad, dat Hij Zijn eniggeboren Zoon gegeven heeft, opdat een iegelijk die in Hem gelooft, niet verderve, maar het eeuwige leven hebbe.',
    search: '"eniggeboren zoon" WERELD',
    johnName: 'Johannes',
    chapterVerse: ':',
    typedReference: 'Joh. 3:16',
  },
];

interface ChapterVerse {
  chapter: number;
  verse: number;
}

/**
 * The verses a passage holds, written as the fixture `meant` writes its meaning: verses where it
 * names them ("JHN 3:16-18"), chapters where it names whole chapters ("PSA 23", "GEN 1-2:4").
 */
function heldAsMeant(usfm: string, from: ChapterVerse, to: ChapterVerse, meant: string): string {
  const namesVerses = meant.includes(':');
  const startsOnVerse = /^\S+ \d+:/.test(meant);
  if (!namesVerses) return `${usfm} ${from.chapter}${to.chapter === from.chapter ? '' : `-${to.chapter}`}`;
  const start = startsOnVerse ? `${from.chapter}:${from.verse}` : `${from.chapter}`;
  if (startsOnVerse && to.chapter === from.chapter) return `${usfm} ${start}${to.verse === from.verse ? '' : `-${to.verse}`}`;
  return `${usfm} ${start}-${to.chapter}:${to.verse}`;
}

interface PassageBody {
  lang: string;
  version: string;
  book: { usfm: string; abbr: string };
  from: number;
  to: number;
  verses: { verse: number; text: string }[];
}

describeWith(['BIBLE_SOURCES_DIR'], 'the full real build over HTTP', () => {
  let dir: string;
  let server: TestServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bible-real-build-'));
    const publicDir = path.join(dir, 'public');
    const databasePath = path.join(dir, 'bible.sqlite');
    await buildBible({ sourcesDir: sourcesDir!, publicDir, databasePath, reportPath: path.join(dir, 'report.json') });
    server = await startTestServer({ BIBLE_PUBLIC_DIR: publicDir, BIBLE_DB_PATH: databasePath, DEMO_DATA: 'false' });
  });

  afterAll(async () => {
    await server?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = (pathAndQuery: string) => `${server.url}/api/v1/bible${pathAndQuery}`;

  test('issue 25 over the real text: /Jn/3/16?lang=en reaches John 3:16, parallel Ex 8:1 is LSG Ex 7:26 and RVR Jon 2:1 is KJV Jon 1:17', async () => {
    const redirect = await fetch(api('/Jn/3/16?lang=en'), { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/api/v1/bible/John/3/16?lang=en']);
    const followed = (await (await fetch(api('/Jn/3/16?lang=en'))).json()) as { verses: { verse: number; text: string }[] };
    expect(followed.verses[0]!.text).toBe(GOLDEN.find((golden) => golden.lang === 'en')!.john3v16);
    expect((await fetch(api('/Juan/3/16?lang=es'), { redirect: 'manual' })).headers.get('location')).toBe('/api/v1/bible/Jn/3/16?lang=es');
    type Parallel = { passages: { rows: Record<string, { chapter: number; verse: number }[]>[] }[] };
    const cells = (body: Parallel) =>
      body.passages[0]!.rows.map((row) =>
        Object.fromEntries(Object.entries(row).map(([lang, verses]) => [lang, verses.map((v) => `${v.chapter}:${v.verse}`)])),
      );
    expect(cells((await rawRequest(api('/parallel?ref=Ex%208:1&langs=en,fr'))).json() as Parallel)).toEqual([
      { en: ['8:1'], fr: ['7:26'] },
    ]);
    expect(cells((await rawRequest(api('/parallel?ref=Jon%201:17&langs=en,es'))).json() as Parallel)).toEqual([
      { en: ['1:17'], es: ['2:1'] },
    ]);
  });

  test('the verse of the day is the same passage in all five languages, every day of the year', async () => {
    for (let day = 0; day < 366; day += 7) {
      const date = new Date(Date.UTC(2028, 0, 1 + day)).toISOString().slice(0, 10);
      const shared = new Set<string>();
      for (const golden of GOLDEN) {
        const res = await rawRequest(api(`/verse-of-the-day?lang=${golden.lang}&date=${date}`));
        expect(res.status, `${golden.lang} ${date}`).toBe(200);
        shared.add((res.json() as { shared: string }).shared);
      }
      expect(shared.size, date).toBe(1);
    }
  });

  test('references in a French sentence: Jn 3,16 and Ps 23 at their offsets', async () => {
    const text = 'Lisez Jn 3,16 et le Ps 23.';
    const body = (await rawRequest(api(`/references?lang=fr&text=${encodeURIComponent(text)}`))).json() as {
      references: { start: number; end: number; reference: string; to: { chapter: number; verse: number } }[];
    };
    expect(body.references.map((found) => [found.start, found.end, found.reference])).toEqual([
      [6, 13, 'Jean 3.16'],
      [20, 25, 'Psaumes 23'],
    ]);
  });

  test('five versions of 66 books each', async () => {
    const body = (await rawRequest(api('/versions'))).json() as {
      versions: { lang: string; code: string; books: number; chapters: number }[];
    };
    expect(body.versions.map((version) => `${version.lang}:${version.code}:${version.books}:${version.chapters}`)).toEqual(
      GOLDEN.map((golden) => `${golden.lang}:${golden.version}:66:1189`),
    );
  });

  test('the Bible examples of the OpenAPI document are answers of this build', async () => {
    type Media = { example?: unknown; examples?: Record<string, { value: unknown }> };
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, { get: { operationId: string; responses: { '200': { content: { 'application/json': Media } } } } }>;
    };
    const media = (operationId: string) =>
      Object.values(document.paths).find((item) => item.get.operationId === operationId)!.get.responses['200'].content['application/json'];
    const served = async (pathAndQuery: string) => (await rawRequest(api(pathAndQuery))).json();
    expect(media('listBibleVersions').example).toEqual(await served('/versions'));
    const books = media('listBibleBooks').example as { books: unknown[] };
    const allBooks = (await served('/books?lang=en')) as { books: unknown[] };
    expect(books).toEqual({ ...allBooks, books: allBooks.books.slice(0, books.books.length) });
    expect(media('getChapter').example).toEqual(await served('/Ps/117'));
    expect(media('getVerseRange').examples?.['john-3-16-en'].value).toEqual(await served('/John/3/16/16?lang=en'));
    expect(media('getVerseRange').examples?.['genesis-1-1-fr'].value).toEqual(await served('/Gn/1/1/1'));
    expect(media('searchBible').example).toEqual(await served('/search?q=%22only%20begotten%20son%22&lang=en&size=2'));
    expect(media('getVerse').example).toEqual(await served('/John/3/16?lang=en'));
    expect(media('getPassage').example).toEqual(await served('/passage?ref=Jn%203:16-17&lang=en'));
    // Issue 25's examples: parallel Ex 8:1 (en, fr), references in a French sentence, the verse of 1 February.
    expect(media('getParallel').example).toEqual(await served('/parallel?ref=Ex%208:1&langs=en,fr'));
    expect(media('findBibleReferences').example).toEqual(
      await served(`/references?lang=fr&text=${encodeURIComponent('Lisez Jn 3,16 et le Ps 23.')}`),
    );
    expect(media('getVerseOfTheDay').example).toEqual(await served('/verse-of-the-day?lang=en&date=2026-02-01'));
    // The download's example is abridged: its first book, and the first verses of its first chapter.
    const download = (await served('/download?lang=en')) as DownloadBody;
    const abridged = media('getBibleDownload').example as DownloadBody;
    const firstChapter = download.chapters[0]!;
    expect(abridged).toEqual({
      ...download,
      books: download.books.slice(0, abridged.books.length),
      chapters: [{ ...firstChapter, verses: firstChapter.verses.slice(0, abridged.chapters[0]!.verses.length) }],
    });
  });

  test('a verse a version leaves out (BLIVRE has no Psalm 46:3) answers 404 alone, and is skipped in a range', async () => {
    const gap = await rawRequest(api('/PSA/46/3/3?lang=pt'));
    expect(gap.status).toBe(404);
    expect(gap.json()).toMatchObject({ parameter: 'from', detail: 'Salmos 46 has no verse 3 in this version.' });
    const around = (await rawRequest(api('/PSA/46/2/4?lang=pt'))).json() as PassageBody;
    expect([around.from, around.to, around.verses.map((verse) => verse.verse)]).toEqual([2, 4, [2, 4]]);
  });

  test.each(GOLDEN)('golden verses in $lang ($version) through chapters and ranges', async (golden) => {
    const genesis = (await rawRequest(api(`/GEN/1?lang=${golden.lang}`))).json() as PassageBody;
    expect(genesis.verses[0]).toMatchObject({ verse: 1, text: golden.genesis1v1 });
    const john = (await rawRequest(api(`/${golden.john}/3/16/16?lang=${golden.lang}`))).json() as PassageBody;
    expect(john).toMatchObject({ lang: golden.lang, version: golden.version, book: { usfm: 'JHN', abbr: golden.john }, from: 16, to: 16 });
    // The layout fields (words of Jesus, paragraphs) sit beside the text; the text itself is golden.
    expect(john.verses.map(({ verse, text }: { verse: number; text: string }) => ({ verse, text }))).toEqual([
      { verse: 16, text: golden.john3v16 },
    ]);
    const books = (await rawRequest(api(`/books?lang=${golden.lang}`))).json() as { books: unknown[] };
    expect(books.books).toHaveLength(66);
    // Psalm 117 has two verses everywhere: `to` is clamped.
    const psalm = (await rawRequest(api(`/PSA/117/1/176?lang=${golden.lang}`))).json() as PassageBody;
    expect([psalm.from, psalm.to, psalm.verses.length]).toEqual([1, 2, 2]);
  });

  test.each(GOLDEN)(
    'the download of $lang ($version): size and SHA-256 as versions lists them, every chapter, each encoding the same bytes',
    async (golden) => {
      const { versions } = (await rawRequest(api('/versions'))).json() as VersionsResponse;
      const { download: link, ...version } = versions.find((entry) => entry.lang === golden.lang)!;
      const identity = await rawRequest(`${server.url}${link.url}`);
      expect([identity.status, identity.body.length]).toEqual([200, link.bytes]);
      expect(createHash('sha256').update(identity.body).digest('hex')).toBe(link.sha256);
      const [br, gzip] = await Promise.all([
        rawRequest(`${server.url}${link.url}`, { 'accept-encoding': 'br' }),
        rawRequest(`${server.url}${link.url}`, { 'accept-encoding': 'gzip' }),
      ]);
      expect([br.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual(['br', 'gzip']);
      expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
      expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);

      const body = identity.json() as DownloadBody;
      expect(body.version).toEqual(version);
      const books = (await rawRequest(api(`/books?lang=${golden.lang}`))).json() as { books: DownloadBody['books'] };
      expect(body.books).toEqual(books.books);
      const everyChapter = books.books.flatMap((book) =>
        book.verseCounts.flatMap((last, i) => (last > 0 ? [`${book.usfm} ${i + 1}`] : [])),
      );
      expect(body.chapters.map((chapter) => `${chapter.book.usfm} ${chapter.chapter}`)).toEqual(everyChapter);
      expect(body.chapters).toHaveLength(1189);
      expect(body.chapters.reduce((sum, chapter) => sum + chapter.verses.length, 0)).toBe(version.verses);
      // Chapters as the chapter endpoint answers them: the first, the longest, the golden one, the last.
      for (const [usfm, chapter] of [
        ['GEN', 1],
        ['PSA', 119],
        ['JHN', 3],
        ['REV', 22],
      ] as const) {
        const inFile = body.chapters.find((entry) => entry.book.usfm === usfm && entry.chapter === chapter);
        expect(inFile, `${usfm} ${chapter}`).toEqual((await rawRequest(api(`/${usfm}/${chapter}?lang=${golden.lang}`))).json());
      }
    },
  );

  test.each(GOLDEN)('search in $lang finds John 3:16 whatever the case and accents', async (golden) => {
    const res = await rawRequest(api(`/search?lang=${golden.lang}&size=50&q=${encodeURIComponent(golden.search)}`));
    expect(res.status).toBe(200);
    const body = res.json() as {
      items: { book: { usfm: string; abbr: string }; chapter: number; verse: number; text: string }[];
      totalItems: number;
    };
    expect(body.items).toContainEqual(
      expect.objectContaining({
        book: expect.objectContaining({ usfm: 'JHN', abbr: golden.john }),
        chapter: 3,
        verse: 16,
        text: golden.john3v16,
      }),
    );
  });

  test.each(GOLDEN)('passages in $lang: a range across chapters and a single-chapter book, normalised', async (golden) => {
    const res = await rawRequest(api(`/passage?lang=${golden.lang}&ref=${encodeURIComponent(`${golden.typedReference}-4:2; JUD 3`)}`));
    expect(res.status).toBe(200);
    const body = res.json() as {
      reference: string;
      passages: { reference: string; verses: { chapter: number; verse: number; text: string }[] }[];
    };
    expect(body.passages[0]?.reference).toBe(`${golden.johnName} 3${golden.chapterVerse}16-4${golden.chapterVerse}2`);
    // The layout fields (words of Jesus, paragraphs) sit beside the text, as in chapters; the text itself is golden.
    expect(body.passages[0]?.verses[0]).toMatchObject({ chapter: 3, verse: 16, text: golden.john3v16 });
    const { verses: chapterVerses } = (await rawRequest(api(`/${golden.john}/3?lang=${golden.lang}`))).json() as PassageBody;
    expect(body.passages[0]?.verses[0]).toEqual({ chapter: 3, ...chapterVerses.find((verse) => verse.verse === 16) });
    expect(body.passages[0]?.verses.at(-1)).toMatchObject({ chapter: 4, verse: 2 });
    expect(body.passages[1]?.verses.map((verse) => `${verse.chapter}:${verse.verse}`)).toEqual(['1:3']);
    // One verse by URL is the range of that verse.
    const verse = await rawRequest(api(`/${golden.john}/3/16?lang=${golden.lang}`));
    expect(verse.body.equals((await rawRequest(api(`/${golden.john}/3/16/16?lang=${golden.lang}`))).body)).toBe(true);
  });

  test.each(GOLDEN)('search in $lang: John 3:16 typed as a reader types it comes first, as a reference', async (golden) => {
    const res = await rawRequest(api(`/search?lang=${golden.lang}&q=${encodeURIComponent(golden.typedReference)}`));
    const body = res.json() as { items: { match: string; reference?: string; chapter: number; verse: number; text: string }[] };
    expect(body.items[0]).toMatchObject({
      match: 'reference',
      reference: `${golden.johnName} 3${golden.chapterVerse}16`,
      chapter: 3,
      verse: 16,
      text: golden.john3v16,
    });
  });

  test.each(GOLDEN)(
    'every real reference of the $lang fixture names verses this version has, bounds as it means them',
    async ({ lang }) => {
      const fixture = JSON.parse(fs.readFileSync(new URL(`./reference/fixtures/${lang}.json`, import.meta.url), 'utf8')) as {
        references: { ref: string; means: string[] }[];
      };
      const wrong: string[] = [];
      for (const { ref, means } of fixture.references) {
        const res = await rawRequest(api(`/passage?lang=${lang}&ref=${encodeURIComponent(ref)}`));
        const body = res.json() as { detail?: string; passages?: { book: { usfm: string }; from: ChapterVerse; to: ChapterVerse }[] };
        if (res.status !== 200) {
          wrong.push(`${ref}: ${res.status} ${body.detail}`);
          continue;
        }
        const held = body.passages!.map(({ book, from, to }, index) => heldAsMeant(book.usfm, from, to, means[index] ?? ''));
        if (JSON.stringify(held) !== JSON.stringify(means)) wrong.push(`${ref}: ${held.join('; ')} for ${means.join('; ')}`);
      }
      expect(wrong).toEqual([]);
    },
  );

  test('search filters and operators over the real text: the total is exact', async () => {
    const total = async (query: string) =>
      ((await rawRequest(api(`/search?lang=en&${query}`))).json() as { totalItems: number }).totalItems;
    const all = await total('q=grace');
    const oldTestament = await total('q=grace&testament=OT');
    const newTestament = await total('q=grace&testament=NT');
    expect(oldTestament + newTestament).toBe(all);
    expect(await total('q=grace&book=Rom')).toBeLessThan(newTestament);
    expect(await total('q=grace -peace')).toBeLessThan(all);
    expect(await total(`q=${encodeURIComponent('grace OR mercy')}`)).toBeGreaterThan(all);
    expect(await total('q=gra*')).toBeGreaterThan(all);
  });

  test('a common word pages through thousands of hits in canonical order', async () => {
    const first = (await rawRequest(api('/search?lang=en&q=god&size=50'))).json() as {
      items: { book: { usfm: string }; chapter: number; verse: number }[];
      totalItems: number;
      totalPages: number;
    };
    expect(first.totalItems).toBeGreaterThan(3000);
    expect(first.items[0]).toMatchObject({ book: { usfm: 'GEN' }, chapter: 1, verse: 1 });
    const last = (await rawRequest(api(`/search?lang=en&q=god&size=50&page=${first.totalPages - 1}`))).json() as {
      items: { book: { usfm: string } }[];
    };
    expect(last.items.at(-1)?.book.usfm).toBe('REV');
  });
});
