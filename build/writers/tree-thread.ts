// The tree thread of the build: reads each version given to it, writes its static files into the staging folder, and hands its books to the index thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { staticPaths } from '../contract/layout.ts';
import { readSource } from '../read-source.ts';
import { versionReport } from '../report.ts';
import { alignedVersion } from './alignment-files.ts';
import { compressedCopies } from './compress.ts';
import { downloadFile } from './download.ts';
import { writeLargeBuffer } from './large-file.ts';
import { writeFileUnder } from './output-dir.ts';
import { canonicalBooks, versionCounts, versionTree } from './static-tree.ts';
import type { BuiltVersion } from './types.ts';
import type { FromTreeThread, StepTimings, TreeJob, TreeThreadData, TreeToIndexMessage, WrittenFile } from './version-messages.ts';

/** The compressed copies a file of the tree gets. */
type CopiesOf = 'br and gz' | 'gz' | 'none';

/**
 * A chapter file gets a `.gz` copy and no `.br`. Measured on the 5,955 chapter files of the five
 * versions (27.7 MB): brotli at quality 7 gives 10.73 MB, gzip -9 10.96 MB, 2.2% more, for one
 * thread's 0.9-1.2 s of CPU and 5,955 files more to create (on the ext4 of the bench machine each
 * new file costs 35-270 µs of system time: `recently_deleted` in the inode allocator). nginx sends
 * only the `.gz` (gzip_static) and the other hosts compress themselves; the service sends the `.gz`
 * to a client that accepts br. Full builds with and without the `.br` copies alternated (four pairs,
 * farm-bench): CPU 16.3 against 18.9 s, wall 9.2 against 10.7 s (ratio 0.86) on a busy machine.
 */
const CHAPTER_COPIES: CopiesOf = 'gz';

const data = workerData as TreeThreadData | undefined;
if (parentPort && data?.job === 'bible-tree') {
  const port = parentPort;
  const toIndex = data.toIndex;
  const folders = new Set<string>();
  const consumed = data.consumed;
  let sent = 0;
  // Versions are written one after another, in the order they come.
  let queue = Promise.resolve();
  port.on('message', (job: TreeJob) => {
    queue = queue.then(async () => {
      try {
        port.postMessage(await writeVersion(job));
      } catch (error) {
        port.postMessage({ kind: 'failed', message: (error as Error).message, stack: (error as Error).stack } satisfies FromTreeThread);
      }
    });
  });

  async function writeVersion(job: TreeJob): Promise<FromTreeThread> {
    const timings: StepTimings = {};
    const code = job.entry.code;
    const timed = <T>(step: string, work: () => T): T => {
      port.postMessage({ kind: 'progress', step } satisfies FromTreeThread);
      const at = performance.now();
      try {
        return work();
      } finally {
        timings[step] = Math.round(performance.now() - at);
      }
    };
    const text = job.text ?? timed(`read ${code}`, () => readSource(job.entry, readFileSync(job.sourcePath)));
    const version: BuiltVersion = { info: job.entry, text };
    // The mapping is checked against the text before anything of the version is written: a mapping that does not fit fails the build.
    const aligned = timed(`align ${code}`, () => alignedVersion(version, job.alignment.rules, job.alignment.days));
    // Back-pressure: the index thread is handed a version's books only once it has taken the previous version's.
    for (let taken = Atomics.load(consumed, 0); taken < sent; taken = Atomics.load(consumed, 0)) {
      await waitAsync(consumed, 0, taken).value;
    }
    toIndex.postMessage({ kind: 'verse-map', map: aligned.map } satisfies TreeToIndexMessage);
    for (const { book } of canonicalBooks(text.books)) toIndex.postMessage({ kind: 'book', book } satisfies TreeToIndexMessage);
    toIndex.postMessage({ kind: 'end' } satisfies TreeToIndexMessage);
    sent++;
    const files: WrittenFile[] = [];
    const write = (path: string, content: string | Uint8Array, copies: CopiesOf = 'br and gz') => {
      const compressed =
        copies === 'none' || !data!.precompressed ? [] : compressedCopies({ path, content }, { brotli: copies === 'br and gz' });
      for (const output of [{ path, content }, ...compressed]) {
        files.push({ path: output.path, bytes: writeFileUnder(data!.dir, output, folders) });
      }
    };
    // Each chapter file's bytes, kept for the download, which holds them all in the same order.
    const chapterFiles: Uint8Array[] = [];
    timed(`tree ${code}`, () => {
      const books = staticPaths.books(job.entry.lang);
      for (const file of versionTree(version)) {
        const bytes = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
        if (file.path !== books) chapterFiles.push(bytes);
        write(file.path, bytes, file.path === books ? 'br and gz' : CHAPTER_COPIES);
      }
    });
    timed(`verse map and days ${code}`, () => {
      write(aligned.verseMapFile.path, aligned.verseMapFile.content);
      // A day's file is about 1 kB, of which compression would save half: its .br and .gz copies would triple the
      // 1,830 files the days add to the tree (and a fifth of a second of CPU) for a few hundred bytes per request.
      for (const day of aligned.dayFiles) write(day.path, day.content, 'none');
    });
    // The whole version in one file, made here while the version is in memory; the main thread compresses it.
    const download = timed(`download ${code}`, () => {
      const { file, link } = downloadFile(version, chapterFiles);
      files.push(writeLargeBuffer(data!.dir, file.path, typeof file.content === 'string' ? Buffer.from(file.content) : file.content));
      if (data!.precompressed) port.postMessage({ kind: 'compress', path: file.path } satisfies FromTreeThread);
      return link;
    });
    return {
      kind: 'built',
      report: { ...versionReport(versionCounts(version), text.issues), download, alignment: aligned.summary },
      files,
      timings,
    };
  }
}

/** Atomics.waitAsync (Node 16 on), which TypeScript types only from lib ES2024 on; the project's lib is ES2023. */
const waitAsync = (
  Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: Promise<string> | string } }
).waitAsync;
