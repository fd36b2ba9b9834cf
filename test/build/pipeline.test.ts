// The build pipeline on synthetic sources: builds once, skips an up-to-date output, refuses a wrong file.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGS } from '../../build/contract/books.ts';
import { BIBLE_SCHEMA_VERSION } from '../../build/contract/layout.ts';
import Database from '../../build/contract/sqlite-driver.ts';
import { type BuildOptions, buildBible } from '../../build/pipeline.ts';
import type { VersionManifestEntry } from '../../build/version-manifest.ts';
import { syntheticManifestEntry } from '../helpers/manifest-entry.ts';
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
    await stat(join(dir, 'public/api/v1/bible/fr/GEN/1.json.br'));
    await stat(join(dir, 'public/api/v1/bible/fr/GEN/1.json.gz'));
    // The large files (search indexes, downloads), whose copies the main thread makes, come with both copies, whole.
    for (const path of ['bible-search/nl.json', 'bible-search/fr.json', 'api/v1/bible/en/download.json', 'api/v1/bible/pt/download.json']) {
      const [file, br, gz] = await Promise.all(['', '.br', '.gz'].map((suffix) => readFile(join(dir, 'public', `${path}${suffix}`))));
      expect(brotliDecompressSync(br).equals(file), `${path}.br`).toBe(true);
      expect(gunzipSync(gz).equals(file), `${path}.gz`).toBe(true);
    }
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
          /^_redirects sends ranges, search and passages to the placeholder https:\/\/bible-api\.invalid: give --origin /,
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

  it('refuses a source whose SHA-256 is not the pinned one', async () => {
    const tampered = entries.map((entry, index) => (index === 0 ? { ...entry, sha256: '0'.repeat(64) } : entry));
    await expect(buildBible({ ...options, versions: tampered, force: true })).rejects.toThrow(/SHA-256|sha256|hash/i);
  });
});
