// The build pipeline on synthetic sources: builds once, skips an up-to-date output, refuses a wrong file.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { BIBLE_SCHEMA_VERSION } from '../../build/contract/layout.ts';
import Database from '../../build/contract/sqlite-driver.ts';
import { VerseMapSchema, verseKey } from '../../build/contract/verse-map.ts';
import { type BuildOptions, buildBible } from '../../build/pipeline.ts';
import type { VersionManifestEntry } from '../../build/version-manifest.ts';
import { syntheticManifestEntry } from '../helpers/manifest-entry.ts';
import { syntheticVersesOfTheDay, syntheticVersification } from '../helpers/synthetic-alignment.ts';
import { syntheticText } from '../helpers/synthetic-model.ts';

describe('Bible build pipeline (synthetic sources)', () => {
  let dir = '';
  let options: BuildOptions;
  let entries: VersionManifestEntry[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bible-pipeline-'));
    entries = [];
    // Manifest order differs from the spec's on purpose: the build orders by language.
    for (const lang of [...LANGS].reverse()) {
      const bytes = Buffer.from(`synthetic source for ${lang}`);
      await writeFile(join(dir, `${lang}.src`), bytes);
      entries.push(syntheticManifestEntry(lang, `${lang}.src`, bytes));
    }
    options = {
      sourcesDir: dir,
      publicDir: join(dir, 'public'),
      databasePath: join(dir, 'var/bible.sqlite'),
      reportPath: join(dir, 'var/bible-report.json'),
      origin: 'https://api.example.org',
      publicUrl: 'https://api.example.org/',
      versions: entries,
      readVersion: (entry) => syntheticText(entry.lang),
      versification: syntheticVersification(entries),
      versesOfTheDay: syntheticVersesOfTheDay(),
    };
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the tree, search indexes, rewrites, database and report with one build hash', async () => {
    const steps: string[] = [];
    const result = await buildBible({ ...options, onProgress: (step) => steps.push(step) });
    expect(result.status).toBe('built');
    // An origin and a public URL given: nothing to warn about.
    expect(result.warnings).toEqual([]);
    expect(steps).toContain('database and search indexes (wait)');
    const stamp = JSON.parse(await readFile(join(dir, 'public/api/v1/bible/build.json'), 'utf8'));
    expect(stamp).toMatchObject({ schemaVersion: BIBLE_SCHEMA_VERSION, buildHash: result.buildHash });
    const versions = JSON.parse(await readFile(join(dir, 'public/api/v1/bible/versions.json'), 'utf8'));
    expect(versions.versions.map((v: { lang: string }) => v.lang)).toEqual(['fr', 'en', 'es', 'pt', 'nl']);
    // A chapter gets its .gz copy only (brotli saved 2.2% on chapters for a third of the tree's files); the books list gets both.
    const chapter = await readFile(join(dir, 'public/api/v1/bible/fr/GEN/1.json'));
    expect(gunzipSync(await readFile(join(dir, 'public/api/v1/bible/fr/GEN/1.json.gz'))).equals(chapter)).toBe(true);
    expect(await exists(join(dir, 'public/api/v1/bible/fr/GEN/1.json.br'))).toBe(false);
    const books = await readFile(join(dir, 'public/api/v1/bible/fr/books.json'));
    expect(brotliDecompressSync(await readFile(join(dir, 'public/api/v1/bible/fr/books.json.br'))).equals(books)).toBe(true);
    // The large files (search indexes, downloads), whose copies the main thread makes, come with both copies, whole.
    for (const path of ['bible-search/nl.json', 'bible-search/fr.json', 'api/v1/bible/en/download.json', 'api/v1/bible/pt/download.json']) {
      const [file, br, gz] = await Promise.all(['', '.br', '.gz'].map((suffix) => readFile(join(dir, 'public', `${path}${suffix}`))));
      expect(brotliDecompressSync(br).equals(file), `${path}.br`).toBe(true);
      expect(gunzipSync(gz).equals(file), `${path}.gz`).toBe(true);
    }
    // The references widget is published with the tree, as the repository holds it.
    expect(await readFile(join(dir, 'public/widget/bible-refs.js'), 'utf8')).toBe(await readFile('public/widget/bible-refs.js', 'utf8'));
    expect(await readFile(join(dir, 'public/_redirects'), 'utf8')).toContain('https://api.example.org/api/v1/bible/search');
    expect(await readFile(join(dir, 'public/_headers'), 'utf8')).toContain(
      'Cache-Control: public, max-age=86400, stale-while-revalidate=604800',
    );
    const unknownLang = JSON.parse(await readFile(join(dir, 'public/api/v1/bible/_errors/unknown-lang.json'), 'utf8'));
    expect(unknownLang.type).toBe('https://api.example.org/docs/problems#unknown-language');
    const db = new Database(options.databasePath!, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'buildHash'").get()).toEqual({ value: result.buildHash });
    db.close();
    const report = JSON.parse(await readFile(options.reportPath!, 'utf8'));
    expect(report.versions[0]).toMatchObject({ lang: 'fr', code: 'LSG', issues: { 'missing-verse': { count: 1, where: ['JHN 3:15'] } } });
    expect(report.outputs.files).toBeGreaterThan(0);
    const onDisk = (await readdir(join(dir, 'public'), { recursive: true })).filter((name) => /\.(br|gz)$/.test(name));
    expect(report.outputs.compressedFiles).toBe(onDisk.length);
  });

  it('aligns the versions: a verse map per language, the pivot verses of every verse in the database, the days and their feeds', async () => {
    const tree = join(dir, 'public/api/v1/bible');
    for (const lang of LANGS) {
      const map = JSON.parse(await readFile(join(tree, lang, 'verse-map.json'), 'utf8'));
      expect(Value.Check(VerseMapSchema, map), lang).toBe(true);
      // Genesis 1:3 holds the text of 1:4, which the synthetic versions leave out.
      expect(map).toMatchObject({ lang, mapped: { 'GEN 1:3': ['GEN 1:3', 'GEN 1:4'] }, unmatched: [], absent: [] });
      expect(map.missing).toEqual(['GEN 1:4', ...Array.from({ length: 15 }, (_, index) => `JHN 3:${index + 1}`)]);
      // Day 01-05 is Genesis 1:4 in the shared numbering: verse 3 in every version.
      const day = JSON.parse(await readFile(join(tree, 'verse-of-the-day', lang, '01-05.json'), 'utf8'));
      expect(day).toMatchObject({ day: '01-05', lang, shared: 'GEN 1:4', from: { chapter: 1, verse: 3 }, to: { chapter: 1, verse: 3 } });
      expect((await readdir(join(tree, 'verse-of-the-day', lang))).length, lang).toBe(366);
      const feed = await readFile(join(tree, 'verse-of-the-day', `${lang}.rss`), 'utf8');
      expect(feed).toContain(`<link>https://api.example.org/api/v1/bible/verse-of-the-day?lang=${lang}</link>`);
      await stat(join(tree, 'verse-of-the-day', `${lang}.rss.br`));
    }
    const db = new Database(options.databasePath!, { readonly: true });
    try {
      // One row per verse, and one more for each Genesis 1:3 (it holds two pivot verses).
      const { verses } = db.prepare('SELECT count(*) AS verses FROM verses').get() as { verses: number };
      expect(db.prepare('SELECT count(*) AS rows FROM verse_pivots').get()).toEqual({ rows: verses + LANGS.length });
      const holders = db
        .prepare('SELECT v.lang, v.chapter, v.verse FROM verse_pivots p JOIN verses v ON v.id = p.verse_id WHERE p.pivot = ? ORDER BY v.id')
        .all(verseKey({ usfm: 'GEN', chapter: 1, verse: 4 }));
      expect(new Set(holders)).toEqual(new Set(LANGS.map((lang) => ({ lang, chapter: 1, verse: 3 }))));
    } finally {
      db.close();
    }
  });

  it('fails on a mapping that does not fit a version, or a day a version lacks, and leaves the live build as it was', async () => {
    const stamp = await readFile(join(dir, 'public/api/v1/bible/build.json'), 'utf8');
    const misfit = syntheticVersification(entries);
    misfit.versions.RVR!.mapped = { 'GEN 1:3': 'GEN 1:3-4', 'JHN 3:15': 'JHN 3:15' };
    await expect(buildBible({ ...options, versification: misfit, force: true })).rejects.toThrow(
      'The versification mapping of RVR does not fit its text (data/versification-mapping.json, 1 problem):\n  - mapped "JHN 3:15": RVR has no verse JHN 3:15',
    );
    const lacking = syntheticVersesOfTheDay();
    lacking.days['07-01'] = 'JHN 3:15';
    await expect(buildBible({ ...options, versesOfTheDay: lacking, force: true })).rejects.toThrow(
      /07-01: \w+ has no verse holding JHN 3:15/,
    );
    const unmapped = syntheticVersification(entries.filter((entry) => entry.code !== 'STV'));
    await expect(buildBible({ ...options, versification: unmapped, force: true })).rejects.toThrow(/no entry for version STV/);
    expect(await readFile(join(dir, 'public/api/v1/bible/build.json'), 'utf8')).toBe(stamp);
    expect((await readdir(join(dir, 'public'))).filter((name) => name.startsWith('.bible-staging-'))).toEqual([]);
  });

  it('does nothing when the output already carries the build hash', async () => {
    const stampPath = join(dir, 'public/api/v1/bible/build.json');
    const before = (await stat(stampPath)).mtimeMs;
    const result = await buildBible(options);
    expect(result.status).toBe('up-to-date');
    expect((await stat(stampPath)).mtimeMs).toBe(before);
  });

  it('rebuilds with --force, to identical response bytes', async () => {
    const chapter = join(dir, 'public/api/v1/bible/en/JHN/3.json');
    const before = await readFile(chapter);
    const result = await buildBible({ ...options, force: true });
    expect(result.status).toBe('built');
    expect(await readFile(chapter)).toEqual(before);
  });

  it('counts the public URL of the problem types in the build hash, as the proxy origin', async () => {
    const before = JSON.parse(await readFile(join(dir, 'public/api/v1/bible/build.json'), 'utf8')).buildHash;
    const result = await buildBible({ ...options, publicUrl: 'https://bible.example.org' });
    expect(result.status).toBe('built');
    expect(result.buildHash).not.toBe(before);
    const unknownBook = JSON.parse(await readFile(join(dir, 'public/api/v1/bible/_errors/en/unknown-book.json'), 'utf8'));
    expect(unknownBook.type).toBe('https://bible.example.org/docs/problems#bible-book-not-found');
    await expect(buildBible({ ...options, publicUrl: 'bible.example.org' })).rejects.toThrow(/absolute URL/);
  });

  it('warns, one line each, when the files for static hosts fall back to a placeholder origin or public URL, built or up to date', async () => {
    const defaults = { ...options, origin: undefined, publicUrl: undefined };
    for (const expected of ['built', 'up-to-date']) {
      const result = await buildBible(defaults);
      expect(result.status).toBe(expected);
      expect(result.warnings).toEqual([
        expect.stringMatching(
          /^_redirects, _worker\.js and vercel\.json send ranges, search and passages to the placeholder https:\/\/bible-api\.invalid: give --origin /,
        ),
        expect.stringMatching(
          /name their problem types at http:\/\/127\.0\.0\.1:3000\/docs\/problems: give --public-url, or PUBLIC_BASE_URL/,
        ),
      ]);
    }
    expect(await readFile(join(dir, 'public/_redirects'), 'utf8')).toContain('https://bible-api.invalid/api/v1/bible/search');
    const withOrigin = await buildBible({ ...defaults, origin: 'https://api.example.org' });
    expect(withOrigin.warnings).toEqual([expect.stringMatching(/^The error files for static hosts/)]);
  });

  it("writes a folder for one host: Pages gets its _worker.js and _routes.json, no other host's files and no .br/.gz copies, with the same build hash as the service's folder", async () => {
    const all = await buildBible({ ...options, force: true });
    const pagesDir = join(dir, 'pages');
    const pages = await buildBible({ ...options, publicDir: pagesDir, host: 'pages' });
    expect(pages.status).toBe('built');
    // The database is shared: it must keep agreeing with the service's tree.
    expect(pages.buildHash).toBe(all.buildHash);
    expect(pages.warnings).toEqual([]);
    expect((await readdir(pagesDir)).sort()).toEqual(['_routes.json', '_worker.js', 'api', 'bible-search', 'widget']);
    const files = await readdir(pagesDir, { recursive: true });
    expect(files.filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
    expect(files).toContain(join('api', 'v1', 'bible', 'en', 'JHN', '3.json'));
    expect(files).toContain(join('bible-search', 'nl.json'));
    expect(files).not.toContain(join('api', 'v1', 'bible', '_errors', 'unknown-lang.json'));
    expect(await readFile(join(pagesDir, 'api/v1/bible/en/JHN/3.json'))).toEqual(
      await readFile(join(dir, 'public/api/v1/bible/en/JHN/3.json')),
    );
    // Up to date only as a folder for the same host; another host's build swaps the root files and the copies.
    expect((await buildBible({ ...options, publicDir: pagesDir, host: 'pages' })).status).toBe('up-to-date');
    expect((await buildBible({ ...options, publicDir: pagesDir, host: 'netlify' })).status).toBe('built');
    expect((await readdir(pagesDir)).sort()).toEqual(['_headers', '_redirects', 'api', 'bible-search', 'widget']);
    expect((await readdir(pagesDir, { recursive: true })).filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
    expect((await buildBible({ ...options, publicDir: pagesDir })).status).toBe('built');
    await stat(join(pagesDir, 'api/v1/bible/en/JHN/3.json.gz'));
    await stat(join(pagesDir, 'bible-search/nl.json.gz'));
    // A folder without copies is not reused version by version into one that wants them, nor the other way.
    expect((await buildBible({ ...options, publicDir: pagesDir, host: 'pages' })).status).toBe('built');
    expect((await readdir(pagesDir, { recursive: true })).filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
  });

  it('refuses a source whose SHA-256 is not the pinned one', async () => {
    const tampered = entries.map((entry, index) => (index === 0 ? { ...entry, sha256: '0'.repeat(64) } : entry));
    await expect(buildBible({ ...options, versions: tampered, force: true })).rejects.toThrow(/SHA-256|sha256|hash/i);
  });
});

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
