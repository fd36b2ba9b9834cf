// Writes one large file (chunk by chunk as it is made, or whole); its .br and .gz copies are made apart, from the file on disk (the build's main thread makes them).
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { compressionSettings } from './compress.ts';

/** What was written: one entry per file (the file, then its .br and .gz copies). */
export interface WrittenFile {
  path: string;
  bytes: number;
}

/**
 * Writes `chunks` (text, or its UTF-8 bytes) to `path` under `dir` (a staging folder) as they come:
 * the file is never whole in memory. Its compressed copies are made by `compressLargeFile`, from the file.
 *
 * @example writeLargeFile(staging.dir, 'bible-search/en.json', index.chunks())
 */
export function writeLargeFile(dir: string, path: string, chunks: Iterable<string | Uint8Array>): WrittenFile {
  const fd = openSync(targetPath(dir, path), 'w');
  let bytes = 0;
  try {
    for (const chunk of chunks) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let written = 0; written < buffer.byteLength; ) written += writeSync(fd, buffer, written);
      bytes += buffer.byteLength;
    }
  } finally {
    closeSync(fd);
  }
  return { path, bytes };
}

/**
 * Writes `bytes`, a large file made whole (a version's download), as `writeLargeFile` does.
 *
 * @example writeLargeBuffer(staging.dir, 'api/v1/bible/en/download.json', content)
 */
export function writeLargeBuffer(dir: string, path: string, bytes: Uint8Array): WrittenFile {
  writeFileSync(targetPath(dir, path), bytes);
  return { path, bytes: bytes.byteLength };
}

/**
 * Makes the `.br` and `.gz` copies of the large file `path` under `dir`, read back whole (from the
 * page cache) with the large-file settings of compress.ts, one compressed copy held at a time.
 *
 * Why on the calling thread with the synchronous API rather than as zlib streams on libuv's
 * thread pool: each pool thread that runs an encoder keeps what it allocated in a malloc arena of
 * its own, so five indexes compressed on four pool threads kept about 50 MB more resident than on
 * one thread (measured as the build's peak with and without MALLOC_ARENA_MAX=2).
 *
 * @example compressLargeFile(staging.dir, 'bible-search/en.json') // [{ path: 'bible-search/en.json.br', bytes }, { path: '….gz', bytes }]
 */
export function compressLargeFile(dir: string, path: string): WrittenFile[] {
  const target = targetPath(dir, path, false);
  const bytes = readFileSync(target);
  const settings = compressionSettings(bytes.byteLength);
  const brotli = brotliCompressSync(bytes, settings.brotli);
  writeFileSync(`${target}.br`, brotli);
  const brotliBytes = brotli.length;
  const gzip = gzipSync(bytes, settings.gzip);
  writeFileSync(`${target}.gz`, gzip);
  return [
    { path: `${path}.br`, bytes: brotliBytes },
    { path: `${path}.gz`, bytes: gzip.length },
  ];
}

/** Where `path` goes under `dir`, its folder created when `create`. */
function targetPath(dir: string, path: string, create = true): string {
  const target = join(dir, ...path.split('/'));
  if (!target.startsWith(dir + sep)) throw new Error(`unsafe path for a large file: ${path}`);
  if (create) mkdirSync(dirname(target), { recursive: true });
  return target;
}
