// The static tree: response bodies with the contract's shapes, deterministic bytes, precompressed copies.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BIBLE_SCHEMA_VERSION } from '../../../build/contract/layout.ts';
import { compressedCopies, precompress } from '../../../build/writers/compress.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import type { VersionInfo } from '../../../build/writers/types.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

const versionHash = (info: VersionInfo) => `version-${info.code}`;
const files = staticTree(syntheticVersions(), 'hash-tree', versionHash);
const byPath = new Map(files.map((file) => [file.path, JSON.parse(String(file.content))]));

describe('static tree writer', () => {
  it('lists the versions in the order fr, en, es, pt, nl with counts', () => {
    const { versions } = byPath.get('api/v1/bible/versions.json');
    expect(versions.map((v: { lang: string }) => v.lang)).toEqual(['fr', 'en', 'es', 'pt', 'nl']);
    expect(Object.keys(versions[0])).toEqual([
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
    expect(versions[0]).toMatchObject({ code: 'LSG', books: 3, chapters: 6, verses: 10 });
  });

  it('gives each language its books with chapter counts from the data', () => {
    expect(byPath.get('api/v1/bible/en/books.json')).toEqual({
      lang: 'en',
      version: 'KJV',
      books: [
        { usfm: 'GEN', abbr: 'Gen', name: 'Genesis', testament: 'OT', chapters: 2, verseCounts: [5, 1] },
        expect.objectContaining({ usfm: 'PSA', chapters: 1 }),
        expect.objectContaining({ usfm: 'JHN', testament: 'NT', chapters: 3 }),
      ],
    });
  });

  it('writes a chapter with from/to and optional verse fields', () => {
    expect(byPath.get('api/v1/bible/fr/GEN/1.json')).toEqual({
      lang: 'fr',
      version: 'LSG',
      book: { usfm: 'GEN', abbr: 'Gn', name: 'Genèse', testament: 'OT' },
      chapter: 1,
      from: 1,
      to: 5,
      verseCount: 5,
      previous: null,
      next: { usfm: 'GEN', abbr: 'Gn', chapter: 2 },
      attribution: 'Synthetic LSG, made for tests.',
      verses: [
        { verse: 1, text: expect.stringContaining('Éternel'), heading: 'La création' },
        { verse: 2, text: 'fr Genesis 1:2 text.', notes: ['A note on verse 2.'] },
        { verse: 3, text: 'fr Genesis 1:3-4 text.' },
        { verse: 5, text: 'fr Genesis 1:5 text.' },
      ],
    });
    expect(byPath.get('api/v1/bible/en/JHN/3.json')).toMatchObject({ from: 16, to: 17, next: null });
    // Previous and next run across books.
    expect(byPath.get('api/v1/bible/en/PSA/1.json')).toMatchObject({
      previous: { usfm: 'GEN', chapter: 2 },
      next: { usfm: 'JHN', chapter: expect.any(Number) },
    });
  });

  it('writes a stamp with schema version, build hash and counts', () => {
    expect(byPath.get('api/v1/bible/build.json')).toMatchObject({
      schemaVersion: BIBLE_SCHEMA_VERSION,
      buildHash: 'hash-tree',
      versions: expect.arrayContaining([expect.objectContaining({ lang: 'fr', code: 'LSG', books: 3, versionHash: 'version-LSG' })]),
    });
  });

  it('produces identical bytes on a rebuild', () => {
    expect(staticTree(syntheticVersions(), 'hash-tree', versionHash)).toEqual(files);
  });

  it('precompresses every JSON file as .br and .gz', async () => {
    const compressed = await precompress(files);
    expect(compressed).toHaveLength(files.length * 2);
    const original = String(files[1].content);
    expect(compressed[2].path).toBe(`${files[1].path}.br`);
    expect(brotliDecompressSync(compressed[2].content).toString()).toBe(original);
    expect(gunzipSync(compressed[3].content).toString()).toBe(original);
  });

  it('makes only the .gz copies with brotli: false, as the build does for chapters', async () => {
    const original = String(files[1].content);
    const fromPrecompress = await precompress(files, { brotli: false });
    expect(fromPrecompress.map((copy) => copy.path)).toEqual(files.map((file) => `${file.path}.gz`));
    expect(compressedCopies(files[1], { brotli: false }).map((copy) => copy.path)).toEqual([`${files[1].path}.gz`]);
    const [gz] = compressedCopies(files[1], { brotli: false });
    expect(gunzipSync(gz!.content).toString()).toBe(original);
  });
});
