// The download writer: one file per version made of the tree's own bodies, its link (size, SHA-256), and its compressed copies written off the main thread.
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { staticPaths } from '../../../build/contract/layout.ts';
import { compressedCopies } from '../../../build/writers/compress.ts';
import { downloadFile } from '../../../build/writers/download.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import type { OutputFile } from '../../../build/writers/types.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

const french = syntheticVersions(['fr'])[0]!;
const english = syntheticVersions(['en'])[0]!;
const bytes = (file: OutputFile) => Buffer.from(file.content);

describe('downloadFile', () => {
  it('holds the version, the books file and every chapter file of the tree, as they are', () => {
    const tree = new Map(
      staticTree([english], 'hash', (info) => `hash-${info.code}`).map((file) => [file.path, JSON.parse(String(file.content))]),
    );
    const { file } = downloadFile(english);
    expect(file.path).toBe('api/v1/bible/en/download.json');
    const body = JSON.parse(bytes(file).toString('utf8'));
    const { download: _link, ...version } = tree.get(staticPaths.versions).versions[0];
    expect(body.version).toEqual(version);
    expect(body.books).toEqual(tree.get(staticPaths.books('en')).books);
    const chapterPaths = [...tree.keys()].filter((path) => /\/[A-Z0-9]{3}\/\d+\.json$/.test(path));
    expect(body.chapters).toEqual(chapterPaths.map((path) => tree.get(path)));
    expect(body.chapters.map((chapter: { book: { usfm: string }; chapter: number }) => `${chapter.book.usfm} ${chapter.chapter}`)).toEqual([
      'GEN 1',
      'GEN 2',
      'PSA 1',
      'JHN 1',
      'JHN 2',
      'JHN 3',
    ]);
  });

  it('links to the API URL with the size and SHA-256 of its bytes, the same each time (no build hash or time inside)', () => {
    const { file, link } = downloadFile(french);
    expect(link).toEqual({
      url: '/api/v1/bible/download?lang=fr',
      bytes: bytes(file).length,
      sha256: createHash('sha256').update(bytes(file)).digest('hex'),
    });
    expect(downloadFile(french).link).toEqual(link);
    expect(staticTree([french], 'another-hash', (info) => `another-${info.code}`).find((f) => f.path === file.path)?.content).toEqual(
      file.content,
    );
  });
});

describe("the download's compressed copies", () => {
  it('are a .br and a .gz that decompress to the same bytes the link hashes', () => {
    for (const version of [french, english]) {
      const { file, link } = downloadFile(version);
      const copies = compressedCopies(file);
      expect(copies.map((copy) => copy.path)).toEqual([`${file.path}.br`, `${file.path}.gz`]);
      const plain = bytes(file);
      expect(createHash('sha256').update(plain).digest('hex')).toBe(link.sha256);
      expect(brotliDecompressSync(bytes(copies[0]!)).equals(plain)).toBe(true);
      expect(gunzipSync(bytes(copies[1]!)).equals(plain)).toBe(true);
    }
  });
});
