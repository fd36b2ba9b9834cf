// Writes one large file (chunk by chunk as it is made, or whole), then its .br and .gz copies, on the calling thread.
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
 * Writes `chunks` to `path` under `dir` (a staging folder) as they come, then compresses the
 * whole into `.br` and `.gz` copies with the settings of compress.ts (its large-file ones). The text is never
 * one string; its bytes are held once, for the compressors, read back from the file just written.
 *
 * Why the compressors run here rather than as zlib streams on libuv's thread pool: each pool
 * thread that runs an encoder keeps what it allocated in a malloc arena of its own, so five
 * indexes compressed on four pool threads kept about 50 MB more resident than on one thread
 * (measured as the build's peak with and without MALLOC_ARENA_MAX=2); the build runs on two
 * cores, already busy with two threads, so the pool bought no time.
 *
 * @example writeLargeFile(staging.dir, 'bible-search/en.json', index.chunks())
 */
export function writeLargeFile(dir: string, path: string, chunks: Iterable<string>): WrittenFile[] {
  const target = targetPath(dir, path);
  const fd = openSync(target, 'w');
  try {
    for (const chunk of chunks) {
      const buffer = Buffer.from(chunk);
      for (let written = 0; written < buffer.length; ) written += writeSync(fd, buffer, written);
    }
  } finally {
    closeSync(fd);
  }
  // Read back whole for the compressors (from the page cache): one copy of the bytes, never two.
  const bytes = readFileSync(target);
  return [{ path, bytes: bytes.length }, ...writeCompressedCopies(target, path, bytes)];
}

/**
 * Writes `bytes`, a large file made whole elsewhere (a version's download, handed over by the
 * tree thread), then its `.br` and `.gz` copies, as `writeLargeFile` does.
 *
 * @example writeLargeBuffer(staging.dir, 'api/v1/bible/en/download.json', content)
 */
export function writeLargeBuffer(dir: string, path: string, bytes: Uint8Array): WrittenFile[] {
  const target = targetPath(dir, path);
  writeFileSync(target, bytes);
  return [{ path, bytes: bytes.byteLength }, ...writeCompressedCopies(target, path, bytes)];
}

/** Where `path` goes under `dir`, its folder created. */
function targetPath(dir: string, path: string): string {
  const target = join(dir, ...path.split('/'));
  if (!target.startsWith(dir + sep)) throw new Error(`writeLargeFile: unsafe path ${path}`);
  mkdirSync(dirname(target), { recursive: true });
  return target;
}

/** The .br then the .gz copy of `bytes` beside `target`, one compressed copy held at a time. */
function writeCompressedCopies(target: string, path: string, bytes: Uint8Array): WrittenFile[] {
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
