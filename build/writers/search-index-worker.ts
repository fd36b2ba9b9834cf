// Builds the search indexes on a worker thread, one version at a time as the build streams them, beside the main thread's work.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { staticPaths } from '../contract/layout.ts';
import { compressedCopies } from './compress.ts';
import { writeFileUnder } from './output-dir.ts';
import { type SearchDocument, searchIndexFileOf } from './search-index.ts';
import type { OutputFile, VersionInfo } from './types.ts';

/** What the worker is started with. */
interface SearchWorkerData {
  job: 'bible-search-indexes';
  /** The staging folder the index files are written into. */
  dir: string;
  buildHash: string;
}

/** One version to index, or the end of the queue. */
type SearchMessage = { info: Pick<VersionInfo, 'lang' | 'code'>; documents: SearchDocument[] } | { done: true };

/** Sizes of what the worker wrote, per file. */
export interface WrittenFile {
  path: string;
  bytes: number;
}

const WORKER_HEAP = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 16 };

/**
 * One worker thread that indexes the versions it is given, in order, and writes each index
 * (and its .br and .gz copies) into the staging folder itself, so neither the index nor its
 * serialisation crosses back to the main thread. At most one version's index is in memory.
 * The worker loads this TypeScript file through tsx's loader, registered inside the worker.
 *
 * @example const search = new SearchIndexWorker(staging.dir, hash); search.add(info, docs); const files = await search.finish();
 */
export class SearchIndexWorker {
  readonly #worker: Worker;
  readonly #written: Promise<WrittenFile[]>;

  constructor(dir: string, buildHash: string) {
    const data: SearchWorkerData = { job: 'bible-search-indexes', dir, buildHash };
    // The ESM entry of tsx's API, resolved from here (the CommonJS one cannot be imported this way).
    const tsxApi = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
    const self = new URL(import.meta.url).href;
    const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(self)}); });`;
    // A bounded heap makes V8 collect each finished index before it grows into the next (measured: one
    // version's index peaks near 100 MB of heap; unbounded, the worker's heap grew past 400 MB).
    this.#worker = new Worker(bootstrap, { eval: true, workerData: data, resourceLimits: WORKER_HEAP });
    this.#written = new Promise((resolve, reject) => {
      this.#worker.once('message', (written: WrittenFile[]) => resolve(written));
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) => reject(new Error(`search index worker exited with code ${code} before it finished`)));
    });
    this.#written.catch(() => {});
  }

  /** Queues one version's documents (they are copied to the worker; the caller may drop them). */
  add(info: Pick<VersionInfo, 'lang' | 'code'>, documents: SearchDocument[]): void {
    this.#worker.postMessage({ info, documents } satisfies SearchMessage);
  }

  /** Ends the queue; resolves with the files written, in the order the versions were added. */
  async finish(): Promise<WrittenFile[]> {
    this.#worker.postMessage({ done: true } satisfies SearchMessage);
    try {
      return await this.#written;
    } finally {
      await this.#worker.terminate();
    }
  }

  /** Stops the worker without waiting (after a failed build). */
  async abort(): Promise<void> {
    await this.#worker.terminate();
  }
}

// Inside a worker started by SearchIndexWorker: index each version as it arrives.
const job = workerData as SearchWorkerData | undefined;
if (parentPort && job?.job === 'bible-search-indexes') {
  const port = parentPort;
  const written: WrittenFile[] = [];
  const folders = new Set<string>();
  port.on('message', (message: SearchMessage) => {
    if ('done' in message) {
      port.postMessage(written);
      return;
    }
    const file: OutputFile = {
      path: staticPaths.searchIndex(message.info.lang),
      content: JSON.stringify(searchIndexFileOf(message.info, message.documents, job.buildHash)),
    };
    for (const output of [file, ...compressedCopies(file)]) {
      written.push({ path: output.path, bytes: writeFileUnder(job.dir, output, folders) });
    }
  });
}
