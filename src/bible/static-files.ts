// Files of the static Bible tree with their strong ETags, one per stored encoding: held in memory, or streamed from disk (downloads).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { BIBLE_CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import { parseBuildStamp } from '../../build/contract/stamp.ts';
import { strongEtag } from '../http/cache.ts';
import { ApiError } from '../http/problem.ts';

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** One stored representation of a file: its bytes, its own strong ETag, and the headers of its answers, made once. */
export interface Representation {
  coding: ContentCoding;
  bytes: Buffer;
  etag: string;
  /** The headers of a 200 (caching, validator, type, coding, length), as name, value, name, value... for writeHead. */
  okHeaders: readonly string[];
  /** The headers of a 304: caching and validator only. */
  notModifiedHeaders: readonly string[];
}

/** A file of the tree: the identity bytes and whichever precompressed variants lie beside it. */
export interface StaticFile {
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
}

/** A representation streamed from disk: the file opened (so a rebuild cannot swap it mid-answer), its size and ETag. */
export interface DiskRepresentation {
  coding: ContentCoding;
  handle: FileHandle;
  size: number;
  etag: string;
}

/** A large file of the tree, opened with its precompressed variants; the caller closes every handle (closeDiskFile). */
export interface DiskFile {
  identity: DiskRepresentation;
  br?: DiskRepresentation;
  gzip?: DiskRepresentation;
}

export interface StaticFiles {
  /**
   * The file at `relativePath` (a staticPaths path), read once and kept in a small LRU;
   * undefined when the tree has no such file.
   *
   * @example files.get(staticPaths.books('fr'))?.identity.etag
   */
  get(relativePath: string): StaticFile | undefined;
  /**
   * The file at `relativePath` and its variants, opened but not read: for files too large to hold
   * (a version's download is 5-6 MB), sent by streaming. The identity's ETag is computed once per
   * file on disk and remembered. Undefined when the tree has no such file.
   *
   * @example const file = await files.open(staticPaths.download('en'));
   */
  open(relativePath: string): Promise<DiskFile | undefined>;
}

/** Enough for every versions and books file plus a few hundred hot chapters (a chapter is a few kB). */
const DEFAULT_CAPACITY = 512;

/** Bytes held at most, all stored encodings counted: a bound on memory whatever the files weigh. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

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
  const cache = new LRUCache<string, StaticFile>({
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
        const result: DiskFile = { identity: { coding: 'identity', handle: identity, size: stats.size, etag: `"${opaque}"` } };
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

/** Closes the handles of a file opened by StaticFiles.open, except `keep` (the one being streamed, which closes itself). */
export async function closeDiskFile(file: DiskFile, keep?: DiskRepresentation): Promise<void> {
  const handles = [file.identity, file.br, file.gzip].filter((representation) => representation && representation !== keep);
  await Promise.all(handles.map((representation) => representation!.handle.close()));
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
function storedBytes(file: StaticFile): number {
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

function readStaticFile(file: string): StaticFile | undefined {
  const identity = readIfExists(file);
  if (!identity) return undefined;
  // Strong ETags are per representation: the compressed variants share the identity's hash with a suffix.
  const tag = strongEtag(identity);
  const opaque = tag.slice(1, -1);
  const result: StaticFile = { identity: representation('identity', identity, tag) };
  const br = readIfExists(`${file}.br`);
  if (br) result.br = representation('br', br, `"${opaque}-br"`);
  const gzip = readIfExists(`${file}.gz`);
  if (gzip) result.gzip = representation('gzip', gzip, `"${opaque}-gzip"`);
  return result;
}

/** A representation with the headers of its 200 and 304 answers (send-static.ts sends them as they are). */
function representation(coding: ContentCoding, bytes: Buffer, etag: string): Representation {
  const notModifiedHeaders = ['Cache-Control', BIBLE_CACHE_CONTROL, 'Vary', 'Accept-Encoding', 'ETag', etag];
  const okHeaders = [
    ...notModifiedHeaders,
    'Content-Type',
    'application/json; charset=utf-8',
    ...(coding === 'identity' ? [] : ['Content-Encoding', coding]),
    'Content-Length',
    String(bytes.length),
  ];
  return { coding, bytes, etag, okHeaders, notModifiedHeaders };
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The coding name `x-gzip` in an Accept-Encoding list. */
const X_GZIP = /(^|,)\s*x-gzip\b/gi;

/**
 * The representation to send for an Accept-Encoding header, chosen by negotiator (the library
 * behind Express's req.acceptsEncodings): the stored coding with the highest q-value, ties broken
 * br > gzip > identity, `x-gzip` read as gzip; identity when nothing else is acceptable, even after
 * `identity;q=0` (we never answer 406: identity is better than an error for a read-only JSON API).
 * req.acceptsEncodings itself breaks ties by the client's order, which would send gzip to browsers
 * that list `gzip, deflate, br`; negotiator's `preferred` option keeps the server's order.
 *
 * @example negotiate(file, 'gzip, deflate, br').coding // 'br' when a .br file is stored
 */
export function negotiate<R extends { coding: ContentCoding }>(
  file: { identity: R; br?: R; gzip?: R },
  acceptEncoding: string | undefined,
): R {
  const chosen = acceptEncoding === undefined ? 'identity' : chosenCoding(file.br !== undefined, file.gzip !== undefined, acceptEncoding);
  if (chosen === 'br' && file.br) return file.br;
  if (chosen === 'gzip' && file.gzip) return file.gzip;
  return file.identity;
}

/** Choices made, by stored codings and header: clients send a handful of different Accept-Encoding values. */
const chosenCodings = new Map<string, string | undefined>();

/** Different headers remembered at most; past it the map starts again (the header is the client's to vary). */
const REMEMBERED_CHOICES = 256;

/** negotiator's choice among the stored codings for `acceptEncoding`, remembered. */
function chosenCoding(hasBr: boolean, hasGzip: boolean, acceptEncoding: string): string | undefined {
  const key = `${hasBr ? 'b' : '-'}${hasGzip ? 'g' : '-'}${acceptEncoding}`;
  if (chosenCodings.has(key)) return chosenCodings.get(key);
  const available = [...(hasBr ? ['br'] : []), ...(hasGzip ? ['gzip'] : []), 'identity'];
  // RFC 9110 §8.4.1.3: x-gzip is gzip, also when it refuses (x-gzip;q=0).
  const header = acceptEncoding.replace(X_GZIP, '$1gzip');
  const chosen = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(available, { preferred: available });
  if (chosenCodings.size >= REMEMBERED_CHOICES) chosenCodings.clear();
  chosenCodings.set(key, chosen);
  return chosen;
}
