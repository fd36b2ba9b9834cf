// Precompressed copies (.br and .gz) of the JSON output, for nginx gzip_static and other static hosts.
import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { OutputFile } from './types.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface CompressOptions {
  /** Brotli quality, 0-11. */
  brotliQuality?: number;
  /** Gzip level, 1-9. */
  gzipLevel?: number;
  /** Files larger than this get a cheaper brotli quality (big search indexes would dominate the build). */
  largeFileBytes?: number;
  largeFileBrotliQuality?: number;
  largeFileGzipLevel?: number;
}

/**
 * Defaults measured on the KJV chapter files (5.3 MB, 1,192 files) on this two-core machine:
 * quality 8 gives 1.946 MB in 0.22 s, quality 9 the same size in 7.9 s (a cliff in the encoder's
 * strategy), 11 gives 10% less in 6.3 s. The search indexes (about 9 MB each) use brotli 5
 * (0.43 s, 1.77 MB) and gzip 6 (0.44 s; gzip 9 takes 2.4 s for 1% less).
 */
export const DEFAULT_COMPRESS_OPTIONS: Required<CompressOptions> = {
  brotliQuality: 8,
  gzipLevel: 9,
  largeFileBytes: 1_000_000,
  largeFileBrotliQuality: 5,
  largeFileGzipLevel: 6,
};

/**
 * For every `.json` file, a `.json.br` and a `.json.gz` copy. Returns only the new files, in
 * input order (for each file: .br, then .gz).
 *
 * Small files are compressed synchronously: measured on the 5,972 chapter files, the async API
 * with thousands of requests in flight costs twice the CPU (zlib handles, thread hand-offs),
 * and the build is CPU-bound on two cores. Large files (search indexes) go to the thread pool.
 *
 * @example const compressed = await precompress(files); files.push(...compressed);
 */
export async function precompress(files: readonly OutputFile[], options: CompressOptions = {}): Promise<OutputFile[]> {
  const settings = { ...DEFAULT_COMPRESS_OPTIONS, ...options };
  const pairs = await Promise.all(
    files
      .filter((file) => file.path.endsWith('.json'))
      .map(async (file): Promise<OutputFile[]> => {
        const input = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
        const large = input.byteLength > settings.largeFileBytes;
        const brotli = brotliOptions(input.byteLength, large ? settings.largeFileBrotliQuality : settings.brotliQuality);
        const gzipOptions = { level: large ? settings.largeFileGzipLevel : settings.gzipLevel };
        const [br, gz] = large
          ? await Promise.all([brotliAsync(input, brotli), gzipAsync(input, gzipOptions)])
          : [brotliCompressSync(input, brotli), gzipSync(input, gzipOptions)];
        return [
          { path: `${file.path}.br`, content: br },
          { path: `${file.path}.gz`, content: gz },
        ];
      }),
  );
  return pairs.flat();
}

/**
 * The .br and .gz copies of one `.json` file, made now on this thread (none for other files).
 * The streaming build compresses each file as it is made, so no output is held in memory.
 *
 * @example for (const copy of compressedCopies(file)) staging.write(copy);
 */
export function compressedCopies(file: OutputFile, options: CompressOptions = {}): OutputFile[] {
  if (!file.path.endsWith('.json')) return [];
  const settings = { ...DEFAULT_COMPRESS_OPTIONS, ...options };
  const input = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
  const large = input.byteLength > settings.largeFileBytes;
  return [
    {
      path: `${file.path}.br`,
      content: brotliCompressSync(input, brotliOptions(input.byteLength, large ? settings.largeFileBrotliQuality : settings.brotliQuality)),
    },
    { path: `${file.path}.gz`, content: gzipSync(input, { level: large ? settings.largeFileGzipLevel : settings.gzipLevel }) },
  ];
}

function brotliOptions(bytes: number, quality: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
      // A window no larger than the file: the default 4 MB window costs more in
      // allocation (system time) than in compression for a 5 kB chapter.
      [constants.BROTLI_PARAM_LGWIN]: windowBits(bytes),
    },
  };
}

/** Smallest brotli window (log2, 10-24) that holds the whole input. */
function windowBits(bytes: number): number {
  return Math.min(24, Math.max(10, Math.ceil(Math.log2(bytes + 16))));
}
