// The search worker pool: the repository's answers off the event loop, a bounded queue, a time budget, a build that moved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import Database from '../../build/contract/sqlite-driver.ts';
import { writeDatabase } from '../../build/writers/database.ts';
import { createBibleQueries } from '../../src/bible/queries.ts';
import { createQueryPool, type QueryPool, type QueryPoolOptions } from '../../src/bible/search-pool.ts';
import { ftsQuery } from '../../src/bible/search-query.ts';
import { checkoutWorkerCode } from '../../src/bible/search-worker-code.ts';
import { LONG_QUERY_NICENESS } from '../../src/bible/thread-priority.ts';
import { createLogger } from '../../src/http/logger.ts';
import { ApiError } from '../../src/http/problem.ts';
import { collectLogLines } from '../helpers/log-lines.ts';
import { COSTLIEST_ALLOWED_QUERY, heavySearchVersions } from './heavy-search-bible.ts';

let dir: string;
let databasePath: string;
const pools: QueryPool[] = [];
const costly = ftsQuery(COSTLIEST_ALLOWED_QUERY) as string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-pool-'));
  databasePath = path.join(dir, 'bible.sqlite');
  await writeDatabase(databasePath, heavySearchVersions(), 'heavy-1');
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function pool(options: Partial<QueryPoolOptions> = {}): QueryPool & { logs: string[] } {
  const { lines, destination } = collectLogLines();
  const made = createQueryPool({
    databasePath,
    // The tests hold a search by taking the file's lock, which a connection that keeps it would never wait for.
    keepLock: false,
    buildHash: 'heavy-1',
    workers: 2,
    maxQueued: 8,
    timeoutMs: 10_000,
    logger: createLogger('info', destination),
    onStopped: () => {},
    ...options,
  });
  pools.push(made);
  return Object.assign(made, { logs: lines });
}

/**
 * Takes the exclusive lock on the test database (a rollback-journal file, as the build writes it):
 * no other connection, a worker's included, can read until release(). Release is idempotent.
 */
function lockDatabase(): { release(): void } {
  const holder = new Database(databasePath);
  holder.exec('BEGIN EXCLUSIVE');
  return {
    release() {
      if (!holder.open) return;
      holder.exec('ROLLBACK');
      holder.close();
    },
  };
}

/** Each thread of this process (Linux) and its nice value (field 19 of /proc/self/task/ID/stat). */
function threadNiceness(): Map<number, number> {
  const niceness = new Map<number, number>();
  for (const id of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      // The fields after the command name (which may hold spaces), counted from field 3.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      niceness.set(Number(id), Number(fields[19 - 3]));
    } catch {
      // The thread ended while listed.
    }
  }
  return niceness;
}

/** The ids of this process's threads at LONG_QUERY_NICENESS. */
function nicedThreads(): number[] {
  return [...threadNiceness()].filter(([, niceness]) => niceness === LONG_QUERY_NICENESS).map(([id]) => id);
}

/** The problem a rejected query carries, or the error itself when it is not an ApiError. */
async function outcome<T>(promise: Promise<T>): Promise<{ value: T } | { status: number; type: string; headers?: Record<string, string> }> {
  try {
    return { value: await promise };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.problem.status, type: error.problem.type, headers: { ...error.problem.headers } };
  }
}

describe('search pool', () => {
  test('from a checkout, workers run the worker bundled once to plain JavaScript, not tsx', () => {
    const first = checkoutWorkerCode();
    expect(first.kind).toBe('bundled');
    expect(first.code).not.toContain('tsx');
    expect(checkoutWorkerCode().code).toBe(first.code);
  });

  test('answers exactly what the repository answers on the main thread', async () => {
    const queries = createBibleQueries(new Database(databasePath, { readonly: true, fileMustExist: true }));
    const searches = pool();
    for (const q of ['de', 'eternel', '"verset 7:12"', 'blessed']) {
      const match = ftsQuery(q) as string;
      for (const lang of ['fr', 'en'] as const) {
        expect(await searches.run('search', lang, match, 5, 3), `${lang} ${q}`).toEqual(queries.search(lang, match, 5, 3));
      }
    }
    expect(await searches.run('book', 'fr', 'PSA')).toEqual(queries.book('fr', 'PSA'));
  });

  test('a search runs off the event loop: while it waits on the database, a timer on the main thread runs and frees it', async () => {
    const searches = pool();
    await searches.run('version', 'fr'); // the workers are up
    // The test holds the database's exclusive lock: no search can read until the main thread lets go.
    // On a worker, the search waits in SQLite's busy handler (5 s, better-sqlite3's default) while the
    // timer below runs and commits; on the main thread it would block that timer until the busy
    // timeout and fail with "database is locked". Nothing here depends on how fast a search runs: the
    // only bound is that a 100 ms timer fires within the 5 s busy timeout, a margin of 4.9 s against
    // the stalls of a loaded machine (at most about 90 ms seen at a load of 9 on 2 cores).
    const holder = lockDatabase();
    let released = false;
    const release = setTimeout(() => {
      holder.release();
      released = true;
    }, 100);
    const answered = searches.run('search', 'fr', costly, 10, 0).then((page) => ({ page, released }));
    try {
      const { page, released: wasReleased } = await answered;
      expect(wasReleased).toBe(true);
      expect(page.totalItems).toBe(0);
    } finally {
      clearTimeout(release);
      holder.release();
    }
  });

  test.runIf(process.platform === 'linux')(
    "a worker's thread is niced only while a query runs long, so that ordinary searches wait behind no other thread",
    async () => {
      const searches = pool({ workers: 1 });
      await searches.run('version', 'fr'); // the worker is up, and has answered at its ordinary nice value
      const before = nicedThreads();
      expect(threadNiceness().size).toBeGreaterThan(0);
      // The test makes the search long on purpose: it holds the database's exclusive lock, so the search
      // waits in SQLite's busy handler until the lock is let go, 200 ms later (the pool nices at 20 ms;
      // both are timers of this thread, run in the order they are due whatever the machine's load).
      const holder = lockDatabase();
      let nicedWhileLong: number[] = [];
      const release = setTimeout(() => {
        nicedWhileLong = nicedThreads().filter((id) => !before.includes(id));
        holder.release();
      }, 200);
      try {
        const page = await searches.run('search', 'fr', costly, 10, 0);
        expect(page.totalItems).toBe(0);
      } finally {
        clearTimeout(release);
        holder.release();
      }
      expect(nicedWhileLong).toHaveLength(1);
      // Lowering it back needs a privilege (root here, as in the bench's container); without one it stays niced.
      if (process.getuid?.() === 0) expect(nicedThreads()).not.toContain(nicedWhileLong[0]);
    },
  );

  test.runIf(process.platform === 'linux')(
    'a thread that may not be set back after a long query (a plain user) is retired, and the next search runs on a fresh thread',
    async () => {
      // The setter refuses every lowering, as Linux does for a user without CAP_SYS_NICE, and records the threads it niced.
      const niced: number[] = [];
      const searches = pool({
        workers: 1,
        setThreadNiceness: (threadId, niceness) => {
          if (niceness < LONG_QUERY_NICENESS) return false;
          niced.push(threadId);
          return true;
        },
      });
      await searches.run('version', 'fr');
      const threadsBefore = new Set(threadNiceness().keys());
      const holder = lockDatabase();
      const release = setTimeout(() => holder.release(), 200);
      try {
        expect((await searches.run('search', 'fr', costly, 10, 0)).totalItems).toBe(0);
      } finally {
        clearTimeout(release);
        holder.release();
      }
      expect(niced).toHaveLength(1);
      expect(threadsBefore.has(niced[0]!)).toBe(true);
      // The next search is answered by another worker, and the niced thread leaves the process (once its
      // termination, begun when the long query answered, has run: polled, not timed).
      const page = await searches.run('search', 'en', ftsQuery('god') as string, 10, 0);
      expect(page.totalItems).toBeGreaterThan(0);
      await vi.waitFor(() => expect(threadNiceness().has(niced[0]!)).toBe(false), { timeout: 10_000, interval: 20 });
    },
  );

  test('a full queue answers 503 search-busy with Retry-After at once', async () => {
    const searches = pool({ workers: 1, maxQueued: 1 });
    await searches.run('version', 'fr');
    const results = await Promise.all([0, 1, 2].map(() => outcome(searches.run('search', 'fr', costly, 10, 0))));
    expect(results[0]).toHaveProperty('value');
    expect(results[1]).toHaveProperty('value');
    expect(results[2]).toEqual({ status: 503, type: 'search-busy', headers: { 'Retry-After': '1' } });
  });

  test('a search past its time budget answers 503 search-busy; its worker is replaced and the next search answers', async () => {
    // The test makes the search slow on purpose: it holds the database's exclusive lock, so the
    // search cannot read before the lock is let go, which happens only after the 503. The worker
    // would give up only at SQLite's busy timeout (5 s) and answer later still than the 250 ms
    // budget, whatever the machine's speed or load: once both are due, Node runs the expired timer
    // before it reads the worker's message.
    const searches = pool({ workers: 1, timeoutMs: 250 });
    await searches.run('version', 'fr');
    const holder = lockDatabase();
    try {
      expect(await outcome(searches.run('search', 'fr', costly, 10, 0))).toEqual({
        status: 503,
        type: 'search-busy',
        headers: { 'Retry-After': '1' },
      });
    } finally {
      holder.release();
    }
    expect(searches.logs.join('\n')).toContain('ran past its time budget');
    const page = await searches.run('search', 'en', ftsQuery('god') as string, 10, 0);
    expect(page.totalItems).toBe(2);
  });

  test('a database of another build is not used: 503 bible-rebuilding, and the source is told to open the build again', async () => {
    let stopCalls = 0;
    const searches = pool({ buildHash: 'some-other-build', onStopped: () => stopCalls++ });
    expect(searches.stopped).toBe(false);
    expect(await outcome(searches.run('version', 'fr'))).toMatchObject({ status: 503, type: 'bible-rebuilding' });
    expect([stopCalls, searches.stopped]).toEqual([1, true]);
    expect(await outcome(searches.run('version', 'fr'))).toMatchObject({ status: 503, type: 'bible-rebuilding' });
  });

  test('close lets the queued and running searches finish, then refuses new ones', async () => {
    const searches = pool({ workers: 1 });
    const search = searches.run('search', 'fr', costly, 10, 0);
    const lookup = searches.run('version', 'fr');
    await searches.close();
    const [page, version] = await Promise.all([search, lookup]);
    expect(page.totalItems).toBe(0);
    expect(version?.code).toBe('LSG');
    expect(await outcome(searches.run('version', 'fr'))).toMatchObject({ status: 503, type: 'bible-rebuilding' });
  });
});
