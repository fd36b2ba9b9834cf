// The download writer: one file per version made of the tree's own bodies, its link (size, SHA-256), and its compressed copies written off the main thread.
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { staticPaths } from '../../../build/contract/layout.ts';
import { DownloadWriter, downloadFile } from '../../../build/writers/download.ts';
import { staticTree } from '../../../build/writers/static-tree.ts';
import type { OutputFile } from '../../../build/writers/types.ts';
import { syntheticVersions } from '../../helpers/synthetic-model.ts';

const french = syntheticVersions(['fr'])[0]!;
const english = syntheticVersions(['en'])[0]!;
const bytes = (file: OutputFile) => Buffer.from(file.content);

describe('downloadFile', () => {
  it('holds the version, the books file and every chapter file of the tree, as they are', () => {
    const tree = new Map(staticTree([english], 'hash').map((file) => [file.path, JSON.parse(String(file.content))]));
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
    expect(staticTree([french], 'another-hash').find((f) => f.path === file.path)?.content).toEqual(file.content);
  });
});

describe('DownloadWriter', () => {
  it('writes each version, then its .br and .gz, which decompress to the same bytes', async () => {
    const written: OutputFile[] = [];
    const writer = new DownloadWriter((file) => written.push(file));
    const links = [await writer.add(french), await writer.add(english)];
    await writer.finish();
    expect(written.map((file) => file.path)).toEqual([
      'api/v1/bible/fr/download.json',
      'api/v1/bible/fr/download.json.br',
      'api/v1/bible/fr/download.json.gz',
      'api/v1/bible/en/download.json',
      'api/v1/bible/en/download.json.br',
      'api/v1/bible/en/download.json.gz',
    ]);
    for (const [index, link] of links.entries()) {
      const [plain, br, gz] = written.slice(index * 3, index * 3 + 3).map(bytes);
      expect(createHash('sha256').update(plain!).digest('hex')).toBe(link.sha256);
      expect(brotliDecompressSync(br!).equals(plain!)).toBe(true);
      expect(gunzipSync(gz!).equals(plain!)).toBe(true);
    }
  });

  it('after abort, writes nothing more', async () => {
    const written: string[] = [];
    const writer = new DownloadWriter((file) => written.push(file.path));
    await writer.add(french);
    await writer.abort();
    expect(written).toEqual(['api/v1/bible/fr/download.json']);
  });
});
