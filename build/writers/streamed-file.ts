// Writes one large file chunk by chunk, with its .br and .gz copies compressed alongside, so none of the three is held whole in memory.
import { once } from 'node:events';
import { closeSync, createWriteStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { DEFAULT_COMPRESS_OPTIONS } from './compress.ts';

/** What was written: one entry per file (the file, then its .br and .gz copies). */
export interface WrittenFile {
  path: string;
  bytes: number;
}

/**
 * A brotli window of 4 MB (2^22) rather than one as large as the file: measured on a 9 MB
 * search index at quality 5, 1,773,727 bytes against 1,773,750 with 16 MB, and a quarter of
 * the encoder's ring buffer.
 */
const STREAM_BROTLI_WINDOW = 22;

/**
 * Writes `chunks` to `path` under `dir` (a staging folder) and, through zlib streams running
 * on libuv's thread pool while the chunks are made, its `.br` and `.gz` copies at the large-file
 * settings of compress.ts. Returns the three files' sizes.
 *
 * @example await writeStreamedFile(staging.dir, 'bible-search/en.json', index.chunks())
 */
export async function writeStreamedFile(dir: string, path: string, chunks: Iterable<string>): Promise<WrittenFile[]> {
  const target = join(dir, ...path.split('/'));
  if (!target.startsWith(dir + sep)) throw new Error(`writeStreamedFile: unsafe path ${path}`);
  mkdirSync(dirname(target), { recursive: true });
  const settings = DEFAULT_COMPRESS_OPTIONS;
  const brotli = createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: settings.largeFileBrotliQuality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_LGWIN]: STREAM_BROTLI_WINDOW,
    },
  });
  const gzip = createGzip({ level: settings.largeFileGzipLevel });
  const brotliFile = createWriteStream(`${target}.br`);
  const gzipFile = createWriteStream(`${target}.gz`);
  const compressed = Promise.all([pipeline(brotli, brotliFile), pipeline(gzip, gzipFile)]);
  // A failure of one stream must not leave the other's promise unhandled while the loop still runs.
  compressed.catch(() => {});
  let bytes = 0;
  const fd = openSync(target, 'w');
  try {
    for (const chunk of chunks) {
      const buffer = Buffer.from(chunk);
      for (let written = 0; written < buffer.length; ) written += writeSync(fd, buffer, written);
      bytes += buffer.length;
      brotli.write(buffer);
      gzip.write(buffer);
      // Back-pressure: wait for the compressors rather than queue the whole file in their buffers.
      // Each is asked when its turn comes: one may drain while the other is awaited.
      for (const stream of [brotli, gzip]) {
        if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), compressed]);
      }
    }
  } catch (error) {
    brotli.destroy();
    gzip.destroy();
    throw error;
  } finally {
    closeSync(fd);
  }
  brotli.end();
  gzip.end();
  await compressed;
  return [
    { path, bytes },
    { path: `${path}.br`, bytes: brotliFile.bytesWritten },
    { path: `${path}.gz`, bytes: gzipFile.bytesWritten },
  ];
}
