// The tree thread of the build: reads each version given to it, writes its static files into the staging folder, and hands its books to the index thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { readSource } from '../read-source.ts';
import { versionReport } from '../report.ts';
import { compressedCopies } from './compress.ts';
import { downloadFile } from './download.ts';
import { writeFileUnder } from './output-dir.ts';
import { canonicalBooks, versionCounts, versionTree } from './static-tree.ts';
import type { BuiltVersion } from './types.ts';
import type {
  BookMessage,
  ConsumedMessage,
  FromTreeThread,
  StepTimings,
  TreeJob,
  TreeThreadData,
  WrittenFile,
} from './version-messages.ts';

const data = workerData as TreeThreadData | undefined;
if (parentPort && data?.job === 'bible-tree') {
  const port = parentPort;
  const toIndex = data.toIndex;
  const folders = new Set<string>();
  let sent = 0;
  let consumed = 0;
  let waiting: (() => void) | undefined;
  toIndex.on('message', (_message: ConsumedMessage) => {
    consumed++;
    waiting?.();
  });
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
    // Back-pressure: the index thread is handed a version's books only once it has taken the previous version's.
    while (sent > consumed) await new Promise<void>((resolve) => (waiting = resolve));
    for (const { book } of canonicalBooks(text.books)) toIndex.postMessage({ kind: 'book', book } satisfies BookMessage);
    toIndex.postMessage({ kind: 'end' } satisfies BookMessage);
    sent++;
    const files: WrittenFile[] = [];
    timed(`tree ${code}`, () => {
      for (const file of versionTree(version)) {
        for (const output of [file, ...compressedCopies(file)]) {
          files.push({ path: output.path, bytes: writeFileUnder(data!.dir, output, folders) });
        }
      }
    });
    // The whole version in one file, made here while the version is in memory; compressed on this thread too.
    const download = timed(`download ${code}`, () => {
      const { file, link } = downloadFile(version);
      for (const output of [file, ...compressedCopies(file)]) {
        files.push({ path: output.path, bytes: writeFileUnder(data!.dir, output, folders) });
      }
      return link;
    });
    return { kind: 'built', report: { ...versionReport(versionCounts(version), text.issues), download }, files, timings };
  }
}
