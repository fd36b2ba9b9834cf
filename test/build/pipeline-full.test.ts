// The whole Bible build over the five real sources (BIBLE_SOURCES_DIR), built once into a temporary folder.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { XMLValidator } from 'fast-xml-parser';
import MiniSearch from 'minisearch';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import Database from '../../build/contract/sqlite-driver.ts';
import { counterparts, VerseAlignment, VerseMapSchema } from '../../build/contract/verse-map.ts';
import { type BuildOptions, type BuildResult, buildBible } from '../../build/pipeline.ts';
import { DEFAULT_ORIGIN } from '../../build/writers/host-rewrites.ts';
import { type SearchDocument, searchOptions } from '../../build/writers/search-options.ts';
import { netlifyCases, netlifyHost, netlifyMismatches } from '../helpers/netlify-host.ts';
import { describeWith, requirement } from '../helpers/requirements.ts';
import { staticHost } from '../helpers/static-host.ts';
import { vercelCases, vercelHost, vercelMismatches } from '../helpers/vercel-host.ts';

const SOURCES = requirement('BIBLE_SOURCES_DIR').path;

const GOLDEN: Record<string, { path: string; verse: number; words: string }> = {
  fr: { path: 'fr/JHN/3.json', verse: 16, words: 'Car Dieu a tant aimé le monde' },
  en: { path: 'en/JHN/3.json', verse: 16, words: 'For God so loved the world' },
  es: { path: 'es/JHN/3.json', verse: 16, words: 'Porque de tal manera amó Dios al mundo' },
  pt: { path: 'pt/JHN/3.json', verse: 16, words: 'Porque Deus amou ao mundo de tal maneira' },
  nl: { path: 'nl/GEN/1.json', verse: 1, words: 'In den beginne schiep God den hemel en de aarde' },
};

// A known word per language, searched without its accents and in another case.
const SEARCH_WORDS: Record<string, string> = { fr: 'ETERNEL', en: 'begotten', es: 'jehova', pt: 'unigenito', nl: 'eeuwige' };

describeWith(['BIBLE_SOURCES_DIR'], 'Bible build over the full corpus', () => {
  let dir = '';
  let options: BuildOptions;
  let first: BuildResult;
  const tree = () => join(dir, 'public/api/v1/bible');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-full-'));
    options = {
      sourcesDir: SOURCES!,
      publicDir: join(dir, 'public'),
      databasePath: join(dir, 'var/bible.sqlite'),
      reportPath: join(dir, 'var/bible-report.json'),
    };
    first = await buildBible(options);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('builds five versions of 66 books each', async () => {
    expect(first.status).toBe('built');
    const { versions } = JSON.parse(await readFile(join(tree(), 'versions.json'), 'utf8'));
    expect(versions.map((v: { code: string }) => v.code)).toEqual(['LSG', 'KJV', 'RVR', 'BLIVRE', 'STV']);
    for (const version of versions) expect(version.books).toBe(66);
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl']) {
      const books = JSON.parse(await readFile(join(tree(), lang, 'books.json'), 'utf8'));
      expect(books.books).toHaveLength(66);
      expect(books.books[0]).toMatchObject({ usfm: 'GEN', chapters: 50 });
      expect(books.books[65]).toMatchObject({ usfm: 'REV', chapters: 22 });
    }
  });

  it('writes the smallest source first (SpaRV: its verses hold the first ids, each language one block in Bible order) and lists and reports in the spec order', async () => {
    const db = new Database(options.databasePath!, { readonly: true });
    try {
      const blocks = db
        .prepare('SELECT lang, min(id) AS first, max(id) AS last, count(*) AS rows FROM verses GROUP BY lang ORDER BY first')
        .all() as {
        lang: string;
        first: number;
        last: number;
        rows: number;
      }[];
      expect(blocks.map((block) => block.lang)).toEqual(['es', 'fr', 'en', 'pt', 'nl']);
      for (const block of blocks) expect(block.last - block.first + 1, block.lang).toBe(block.rows);
    } finally {
      db.close();
    }
    const report = JSON.parse(await readFile(options.reportPath!, 'utf8'));
    expect(report.versions.map((version: { lang: string }) => version.lang)).toEqual(['fr', 'en', 'es', 'pt', 'nl']);
  });

  it('puts the golden verses in their chapter files', async () => {
    for (const [lang, golden] of Object.entries(GOLDEN)) {
      const chapter = JSON.parse(await readFile(join(tree(), golden.path), 'utf8'));
      expect(chapter.lang).toBe(lang);
      const verse = chapter.verses.find((v: { verse: number }) => v.verse === golden.verse);
      expect(verse?.text, `${lang} ${golden.path}:${golden.verse}`).toContain(golden.words);
    }
  });

  it('leaves no markup or backslash in any chapter file', async () => {
    let checked = 0;
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl']) {
      for (const book of await readdir(join(tree(), lang), { withFileTypes: true })) {
        if (!book.isDirectory()) continue;
        for (const name of await readdir(join(tree(), lang, book.name))) {
          if (!name.endsWith('.json')) continue;
          const text = await readFile(join(tree(), lang, book.name, name), 'utf8');
          if (text.includes('<') || text.includes('\\')) throw new Error(`markup left in ${lang}/${book.name}/${name}`);
          checked++;
        }
      }
    }
    expect(checked).toBe(5 * 1189);
  });

  it('finds a known word per language in the database, ignoring case and accents', () => {
    const db = new Database(options.databasePath!, { readonly: true });
    try {
      const search = db.prepare(
        'SELECT count(*) AS hits FROM verses_fts JOIN verses v ON v.id = verses_fts.rowid WHERE verses_fts MATCH ? AND v.lang = ?',
      );
      for (const [lang, word] of Object.entries(SEARCH_WORDS)) {
        expect((search.get(word, lang) as { hits: number }).hits, `${lang} ${word}`).toBeGreaterThan(0);
      }
    } finally {
      db.close();
    }
  });

  it('writes each search index byte for byte as MiniSearch serialises the same verses (French and English)', async () => {
    const db = new Database(options.databasePath!, { readonly: true });
    try {
      const verses = db.prepare<[string], { usfm: string; chapter: number; verse: number; text: string }>(
        'SELECT usfm, chapter, verse, text FROM verses WHERE lang = ? ORDER BY id',
      );
      for (const lang of ['fr', 'en'] as const) {
        const miniSearch = new MiniSearch<SearchDocument>(searchOptions());
        miniSearch.addAll(verses.all(lang).map((row) => ({ id: `${row.usfm}.${row.chapter}.${row.verse}`, ...row })));
        const file = await readFile(join(dir, 'public', staticPaths.searchIndex(lang)), 'utf8');
        const index = file.slice(file.indexOf('"index":') + '"index":'.length, -1);
        expect(index === JSON.stringify(miniSearch), lang).toBe(true);
      }
    } finally {
      db.close();
    }
  });

  it("lists SpaRV's missing verses in the report", async () => {
    const report = JSON.parse(await readFile(options.reportPath!, 'utf8'));
    const rvr = report.versions.find((v: { code: string }) => v.code === 'RVR');
    expect(rvr.issues['missing-verse'].count).toBeGreaterThanOrEqual(15);
    expect(rvr.issues['missing-verse'].where).toContain('JON 1:17');
  });

  it('writes _redirects whose every rewrite reaches a file of the tree, for every chapter of every book, and _headers giving each CORS', async () => {
    const host = staticHost(options.publicDir!);
    const rewrites = host.rules.filter((rule) => rule.to.startsWith('/'));
    expect(rewrites.length).toBeGreaterThan(1000);
    for (const lang of ['fr', 'en', 'es', 'pt', 'nl']) {
      const { books } = JSON.parse(await readFile(join(tree(), lang, 'books.json'), 'utf8')) as {
        books: { usfm: string; chapters: number }[];
      };
      const chapters = new Map(books.map((book) => [book.usfm, book.chapters]));
      for (const rule of rewrites.filter((candidate) => candidate.to.startsWith(`/api/v1/bible/${lang}/`))) {
        const usfm = rule.to.split('/')[5];
        const last = rule.to.includes(':chapter') ? chapters.get(usfm) : 1;
        expect(last, `${rule.from} → ${rule.to}`).toBeGreaterThan(0);
        for (const chapter of [1, last!]) {
          const file = rule.to.replace(':chapter', String(chapter)).slice(1);
          expect(existsSync(join(options.publicDir!, file)), `${rule.from} → ${file}`).toBe(true);
        }
      }
      expect(host.answer(`/api/v1/bible/${books[65].usfm}/22?lang=${lang}`)).toMatchObject({
        status: 200,
        file: `api/v1/bible/${lang}/REV/22.json`,
        headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
      });
    }
    for (const rule of rewrites.filter(
      (candidate) => !candidate.to.startsWith('/api/v1/bible/fr/') && !/\/(en|es|pt|nl)\//.test(candidate.to),
    )) {
      expect(existsSync(join(options.publicDir!, rule.to.slice(1))), rule.to).toBe(true);
    }
  });

  it("writes _redirects that Netlify's own parser reads without error and its matcher answers as the service does: all 66 books in every language and case, each language's unknown book, an unknown lang", async () => {
    const host = await netlifyHost(options.publicDir!);
    expect(host.errors).toEqual([]);
    const cases = netlifyCases(options.publicDir!, DEFAULT_ORIGIN);
    const books = new Set(cases.map((one) => /^api\/v1\/bible\/([a-z]{2}\/[A-Z0-9]{3})\//.exec(one.file ?? '')?.[1]).filter(Boolean));
    expect(books.size).toBe(5 * 66);
    expect(netlifyMismatches(host, cases)).toEqual([]);
  });

  it("writes vercel.json that Vercel's own routing library reads without error and whose routes answer every book in every language and case, with lang and without", () => {
    const host = vercelHost(options.publicDir!);
    expect(host.error).toBeNull();
    expect(host.routes.length).toBeLessThanOrEqual(2048);
    const cases = vercelCases(netlifyCases(options.publicDir!, DEFAULT_ORIGIN), DEFAULT_ORIGIN);
    expect(cases.length).toBeGreaterThan(5 * 66 * 3);
    expect(vercelMismatches(host, cases)).toEqual([]);
  });

  it('writes the alignment: a verse map per language, each verse’s pivot verses in the database, the same passage each day in every language, and the feeds', async () => {
    const maps = new Map<string, VerseAlignment>();
    for (const lang of LANGS) {
      const map = JSON.parse(await readFile(join(tree(), staticPaths.verseMap(lang).replace('api/v1/bible/', '')), 'utf8'));
      expect(Value.Check(VerseMapSchema, map), lang).toBe(true);
      maps.set(lang, new VerseAlignment(map));
    }
    const exodus8 = { usfm: 'EXO', chapter: 8, verse: 1 };
    expect(counterparts(maps.get('en')!, maps.get('fr')!, exodus8)).toEqual([{ usfm: 'EXO', chapter: 7, verse: 26 }]);
    expect(counterparts(maps.get('en')!, maps.get('es')!, { usfm: 'JON', chapter: 1, verse: 17 })).toEqual([
      { usfm: 'JON', chapter: 2, verse: 1 },
    ]);
    const db = new Database(options.databasePath!, { readonly: true });
    try {
      // The service's way: the verses of another language that share a pivot verse with KJV Exodus 8:1.
      const aligned = db
        .prepare(
          'SELECT b.lang, b.chapter, b.verse FROM verses a JOIN verse_pivots pa ON pa.verse_id = a.id ' +
            'JOIN verse_pivots pb ON pb.pivot = pa.pivot JOIN verses b ON b.id = pb.verse_id ' +
            "WHERE a.lang = 'en' AND a.usfm = 'EXO' AND a.chapter = 8 AND a.verse = 1 ORDER BY b.id",
        )
        .all() as { lang: string; chapter: number; verse: number }[];
      expect(Object.fromEntries(aligned.map((row) => [row.lang, `${row.chapter}:${row.verse}`]))).toEqual({
        fr: '7:26',
        en: '8:1',
        es: '8:1',
        pt: '8:1',
        nl: '8:1',
      });
      const { unpaired } = db
        .prepare('SELECT count(*) AS unpaired FROM verses v WHERE NOT EXISTS (SELECT 1 FROM verse_pivots p WHERE p.verse_id = v.id)')
        .get() as { unpaired: number };
      expect(unpaired).toBe(0);
    } finally {
      db.close();
    }
    const shared = new Map<string, string>();
    for (const lang of LANGS) {
      const days = await readdir(join(tree(), 'verse-of-the-day', lang));
      expect(days, lang).toHaveLength(366);
      for (const name of days) {
        const day = JSON.parse(await readFile(join(tree(), 'verse-of-the-day', lang, name), 'utf8'));
        expect(day.lang).toBe(lang);
        if (!shared.has(day.day)) shared.set(day.day, day.shared);
        expect(day.shared, `${lang} ${day.day}`).toBe(shared.get(day.day));
      }
      const feed = await readFile(join(tree(), 'verse-of-the-day', `${lang}.rss`), 'utf8');
      expect(XMLValidator.validate(feed), lang).toBe(true);
      expect(feed.match(/<item>/g), lang).toHaveLength(366);
    }
  });

  it('reports up to date on a second run and rewrites nothing', async () => {
    const files = [join(tree(), 'build.json'), join(tree(), 'en/JHN/3.json'), options.databasePath!];
    const before = await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs));
    const second = await buildBible(options);
    expect(second.status).toBe('up-to-date');
    expect(second.buildHash).toBe(first.buildHash);
    expect(await Promise.all(files.map(async (file) => (await stat(file)).mtimeMs))).toEqual(before);
  });
});
