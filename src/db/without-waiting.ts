// Running SQLite work that must never block the event loop on another connection's lock.
import type { Db } from './open.ts';

/**
 * Runs `work` with SQLite's busy timeout at 0: a locked database fails at once (SQLITE_BUSY)
 * instead of blocking the event loop for the busy timeout. For background bookkeeping that can
 * be retried later ("last used", the mail sender's records).
 *
 * @example try { withoutWaiting(db, () => statement.run(…)) } catch { … retry later }
 */
export function withoutWaiting<T>(db: Db, work: () => T): T {
  const previous = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return work();
  } finally {
    db.pragma(`busy_timeout = ${Number(previous)}`);
  }
}

/** Whether an error is SQLite's "the database is locked" (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
