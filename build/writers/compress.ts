// Precompressed copies (.br and .gz) of the JSON output, for nginx gzip_static and other static hosts.
import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type ZlibOptions } from 'node:zlib';
import type { OutputFile } from './types.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface CompressOptions {
  /** Brotli quality, 0-11. */
  brotliQuality?: number;
  /** Gzip level, 1-9. */
  gzipLevel?: number;
  /** Files larger than this get cheaper settings (big search indexes and downloads would dominate the build). */
  largeFileBytes?: number;
  largeFileBrotliQuality?: number;
  /** Largest brotli window (log2) for a large file. */
  largeFileBrotliWindow?: number;
  largeFileGzipLevel?: number;
  /** Whether a `.br` copy is made beside the `.gz` one (default true; the chapter files get none: tree-thread.ts). */
  brotli?: boolean;
}

/**
 * Defaults measured on the KJV chapter files (5.3 MB, 1,192 files) on this two-core machine:
 * quality 8 gives 1.946 MB in 0.22 s, quality 9 the same size in 7.9 s (a cliff in the encoder's
 * strategy), 11 gives 10% less in 6.3 s. Measured again on the 5,945 chapter files of the five
 * versions (27.5 MB), CPU of one thread: quality 8 10.695 MB in 1.88 s, quality 7 10.695 MB (the
 * same to the kilobyte; 468 files differ in their bytes) in 1.07 s, 6 10.703 MB in 0.96 s: 7.
 * Gzip 9 is kept (10.922 MB in 0.66 s; 6 saves 0.1 s for 3 kB more).
 *
 * Large files (the five search indexes, 8.5-9 MB each, and the five downloads, 5.7-6.3 MB), measured
 * together, CPU best of three (a fresh encoder's memory from a fresh process): a 1 MB brotli window
 * (2^20) rather than 4 MB takes each encoder 13 MB of RSS instead of 35 (its ring buffer and hash
 * chains follow the window) for 0.3% more bytes. At that window, quality 4 gives 16.6 MB in 1.8 s,
 * quality 3 17.6 MB in 0.7 s and quality 2 17.5 MB in 0.5-0.8 s (its simpler hasher compresses
 * these better than 3's); gzip 4 gives 19.1 MB in 0.9 s, gzip 2 20.7 MB in 0.6 s. Quality 2 and
 * gzip 2: 5% and 9% more bytes for a file fetched once (and by few clients without brotli), for
 * 1.5 s less of the build's CPU, a quarter of the six-second goal on two cores (issue 28,
 * `npm run bench:bible`). The copies stay the same files in the same formats; only their bytes change.
 */
export const DEFAULT_COMPRESS_OPTIONS: Required<CompressOptions> = {
  brotliQuality: 7,
  gzipLevel: 9,
  largeFileBytes: 1_000_000,
  largeFileBrotliQuality: 2,
  largeFileBrotliWindow: 20,
  largeFileGzipLevel: 2,
  brotli: true,
};

/** The brotli and gzip settings for one input of `bytes` bytes. */
export interface CompressionSettings {
  brotli: BrotliOptions;
  gzip: ZlibOptions;
  /** Above `largeFileBytes`: the large-file settings, and compressed on the thread pool by `precompress`. */
  large: boolean;
}

/**
 * The settings for an input of `bytes` bytes: the large-file ones above `largeFileBytes`. The
 * streaming writer of large files (large-file.ts) uses the same ones.
 *
 * @example brotliCompressSync(input, compressionSettings(input.byteLength).brotli)
 */
export function compressionSettings(bytes: number, options: CompressOptions = {}): CompressionSettings {
  const settings = { ...DEFAULT_COMPRESS_OPTIONS, ...options };
  const large = bytes > settings.largeFileBytes;
  return {
    brotli: large
      ? brotliOptions(bytes, settings.largeFileBrotliQuality, settings.largeFileBrotliWindow)
      : brotliOptions(bytes, settings.brotliQuality, MAX_WINDOW),
    gzip: { level: large ? settings.largeFileGzipLevel : settings.gzipLevel },
    large,
  };
}

/**
 * The files that get compressed copies: the JSON bodies, and the verse-of-the-day feeds (XML text,
 * 0.3-0.5 MB each). Not the hosts' own configuration at the root of the folder (`_routes.json`),
 * which no client asks for.
 */
function compressible(path: string): boolean {
  return path.includes('/') && (path.endsWith('.json') || path.endsWith('.rss'));
}

/**
 * For every `.json` file (and feed), a `.json.br` and a `.json.gz` copy (only the .gz with `brotli: false`).
 * Returns only the new files, in input order (for each file: .br, then .gz).
 *
 * Small files are compressed synchronously: measured on the 5,972 chapter files, the async API
 * with thousands of requests in flight costs twice the CPU (zlib handles, thread hand-offs),
 * and the build is CPU-bound on two cores. Large files (search indexes) go to the thread pool.
 *
 * @example const compressed = await precompress(files); files.push(...compressed);
 */
export async function precompress(files: readonly OutputFile[], options: CompressOptions = {}): Promise<OutputFile[]> {
  const pairs = await Promise.all(
    files
      .filter((file) => compressible(file.path))
      .map(async (file): Promise<OutputFile[]> => {
        const input = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
        const { brotli, gzip: gzipOptions, large } = compressionSettings(input.byteLength, options);
        const [br, gz] = await Promise.all([
          options.brotli === false ? undefined : large ? brotliAsync(input, brotli) : brotliCompressSync(input, brotli),
          large ? gzipAsync(input, gzipOptions) : gzipSync(input, gzipOptions),
        ]);
        const gzCopy = { path: `${file.path}.gz`, content: gz };
        return br === undefined ? [gzCopy] : [{ path: `${file.path}.br`, content: br }, gzCopy];
      }),
  );
  return pairs.flat();
}

/**
 * The .br and .gz copies of one `.json` file (or feed), made now on this thread (none for other files);
 * only the .gz with `brotli: false`.
 * The streaming build compresses each file as it is made, so no output is held in memory.
 *
 * @example for (const copy of compressedCopies(file)) staging.write(copy);
 */
export function compressedCopies(file: OutputFile, options: CompressOptions = {}): OutputFile[] {
  if (!compressible(file.path)) return [];
  const input = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
  const { brotli, gzip } = compressionSettings(input.byteLength, options);
  const gz = { path: `${file.path}.gz`, content: gzipSync(input, gzip) };
  return options.brotli === false ? [gz] : [{ path: `${file.path}.br`, content: brotliCompressSync(input, brotli) }, gz];
}

/** Largest brotli window (log2) the encoder takes. */
const MAX_WINDOW = 24;

function brotliOptions(bytes: number, quality: number, maxWindow: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
      // A window no larger than the file: the default 4 MB window costs more in
      // allocation (system time) than in compression for a 5 kB chapter.
      [constants.BROTLI_PARAM_LGWIN]: windowBits(bytes, maxWindow),
    },
  };
}

/** Smallest brotli window (log2, 10 to `maxWindow`) that holds the whole input. */
function windowBits(bytes: number, maxWindow: number): number {
  return Math.min(maxWindow, Math.max(10, Math.ceil(Math.log2(bytes + 16))));
}
