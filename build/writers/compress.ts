// Precompressed copies (.br and .gz) of the JSON output, for nginx gzip_static and other static hosts.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
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
 * For every `.json` file, a `.json.br` and a `.json.gz` copy, compressed on libuv's thread
 * pool (zlib's async API) so both cores work. Returns only the new files.
 *
 * @example const compressed = await precompress(files); files.push(...compressed);
 */
export async function precompress(files: readonly OutputFile[], options: CompressOptions = {}): Promise<OutputFile[]> {
  const settings = { ...DEFAULT_COMPRESS_OPTIONS, ...options };
  const json = files.filter((file) => file.path.endsWith('.json'));
  // Every job is queued at once: the thread pool keeps compressing even while the main
  // thread is busy (the pipeline builds the search indexes and the database meanwhile).
  const pairs = await Promise.all(
    json.map(async (file): Promise<OutputFile[]> => {
      const input = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
      const large = input.byteLength > settings.largeFileBytes;
      const quality = large ? settings.largeFileBrotliQuality : settings.brotliQuality;
      const [br, gz] = await Promise.all([
        brotliAsync(input, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: quality,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
          },
        }),
        gzipAsync(input, { level: large ? settings.largeFileGzipLevel : settings.gzipLevel }),
      ]);
      return [
        { path: `${file.path}.br`, content: br },
        { path: `${file.path}.gz`, content: gz },
      ];
    }),
  );
  const out = pairs.flat();
  return out;
}
