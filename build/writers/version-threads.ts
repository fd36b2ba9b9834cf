// The build's two worker threads seen from the main thread: the tree thread (read, static files) and the index thread (database, search indexes); the main thread compresses their large files.
import { MessageChannel, type Worker } from 'node:worker_threads';
import type { Lang } from '../contract/books.ts';
import { startBundledWorkers } from './bundled-worker.ts';
import { DatabaseWriter } from './database.ts';
import { compressLargeFile } from './large-file.ts';
import type { VersionInfo } from './types.ts';
import type {
  FromIndexThread,
  FromTreeThread,
  IndexJob,
  IndexThreadData,
  StepTimings,
  TreeJob,
  TreeThreadData,
  WrittenFile,
} from './version-messages.ts';

/** What the tree thread reports for one version. */
export type TreeResult = Extract<FromTreeThread, { kind: 'built' }>;

/**
 * Heap bounds of the two threads. V8 lets an unbounded heap grow well past what it holds alive
 * (measured: the index thread's heap reached 180 MB for a live set near 40 MB); a bound makes it
 * collect instead, and the build's peak follows the bounds. Measured on the five versions: the
 * tree thread runs out of heap at 32 MB of old generation and works at 40 (48 leaves room for a
 * larger source); the index thread holds a version's raw tokens and terms, and one book (its
 * postings are in typed arrays, off this heap): at 40 MB, before the postings moved there, it ran
 * out in one build of three; it has 64. Young generations, measured with --trace-gc over the whole
 * build: the index thread's scavenges copy what outlives them (each book it is handed, the terms),
 * 1.75 s of collection at 4 MB, 0.85 s at 16 MB, 0.64 s at 32 MB, for about 20 MB more at the
 * peak at 16 and 65 MB at 32; it has 16. The tree thread's collections took 0.75 s at 4 MB and
 * 0.48 s at 16 MB, for 10-30 MB more: it keeps 4.
 */
const TREE_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 4 };
const INDEX_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

/**
 * The two threads that write the versions, so the main thread holds no version: the tree thread
 * reads a version and writes its chapter files and its download, and hands its books over a
 * channel to the index thread, which writes its database rows and search index while the tree
 * thread goes on with the next version. Each thread runs its file bundled (bundled-worker.ts) with
 * a bounded heap.
 *
 * The compressed copies of the large files (five search indexes and five downloads, 6-9 MB each,
 * about a fifth of the build's CPU) are made here, on the main thread, which otherwise only waits:
 * three threads on two cores, so whichever worker has less left to do gives up its core to them,
 * and neither worker's share of the build waits on the other's compression. One file is compressed
 * at a time, read back from the page cache, so no bytes wait in memory.
 *
 * @example const threads = await VersionThreads.start(staging.dir, dbPath, hash, onStep); const tree = threads.build(job, info, hash); await threads.finish();
 */
export class VersionThreads {
  readonly #tree: Worker;
  readonly #index: Worker;
  readonly #databasePath: string;
  readonly #treeWaiting: Deferred<TreeResult>[] = [];
  readonly #indexWaiting: Deferred<FromIndexThread>[] = [];
  readonly #indexFiles: WrittenFile[] = [];
  readonly #dir: string;
  /** Large files waiting for their compressed copies, and the copies made. */
  readonly #toCompress: string[] = [];
  readonly #compressed: WrittenFile[] = [];
  /** Settles when the queue is empty (or compressing failed), while it is being worked through. */
  #compressing: Promise<void> | undefined;
  readonly timings: StepTimings = {};
  #failure: Error | undefined;

  /** Starts both threads (their scripts bundled first). */
  static async start(
    dir: string,
    databasePath: string,
    buildHash: string,
    onStep: (step: string) => void,
    precompressed = true,
  ): Promise<VersionThreads> {
    const channel = new MessageChannel();
    const consumed = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const treeData: TreeThreadData = { job: 'bible-tree', dir, toIndex: channel.port1, consumed, precompressed };
    const indexData: IndexThreadData = {
      job: 'bible-index',
      dir,
      databasePath,
      buildHash,
      fromTree: channel.port2,
      consumed,
      precompressed,
    };
    const [tree, index] = await startBundledWorkers([
      {
        file: new URL('./tree-thread.ts', import.meta.url),
        options: { workerData: treeData, transferList: [channel.port1], resourceLimits: TREE_HEAP },
      },
      {
        file: new URL('./index-thread.ts', import.meta.url),
        options: { workerData: indexData, transferList: [channel.port2], resourceLimits: INDEX_HEAP },
      },
    ]);
    return new VersionThreads(tree, index, dir, databasePath, onStep);
  }

  private constructor(tree: Worker, index: Worker, dir: string, databasePath: string, onStep: (step: string) => void) {
    this.#tree = tree;
    this.#index = index;
    this.#dir = dir;
    this.#databasePath = databasePath;
    this.#tree.on('message', (message: FromTreeThread) => {
      if (message.kind === 'progress') return onStep(message.step);
      if (message.kind === 'compress') return this.#compress(message.path);
      if (message.kind === 'failed') return this.#fail(threadError('tree', message));
      Object.assign(this.timings, message.timings);
      this.#treeWaiting.shift()?.resolve(message);
    });
    this.#index.on('message', (message: FromIndexThread) => {
      if (message.kind === 'compress') return this.#compress(message.path);
      if (message.kind === 'failed') return this.#fail(threadError('index', message));
      Object.assign(this.timings, message.timings);
      if (message.kind === 'done') this.#indexFiles.push(...message.files);
      this.#indexWaiting.shift()?.resolve(message);
    });
    for (const [name, worker] of [['tree', this.#tree] as const, ['index', this.#index] as const]) {
      worker.on('error', (error) => this.#fail(new Error(`the ${name} thread failed: ${error.message}`, { cause: error })));
      worker.on('exit', (code) => this.#fail(new Error(`the ${name} thread stopped (exit code ${code}) before the build finished`)));
    }
  }

  /**
   * Has the threads write one version: resolves with what the tree thread reports once its files
   * are written (its rows and index follow on the index thread). Versions are written in call order,
   * interleaved with `copy` as called.
   */
  build(job: TreeJob, info: VersionInfo, versionHash: string): Promise<TreeResult> {
    const result = this.#expect(this.#treeWaiting);
    this.#sendIndex({ kind: 'build', info, versionHash });
    this.#tree.postMessage(job);
    return result;
  }

  /**
   * Stops the tree thread once every version given to `build` is written, so its heap is freed
   * while the index thread finishes the last version.
   */
  async treeDone(): Promise<void> {
    this.#tree.removeAllListeners('exit');
    await this.#tree.terminate();
  }

  /** Has the index thread copy a version's rows from the previous build's database, in its place in the order. */
  copy(lang: Lang, previousDatabase: string): void {
    this.#sendIndex({ kind: 'copy', lang, previousDatabase });
  }

  /**
   * Waits for every version, merges the full-text index and renames the database into place, and
   * waits for the last compressed copies; returns the files the index thread and the compression wrote.
   */
  async finish(): Promise<{ files: WrittenFile[]; databaseBytes: number }> {
    const finished = this.#sendIndex({ kind: 'finish' });
    const message = await finished;
    await this.#stop();
    await this.#compressing;
    if (this.#failure) throw this.#failure;
    return { files: [...this.#indexFiles, ...this.#compressed], databaseBytes: message.kind === 'finished' ? message.databaseBytes : 0 };
  }

  /** Stops both threads and removes the unfinished database (after a failed build). */
  async abort(): Promise<void> {
    // Nothing more is compressed into a staging folder that is being discarded.
    this.#toCompress.length = 0;
    await this.#stop();
    await DatabaseWriter.removeTemporary(this.#databasePath);
  }

  /** Queues a large file for its compressed copies, made one at a time, each in a task of its own so messages are handled between them. */
  #compress(path: string): void {
    this.#toCompress.push(path);
    this.#compressing ??= new Promise<void>((done) => {
      const next = () => {
        const path = this.#toCompress.shift();
        if (path === undefined || this.#failure) {
          this.#compressing = undefined;
          return done();
        }
        const at = performance.now();
        try {
          this.#compressed.push(...compressLargeFile(this.#dir, path));
        } catch (error) {
          this.#fail(error as Error);
        }
        this.timings['compress large files (main thread)'] =
          (this.timings['compress large files (main thread)'] ?? 0) + Math.round(performance.now() - at);
        setImmediate(next);
      };
      setImmediate(next);
    });
  }

  #sendIndex(job: IndexJob): Promise<FromIndexThread> {
    const answered = this.#expect(this.#indexWaiting);
    this.#index.postMessage(job);
    return answered;
  }

  #expect<T>(waiting: Deferred<T>[]): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    let settle: Omit<Deferred<T>, 'promise'> | undefined;
    const promise = new Promise<T>((resolve, reject) => {
      settle = { resolve, reject };
    });
    promise.catch(() => {});
    waiting.push({ ...settle!, promise });
    return promise;
  }

  async #stop(): Promise<void> {
    for (const worker of [this.#tree, this.#index]) worker.removeAllListeners('exit');
    await Promise.all([this.#tree.terminate(), this.#index.terminate()]);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiting of [this.#treeWaiting, this.#indexWaiting]) {
      for (const deferred of waiting.splice(0)) deferred.reject(this.#failure);
    }
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

function threadError(thread: string, message: { message: string; stack?: string }): Error {
  const error = new Error(`${thread} thread: ${message.message}`);
  if (message.stack) error.stack = `${error.message}\n${message.stack.split('\n').slice(1).join('\n')}`;
  return error;
}
