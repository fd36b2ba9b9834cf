// Inside a search worker thread: one read-only connection to the Bible database, running the queries the pool sends.
import { parentPort, workerData } from 'node:worker_threads';
import { readBibleMeta } from '../../build/contract/bible-database.ts';
import type Database from '../../build/contract/sqlite-driver.ts';
import { openBibleDatabase } from './bible-database.ts';
import { type BibleQueries, createBibleQueries } from './queries.ts';
import { type SearchWordsPage, searchWords } from './search-words.ts';
import { currentThreadId } from './thread-priority.ts';

/** What a worker runs: the repository's queries, and a search page with its word items already serialised. */
export interface WorkerQueries extends BibleQueries {
  searchWords(...args: Parameters<BibleQueries['search']>): SearchWordsPage;
}

/** A method the pool may run on a worker: any of WorkerQueries. */
export type QueryMethod = keyof WorkerQueries;

/** What a worker is started with. */
export interface SearchWorkerSetup {
  job: 'bible-queries';
  databasePath: string;
  /** Whether the connection keeps the file's shared lock (openBibleDatabase). */
  keepLock: boolean;
  /** The build the pool serves; a database of another build is not used. */
  buildHash: string;
}

/** Pool → worker: run queries[method](...args). */
export interface QueryRequest {
  id: number;
  method: QueryMethod;
  args: unknown[];
}

/** Worker → pool. */
export type WorkerMessage =
  /** threadId: the kernel's id of the worker's thread (Linux), whose nice value the pool raises while a query runs long. */
  | { type: 'ready'; threadId?: number }
  /** The database cannot be opened or belongs to another build: this pool cannot serve. */
  | { type: 'unusable'; reason: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string };

const setup = workerData as SearchWorkerSetup | undefined;
if (parentPort && setup?.job === 'bible-queries') {
  const port = parentPort;
  const opened = openQueries(setup);
  if ('reason' in opened) {
    port.postMessage({ type: 'unusable', reason: opened.reason } satisfies WorkerMessage);
  } else {
    const { queries } = opened;
    port.on('message', ({ id, method, args }: QueryRequest) => {
      try {
        const run = queries[method] as (...values: unknown[]) => unknown;
        port.postMessage({ type: 'result', id, value: run(...args) } satisfies WorkerMessage);
      } catch (error) {
        port.postMessage({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) } satisfies WorkerMessage);
      }
    });
    port.postMessage({ type: 'ready', threadId: currentThreadId() } satisfies WorkerMessage);
  }
}

/** The queries over the database at the path, if it still holds the build the pool serves. */
function openQueries(setup: SearchWorkerSetup): { queries: WorkerQueries } | { reason: string } {
  let db: Database.Database;
  try {
    db = openBibleDatabase(setup.databasePath, setup.keepLock);
  } catch (error) {
    return { reason: `cannot open ${setup.databasePath} (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    const { buildHash } = readBibleMeta(db);
    if (buildHash !== setup.buildHash) {
      db.close();
      return { reason: `the database now holds build ${buildHash ?? 'none'}, not ${setup.buildHash}` };
    }
    const queries = createBibleQueries(db);
    return { queries: { ...queries, searchWords: (...args) => searchWords(queries, ...args) } };
  } catch (error) {
    db.close();
    return { reason: `cannot read ${setup.databasePath} (${error instanceof Error ? error.message : String(error)})` };
  }
}
