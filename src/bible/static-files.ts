// Files of the static Bible tree with their strong ETags, one per stored encoding: held in memory, or streamed from disk (downloads).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import { parseBuildStamp } from '../../build/contract/stamp.ts';
import { strongEtag } from '../http/cache.ts';
import { ApiError } from '../http/problem.ts';
import { type DiskFile, representation, type StoredFile } from '../http/representations.ts';

/** The Content-Type of every file of the tree: JSON, as the service's own answers. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface StaticFiles {
  /**
   * The file at `relativePath` (a staticPaths path), read once and kept in a small LRU;
   * undefined when the tree has no such file.
   *
   * @example files.get(staticPaths.books('fr'))?.identity.etag
   */
  get(relativePath: string): StoredFile | undefined;
  /**
   * The file at `relativePath` and its variants, opened but not read: for files too large to hold
   * (a version's download is 5-6 MB), sent by streaming. The identity's ETag is computed once per
   * file on disk and remembered. Undefined when the tree has no such file.
   *
   * @example const file = await files.open(staticPaths.download('en'));
   */
  open(relativePath: string): Promise<DiskFile | undefined>;
}

/**
 * Files held at most: every versions and books file, the 1,830 verse-of-the-day files (366 days in
 * five languages, 1 MB with their .br and .gz) and a couple of thousand hot chapters. At 512, a
 * client asking for days across the year (a calendar page, the bench's verse-of-the-day@500) missed
 * almost every time: four files read from disk per answer, p50 0.54 -> 0.16-0.34 ms and p99 5.4-6.4
 * -> 2.7-3.6 ms at 500/s once every day fits (issue 28).
 */
const DEFAULT_CAPACITY = 4096;

/**
 * Bytes held at most, all stored encodings counted: a bound on memory whatever the files weigh. A
 * chapter with its two compressed copies is about 9 kB (Psalm 119 about 60), so 16 MiB holds the
 * verse-of-the-day files and some 1,700 chapters; the service's memory goal (150 MB) leaves no room
 * for more.
 */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export interface StaticFilesOptions {
  /** The build the open database belongs to; a file is served only while the tree's stamp says the same. */
  buildHash: string;
  /** Called when the tree on disk has moved on to another build, so the source looks again at once. */
  onStale: () => void;
  /** Files held at most (default 512). */
  capacity?: number;
  /** Bytes held at most, over every stored encoding (default 64 MiB). */
  maxBytes?: number;
}

/**
 * Reads files of the tree under `publicDir`; a new build gets a new instance, so nothing stale
 * survives it. Each read from disk first checks the stamp: once a rebuild has swapped the tree,
 * its files are not served beside the old database (503 until the source has reopened).
 */
export function createStaticFiles(publicDir: string, options: StaticFilesOptions): StaticFiles {
  const cache = new LRUCache<string, StoredFile>({
    max: options.capacity ?? DEFAULT_CAPACITY,
    maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
    sizeCalculation: storedBytes,
  });
  const stampFile = path.join(publicDir, ...staticPaths.stamp.split('/'));
  // ETags of the files opened from disk, by path and on-disk identity (a rebuild renames new files in: new inodes).
  const diskEtags = new LRUCache<string, string>({ max: 64 });
  return {
    get(relativePath) {
      const cached = cache.get(relativePath);
      if (cached) return cached;
      const file = readStaticFile(path.join(publicDir, ...relativePath.split('/')));
      if (stampBuildHash(stampFile) !== options.buildHash) {
        options.onStale();
        throw new ApiError(problems.bibleRebuilding());
      }
      if (!file) return undefined;
      cache.set(relativePath, file);
      return file;
    },
    async open(relativePath) {
      const file = path.join(publicDir, ...relativePath.split('/'));
      const [identity, br, gzip] = await Promise.all([openIfExists(file), openIfExists(`${file}.br`), openIfExists(`${file}.gz`)]);
      const handles = [identity, br, gzip].filter((handle) => handle !== undefined);
      try {
        // Checked after opening, as get() checks after reading: open files of another build are never sent.
        if (stampBuildHash(stampFile) !== options.buildHash) {
          options.onStale();
          throw new ApiError(problems.bibleRebuilding());
        }
        if (!identity) {
          await Promise.all(handles.map((handle) => handle.close()));
          return undefined;
        }
        const stats = await identity.stat();
        const key = `${relativePath}\0${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
        let opaque = diskEtags.get(key);
        if (opaque === undefined) {
          opaque = await sha256Base64url(identity, stats.size);
          diskEtags.set(key, opaque);
        }
        const result: DiskFile = {
          kind: 'streamed',
          identity: { coding: 'identity', handle: identity, size: stats.size, etag: `"${opaque}"` },
        };
        if (br) result.br = { coding: 'br', handle: br, size: (await br.stat()).size, etag: `"${opaque}-br"` };
        if (gzip) result.gzip = { coding: 'gzip', handle: gzip, size: (await gzip.stat()).size, etag: `"${opaque}-gzip"` };
        return result;
      } catch (error) {
        await Promise.all(handles.map((handle) => handle.close()));
        throw error;
      }
    },
  };
}

/** The base64url SHA-256 of an open file (as strongEtag makes of bytes), read in blocks rather than whole. */
async function sha256Base64url(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  const block = Buffer.allocUnsafe(Math.min(size, 1024 * 1024) || 1);
  for (let position = 0; position < size; ) {
    const { bytesRead } = await handle.read(block, 0, block.length, position);
    if (bytesRead === 0) break;
    hash.update(block.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('base64url');
}

async function openIfExists(file: string): Promise<FileHandle | undefined> {
  try {
    return await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** What a file costs in memory; at least 1, as lru-cache requires. */
function storedBytes(file: StoredFile): number {
  return Math.max(1, file.identity.bytes.length + (file.br?.bytes.length ?? 0) + (file.gzip?.bytes.length ?? 0));
}

function stampBuildHash(stampFile: string): string | undefined {
  const bytes = readIfExists(stampFile);
  if (!bytes) return undefined;
  try {
    return parseBuildStamp(bytes.toString('utf8')).buildHash;
  } catch {
    return undefined;
  }
}

function readStaticFile(file: string): StoredFile | undefined {
  const identity = readIfExists(file);
  if (!identity) return undefined;
  // Strong ETags are per representation: the compressed variants share the identity's hash with a suffix.
  const tag = strongEtag(identity);
  const opaque = tag.slice(1, -1);
  const result: StoredFile = { kind: 'stored', identity: representation('identity', identity, tag, JSON_CONTENT_TYPE) };
  const br = readIfExists(`${file}.br`);
  if (br) result.br = representation('br', br, `"${opaque}-br"`, JSON_CONTENT_TYPE);
  const gzip = readIfExists(`${file}.gz`);
  if (gzip) result.gzip = representation('gzip', gzip, `"${opaque}-gzip"`, JSON_CONTENT_TYPE);
  return result;
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** A file the stamp promises; its absence means a broken tree, not a client error (a logged 500). */
export function requireFile<F extends StoredFile | DiskFile>(file: F | undefined, relativePath: string): F {
  if (!file) throw new Error(`Bible tree lacks ${relativePath}`);
  return file;
}
