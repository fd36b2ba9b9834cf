// The build's two worker threads seen from the main thread: the tree thread (read, static files) and the index thread (database, search indexes).
import { MessageChannel, type Worker } from 'node:worker_threads';
import type { Lang } from '../contract/books.ts';
import { startBundledWorkers } from './bundled-worker.ts';
import { DatabaseWriter } from './database.ts';
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
 * larger source); the index thread holds a version's postings and raw tokens (about 30 MB of live
 * heap when its books are in, for each version) and one book: at 40 MB it ran out in one build of
 * three, so it has 64. A young generation of 4 MB costs more frequent scavenges, not time that shows;
 * 16 MB added 30 MB to the build's peak.
 */
const TREE_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 4 };
const INDEX_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 };

/**
 * The two threads that write the versions, so the main thread holds no version: the tree thread
 * reads a version and writes its chapter files, and hands its books over a channel to the index
 * thread, which writes its database rows and search index while the tree thread goes on with the
 * next version; the version's download is made by the tree thread and written and compressed by
 * whichever thread is ahead (tree-thread.ts). Each thread runs its file bundled (bundled-worker.ts)
 * with a bounded heap.
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
  readonly timings: StepTimings = {};
  #failure: Error | undefined;

  /** Starts both threads (their scripts bundled first). */
  static async start(dir: string, databasePath: string, buildHash: string, onStep: (step: string) => void): Promise<VersionThreads> {
    const channel = new MessageChannel();
    const consumed = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const treeData: TreeThreadData = { job: 'bible-tree', dir, toIndex: channel.port1, consumed };
    const indexData: IndexThreadData = { job: 'bible-index', dir, databasePath, buildHash, fromTree: channel.port2, consumed };
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
    return new VersionThreads(tree, index, databasePath, onStep);
  }

  private constructor(tree: Worker, index: Worker, databasePath: string, onStep: (step: string) => void) {
    this.#tree = tree;
    this.#index = index;
    this.#databasePath = databasePath;
    this.#tree.on('message', (message: FromTreeThread) => {
      if (message.kind === 'progress') return onStep(message.step);
      if (message.kind === 'failed') return this.#fail(threadError('tree', message));
      Object.assign(this.timings, message.timings);
      this.#treeWaiting.shift()?.resolve(message);
    });
    this.#index.on('message', (message: FromIndexThread) => {
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

  /** Waits for every version, merges the full-text index and renames the database into place. */
  async finish(): Promise<{ files: WrittenFile[]; databaseBytes: number }> {
    const finished = this.#sendIndex({ kind: 'finish' });
    const message = await finished;
    await this.#stop();
    return { files: this.#indexFiles, databaseBytes: message.kind === 'finished' ? message.databaseBytes : 0 };
  }

  /** Stops both threads and removes the unfinished database (after a failed build). */
  async abort(): Promise<void> {
    await this.#stop();
    await DatabaseWriter.removeTemporary(this.#databasePath);
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
