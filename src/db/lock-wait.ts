// Waiting for another connection's SQLite lock off the event loop: the work is retried on timers within a budget, then StorageUnavailableError.
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageUnavailableError } from './storage-unavailable.ts';

/** DATABASE_LOCK_WAIT_MS's default: how long a request waits, off the event loop, for another process's write to end. */
export const DEFAULT_LOCK_WAIT_MS = 1_000;
/** The first pause after SQLITE_BUSY; each next one doubles, up to LONGEST_PAUSE_MS. */
const FIRST_PAUSE_MS = 1;
/** A retry costs one failed lock attempt (microseconds): every 50 ms at most keeps the added latency small once the lock goes. */
const LONGEST_PAUSE_MS = 50;

/**
 * Whether `error` is SQLite's "another connection holds the lock" (SQLITE_BUSY and its extended
 * codes: _RECOVERY, _SNAPSHOT, _TIMEOUT). Nothing was written by the statement or transaction that
 * met it, so running it again is safe.
 */
export function isLockBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `work`; while it fails with SQLITE_BUSY, runs it again after a pause on a timer (1, 2, 4 …
 * 50 ms), so the event loop serves other requests meanwhile. The connection is opened with
 * busy_timeout 0 (src/db/connect.ts): better-sqlite3 would otherwise wait for the lock inside the
 * call, and the whole process with it. Past `budgetMs` it throws StorageUnavailableError (503
 * database-unavailable with Retry-After): the caller's request is answered, not held.
 *
 * @example await retryWhileLocked(() => insertKey.immediate(developerId, key), 1_000)
 */
export async function retryWhileLocked<T>(work: () => T | Promise<T>, budgetMs: number): Promise<T> {
  const deadline = performance.now() + budgetMs;
  try {
    return await work();
  } catch (error) {
    if (!isLockBusy(error)) throw error;
    return retryUntil(work, deadline, budgetMs, error);
  }
}

/**
 * `repository` with each of its asynchronous methods run through retryWhileLocked: the SQLite
 * repositories run their statements synchronously inside async methods, so one failed call has
 * changed nothing and is simply called again. Methods that return no promise are left as they are.
 *
 * @example const accounts = waitingForLocks(createSqliteAccountRepository(db), config.databaseLockWaitMs);
 */
export function waitingForLocks<R extends object>(repository: R, budgetMs: number): R {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repository)) {
    if (typeof member !== 'function') {
      wrapped[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      const result = method.apply(repository, args);
      if (!(result instanceof Promise)) return result;
      // The common case (no lock) costs one extra handler, and no timer.
      return result.catch((error: unknown) => {
        if (!isLockBusy(error)) throw error;
        return retryUntil(() => method.apply(repository, args), performance.now() + budgetMs, budgetMs, error);
      });
    };
  }
  return wrapped as R;
}

/** After a first SQLITE_BUSY: pause, try again, until `work` settles otherwise or the deadline passes. */
async function retryUntil<T>(work: () => T | Promise<T>, deadline: number, budgetMs: number, firstError: unknown): Promise<T> {
  let pause = FIRST_PAUSE_MS;
  let busy = firstError;
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) {
      throw new StorageUnavailableError(`the SQLite database stayed locked by another connection for ${budgetMs} ms`, { cause: busy });
    }
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    try {
      return await work();
    } catch (error) {
      if (!isLockBusy(error)) throw error;
      busy = error;
    }
  }
}
