// Writes each version's database rows and search index on a worker thread, while the main thread reads the next version and writes its static files.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Lang } from '../contract/books.ts';
import { staticPaths } from '../contract/layout.ts';
import { DatabaseWriter } from './database.ts';
import { indexedVersion, searchIndexChunks } from './search-index.ts';
import { type WrittenFile, writeStreamedFile } from './streamed-file.ts';
import type { BuiltVersion } from './types.ts';

export type { WrittenFile };

/** What the worker is started with. */
interface VersionWorkerData {
  job: 'bible-version-writer';
  /** The staging folder the index files are written into. */
  dir: string;
  databasePath: string;
  buildHash: string;
}

/** Main thread → worker. */
type ToWorker =
  | { kind: 'build'; version: BuiltVersion; versionHash: string }
  | { kind: 'copy'; lang: Lang; previousDatabase: string }
  | { kind: 'finish' };

/** Worker → main thread. */
type FromWorker =
  | { kind: 'done'; files: WrittenFile[] }
  | { kind: 'finished'; databaseBytes: number }
  | { kind: 'failed'; message: string; stack?: string };

/** Versions handed over and not yet written, at most: one being written, one waiting (each a version's verses in memory). */
const QUEUED_AT_MOST = 2;

const WORKER_HEAP = { maxOldGenerationSizeMb: Number(process.env.WOLD ?? 64), maxYoungGenerationSizeMb: Number(process.env.WYOUNG ?? 8) };

/**
 * One worker thread that writes, in the order they are given, each version's database rows and
 * full-text rows, and its search index (with .br and .gz copies, streamed into the staging
 * folder); `finish` merges the full-text index and renames the database into place. The worker
 * loads this TypeScript file through tsx's loader, registered inside the worker.
 *
 * @example const writer = new VersionWorker(staging.dir, dbPath, hash); await writer.build(version, versionHash); await writer.finish();
 */
export class VersionWorker {
  readonly #worker: Worker;
  readonly #databasePath: string;
  /** One per message sent and not yet answered, in order: the worker answers in order. */
  readonly #pending: Deferred[] = [];
  readonly #files: WrittenFile[] = [];
  #failure: Error | undefined;

  constructor(dir: string, databasePath: string, buildHash: string) {
    this.#databasePath = databasePath;
    const data: VersionWorkerData = { job: 'bible-version-writer', dir, databasePath, buildHash };
    // The ESM entry of tsx's API, resolved from here (the CommonJS one cannot be imported this way).
    const tsxApi = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
    const self = new URL(import.meta.url).href;
    const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(self)}); });`;
    this.#worker = new Worker(bootstrap, { eval: true, workerData: data, resourceLimits: WORKER_HEAP });
    this.#worker.on('message', (message: FromWorker) => {
      if (message.kind === 'failed') {
        const error = new Error(message.message);
        error.stack = message.stack ?? error.stack;
        this.#fail(error);
        return;
      }
      if (message.kind === 'done') this.#files.push(...message.files);
      this.#pending.shift()?.resolve(message);
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the version writer thread exited with code ${code} before it finished`)));
  }

  /** Hands over one version to write; resolves once the worker can take another (it gets a copy of the verses). */
  async build(version: BuiltVersion, versionHash: string): Promise<void> {
    // The issues stay here: the worker writes verses, not the report.
    await this.#send({ kind: 'build', version: { info: version.info, text: { ...version.text, issues: [] } }, versionHash });
  }

  /** Has the worker copy one language's rows from the previous build's database. */
  async copy(lang: Lang, previousDatabase: string): Promise<void> {
    await this.#send({ kind: 'copy', lang, previousDatabase });
  }

  /**
   * Waits for every version, finishes the database and renames it into place; resolves with the
   * search index files written and the database's size.
   */
  async finish(): Promise<{ files: WrittenFile[]; databaseBytes: number }> {
    if (this.#failure) throw this.#failure;
    const finished = this.#expect();
    this.#worker.postMessage({ kind: 'finish' } satisfies ToWorker);
    // Answers come in order, so when this one arrives every version before it is written.
    const message = await finished;
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
    return { files: this.#files, databaseBytes: message.kind === 'finished' ? message.databaseBytes : 0 };
  }

  /** Stops the worker and removes its unfinished database (after a failed build). */
  async abort(): Promise<void> {
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
    await DatabaseWriter.removeTemporary(this.#databasePath);
  }

  async #send(message: ToWorker): Promise<void> {
    if (this.#failure) throw this.#failure;
    this.#expect();
    this.#worker.postMessage(message);
    // Back-pressure: the main thread reads the next version only while the worker is at most one behind.
    if (this.#pending.length >= QUEUED_AT_MOST) await this.#pending[0]?.promise;
  }

  #expect(): Promise<FromWorker> {
    let deferred: Partial<Deferred> = {};
    const promise = new Promise<FromWorker>((resolve, reject) => {
      deferred = { resolve, reject };
    });
    promise.catch(() => {});
    this.#pending.push({ ...(deferred as Omit<Deferred, 'promise'>), promise });
    return promise;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.splice(0)) pending.reject(this.#failure);
  }
}

interface Deferred {
  promise: Promise<FromWorker>;
  resolve: (message: FromWorker) => void;
  reject: (error: Error) => void;
}

// Inside a worker started by VersionWorker: write each version as it arrives, one at a time.
const job = workerData as VersionWorkerData | undefined;
if (parentPort && job?.job === 'bible-version-writer') {
  const port = parentPort;
  const database = DatabaseWriter.open(job.databasePath, job.buildHash);
  let queue: Promise<unknown> = database;
  const reply = (message: FromWorker) => port.postMessage(message);
  port.on('message', (message: ToWorker) => {
    queue = queue
      .then(async () => reply(await handle(await database, message, job.dir)))
      .catch((error: Error) => reply({ kind: 'failed', message: error.message, stack: error.stack }));
  });
}

async function handle(database: DatabaseWriter, message: ToWorker, dir: string): Promise<FromWorker> {
  switch (message.kind) {
    case 'build': {
      const { version, versionHash } = message;
      database.addVersion(version);
      const index = indexedVersion(version.text);
      const path = staticPaths.searchIndex(version.info.lang);
      return { kind: 'done', files: await writeStreamedFile(dir, path, searchIndexChunks(version.info, index, versionHash)) };
    }
    case 'copy':
      database.copyVersion(message.previousDatabase, message.lang);
      return { kind: 'done', files: [] };
    case 'finish':
      return { kind: 'finished', databaseBytes: (await database.finish()).bytes };
  }
}
