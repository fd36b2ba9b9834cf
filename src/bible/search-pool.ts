// A small pool of worker threads that run Bible queries (searches) off the event loop, with a bounded queue and a time budget.
import { Worker } from 'node:worker_threads';
import { problems } from '../../build/contract/problems.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
import { embeddedSearchWorker } from '../resources/resources.ts';
import type { QueryMethod, QueryRequest, SearchWorkerSetup, WorkerMessage, WorkerQueries } from './search-worker.ts';
import { checkoutWorkerCode } from './search-worker-code.ts';
import { LONG_QUERY_NICENESS, ordinaryNiceness, setThreadNiceness } from './thread-priority.ts';

export interface QueryPoolOptions {
  databasePath: string;
  /** Whether each worker's connection keeps the file's shared lock (openBibleDatabase; default true). */
  keepLock?: boolean;
  /** The build this pool serves; a worker that finds another one at the path refuses to serve. */
  buildHash: string;
  /** Worker threads, each with its own read-only connection. */
  workers: number;
  /** Queries waiting for a free worker at most; the next one answers 503 search-busy. */
  maxQueued: number;
  /** How long one query may run on its worker: past it the request answers 503 and the worker is replaced. */
  timeoutMs: number;
  logger: Logger;
  /** Sets a thread's nice value (thread-priority.ts); a test gives one that refuses to lower it, as for a plain user. */
  setThreadNiceness?: (threadId: number, niceness: number) => boolean;
  /**
   * Called once when the pool stops serving: a worker found the database gone or of another
   * build, or died before it was ready. The source then opens the build again.
   */
  onStopped: () => void;
}

export interface QueryPool {
  /**
   * Runs `queries[method](...args)` (BibleQueries, or searchWords) on a worker and resolves with its result. Rejects with an
   * ApiError 503 (Retry-After) when the queue is full, the query ran past its budget or the
   * pool's build is going away; with an Error (a 500) when the query itself threw.
   *
   * @example const page = await pool.run('search', 'fr', '"amour"', 10, 0);
   */
  run<M extends QueryMethod>(method: M, ...args: Parameters<WorkerQueries[M]>): Promise<ReturnType<WorkerQueries[M]>>;
  /** Lets queued and running queries finish, then stops the workers; new queries answer 503. */
  close(): Promise<void>;
  /** True once the pool has stopped serving on its own (see onStopped); every query answers 503. */
  readonly stopped: boolean;
  /** True once its workers have been started (by a query, or by start()). */
  readonly started: boolean;
  /** Starts the workers now rather than at the first query: for a new build of a server that searches. */
  start(): void;
}

/**
 * The young generation of each search worker. A worker's isolate takes the process's V8 flags, so
 * its young generation grew as the main thread's does (`--max-semi-space-size=8`: up to 24 MB) for
 * what is short-lived: a query's rows and the page it answers, a few hundred kB. Bounded, it
 * collects sooner at little cost (a scavenge copies only what is alive), and the workers' part of
 * the service's peak RSS shrinks (issue 28: 150 MB with every endpoint and language used).
 * Measured with every endpoint in every language then the bench's scenarios at a quarter of their
 * offered rates (a load this shared machine kept up with): peak 170 MB unbounded, 161 MB at 6.
 */
const SEARCH_WORKER_HEAP = { maxYoungGenerationSizeMb: 6 };

/**
 * A query still running after this long is a costly one (the bench's searches take 0.2 to 1.6 ms of
 * CPU; the costliest allowed, tens of ms): its thread is niced until it answers, so that on a busy
 * core the event loop (static files, ranges) runs first. Only then: a thread niced all the time
 * waited behind every other thread of the machine for ordinary searches too (nice 10 weighs a tenth
 * of nice 0), which made the search tail; see the commit that brought this in for the figures.
 */
const LONG_QUERY_MS = 20;

/** Seconds a client is told to wait after a 503 search-busy: the queue moves within a second. */
const BUSY_RETRY_AFTER_SECONDS = 1;

interface Job {
  request: QueryRequest;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** The kernel's id of the worker's thread, while its nice value can be set both ways (see restoreNiceness). */
  threadId?: number;
  /** True while the thread runs at LONG_QUERY_NICENESS. */
  niced: boolean;
}

/**
 * Makes a pool whose workers start at the first query (a server that serves no search starts
 * none). Each worker opens the database read-only and checks its build hash first.
 */
export function createQueryPool(options: QueryPoolOptions): QueryPool {
  const { logger, timeoutMs } = options;
  const setNiceness = options.setThreadNiceness ?? setThreadNiceness;
  const ordinary = ordinaryNiceness();
  const queue: Job[] = [];
  const slots = new Set<Slot>();
  let started = false;
  let closing = false;
  let unusable: string | undefined;
  let nextId = 1;
  let whenDrained: (() => void) | undefined;

  const busy = (): boolean => queue.length > 0 || [...slots].some((slot) => slot.job);

  const settleDrain = (): void => {
    if (whenDrained && !busy()) whenDrained();
  };

  const startWorker = (): void => {
    const setup: SearchWorkerSetup = {
      job: 'bible-queries',
      databasePath: options.databasePath,
      keepLock: options.keepLock ?? true,
      buildHash: options.buildHash,
    };
    const worker = new Worker(workerBootstrap(), { eval: true, workerData: setup, resourceLimits: SEARCH_WORKER_HEAP });
    const slot: Slot = { worker, ready: false, niced: false };
    slots.add(slot);
    slot.worker.unref();
    slot.worker.on('message', (message: WorkerMessage) => onMessage(slot, message));
    slot.worker.on('error', (error) => logger.error({ err: error }, 'search worker failed'));
    slot.worker.on('exit', (code) => onExit(slot, code));
  };

  const onMessage = (slot: Slot, message: WorkerMessage): void => {
    if (message.type === 'ready') {
      slot.ready = true;
      slot.threadId = message.threadId;
      dispatch();
      return;
    }
    if (message.type === 'unusable') {
      giveUp(`the search worker cannot use this build: ${message.reason}`);
      return;
    }
    const job = slot.job;
    if (!job || job.request.id !== message.id) return; // answered already (over budget)
    finish(slot);
    restoreNiceness(slot);
    if (message.type === 'result') job.resolve(message.value);
    else job.reject(new Error(`bible query ${job.request.method} failed on its worker: ${message.message}`));
    dispatch();
  };

  const onExit = (slot: Slot, code: number): void => {
    const wasServing = slots.delete(slot);
    const job = slot.job;
    if (job) {
      finish(slot);
      job.reject(new Error(`search worker exited with code ${code} during ${job.request.method}`));
    }
    if (!wasServing || closing || unusable !== undefined) {
      settleDrain();
      return;
    }
    if (!slot.ready) {
      // It died before it could open the database: starting another would only die the same way.
      giveUp(`a search worker exited with code ${code} before it was ready`);
      return;
    }
    logger.warn({ code }, 'search worker exited; starting another');
    startWorker();
  };

  const finish = (slot: Slot): void => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  };

  const dispatch = (): void => {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = queue.shift();
      if (!job) break;
      slot.job = job;
      slot.timer =
        slot.threadId !== undefined && timeoutMs > LONG_QUERY_MS
          ? setTimeout(() => runningLong(slot), LONG_QUERY_MS)
          : setTimeout(() => overBudget(slot), timeoutMs);
      slot.worker.postMessage(job.request);
    }
    settleDrain();
  };

  /** The query has run LONG_QUERY_MS: its thread yields to the event loop for the rest of it, and its budget runs on. */
  const runningLong = (slot: Slot): void => {
    if (!slot.job) return;
    if (slot.threadId !== undefined && !slot.niced) slot.niced = setNiceness(slot.threadId, LONG_QUERY_NICENESS);
    slot.timer = setTimeout(() => overBudget(slot), timeoutMs - LONG_QUERY_MS);
  };

  /**
   * Back to the ordinary nice value once the long query has answered. Lowering it needs a privilege
   * (root, CAP_SYS_NICE or RLIMIT_NICE) that a service run as a plain user lacks: then the worker
   * is retired and another started, whose thread begins at the process's nice value, so that no
   * thread stays niced for the ordinary searches after it. A long query costs at least
   * LONG_QUERY_MS already; a worker's start (tens of ms, off the event loop) at most doubles it.
   */
  const restoreNiceness = (slot: Slot): void => {
    if (!slot.niced || slot.threadId === undefined) return;
    if (setNiceness(slot.threadId, ordinary)) {
      slot.niced = false;
      return;
    }
    slots.delete(slot);
    void slot.worker.terminate();
    logger.debug({ threadId: slot.threadId }, 'search worker left niced after a long query; another started in its place');
    if (!closing && unusable === undefined) startWorker();
  };

  /** SQLite cannot be interrupted from outside its thread: answer now, retire the worker, start another. */
  const overBudget = (slot: Slot): void => {
    const job = slot.job;
    if (!job) return;
    finish(slot);
    slots.delete(slot);
    void slot.worker.terminate();
    logger.warn({ method: job.request.method, timeoutMs }, 'bible query ran past its time budget; its worker is replaced');
    job.reject(new ApiError(problems.searchBusy('over-budget', BUSY_RETRY_AFTER_SECONDS)));
    if (!closing && unusable === undefined) startWorker();
    dispatch();
  };

  const giveUp = (reason: string): void => {
    if (unusable !== undefined) return;
    unusable = reason;
    logger.warn({ reason, database: options.databasePath }, 'search pool stopped');
    for (const job of queue.splice(0)) job.reject(new ApiError(problems.bibleRebuilding()));
    for (const slot of [...slots]) {
      const job = slot.job;
      finish(slot);
      job?.reject(new ApiError(problems.bibleRebuilding()));
      slots.delete(slot);
      void slot.worker.terminate();
    }
    settleDrain();
    if (!closing) options.onStopped();
  };

  const start = (): void => {
    if (started || closing || unusable !== undefined) return;
    started = true;
    for (let index = 0; index < options.workers; index++) startWorker();
  };

  return {
    get stopped() {
      return unusable !== undefined;
    },
    get started() {
      return started;
    },
    start,
    run(method, ...args) {
      if (closing || unusable !== undefined) return Promise.reject(new ApiError(problems.bibleRebuilding()));
      start();
      const idle = [...slots].some((slot) => slot.ready && !slot.job);
      if (!idle && queue.length >= options.maxQueued) {
        return Promise.reject(new ApiError(problems.searchBusy('queue-full', BUSY_RETRY_AFTER_SECONDS)));
      }
      return new Promise((resolve, reject) => {
        queue.push({ request: { id: nextId++, method, args }, resolve: resolve as (value: unknown) => void, reject });
        dispatch();
      });
    },
    async close() {
      closing = true;
      if (busy()) await new Promise<void>((resolve) => (whenDrained = resolve));
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
      slots.clear();
    },
  };
}

/**
 * The worker's entry, as code to evaluate. In the single binary, the search worker bundled on
 * its own (a binary can load no file beside it). From a checkout, the same bundled once per
 * process (search-worker-code.ts; a worker does not inherit the main thread's tsx loader).
 */
function workerBootstrap(): string {
  return embeddedSearchWorker() ?? checkoutWorkerCode().code;
}
