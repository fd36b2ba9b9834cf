// Writes one large file chunk by chunk as it is made, then its .br and .gz copies, on the calling thread.
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
  const target = join(dir, ...path.split('/'));
  if (!target.startsWith(dir + sep)) throw new Error(`writeLargeFile: unsafe path ${path}`);
  mkdirSync(dirname(target), { recursive: true });
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
  const settings = compressionSettings(bytes.length);
  const brotli = brotliCompressSync(bytes, settings.brotli);
  writeFileSync(`${target}.br`, brotli);
  const gzip = gzipSync(bytes, settings.gzip);
  writeFileSync(`${target}.gz`, gzip);
  return [
    { path, bytes: bytes.length },
    { path: `${path}.br`, bytes: brotli.length },
    { path: `${path}.gz`, bytes: gzip.length },
  ];
}
