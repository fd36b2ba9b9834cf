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
}

/**
 * Defaults measured on the full five-version build on two cores (see the commit and
 * bench:bible): quality 11 costs seconds per megabyte; 9 keeps most of the gain at a
 * fraction of the time. Large files (search indexes) use a lower quality.
 */
export const DEFAULT_COMPRESS_OPTIONS: Required<CompressOptions> = {
  brotliQuality: 9,
  gzipLevel: 9,
  largeFileBytes: 1_000_000,
  largeFileBrotliQuality: 6,
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
  const out: OutputFile[] = new Array(json.length * 2);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < json.length) {
      const index = next++;
      const file = json[index];
      const input = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
      const quality = input.byteLength > settings.largeFileBytes ? settings.largeFileBrotliQuality : settings.brotliQuality;
      const [br, gz] = await Promise.all([
        brotliAsync(input, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: quality,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
          },
        }),
        gzipAsync(input, { level: settings.gzipLevel }),
      ]);
      out[index * 2] = { path: `${file.path}.br`, content: br };
      out[index * 2 + 1] = { path: `${file.path}.gz`, content: gz };
    }
  };
  // Enough requests in flight to keep the thread pool (4 threads by default) busy.
  await Promise.all(Array.from({ length: 8 }, worker));
  return out;
}
