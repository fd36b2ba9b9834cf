// The nice value of one thread (Linux gives each thread its own): a search thread yields the core to the event loop only while it runs a long query.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The nice value of a search thread running a long query: on a busy core the event loop, not that query, runs first. */
export const LONG_QUERY_NICENESS = 10;

/**
 * The nice value of a search thread otherwise: the process's own (its main thread's, which a new
 * thread starts with), so that an ordinary search waits on no one. 0 where it cannot be read.
 */
export function ordinaryNiceness(): number {
  try {
    return os.getPriority();
  } catch {
    return 0;
  }
}

/**
 * The kernel's id of the calling thread (Linux: /proc/thread-self), for setThreadNiceness from
 * another thread; undefined elsewhere.
 */
export function currentThreadId(): number | undefined {
  try {
    const threadId = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    return Number.isSafeInteger(threadId) && threadId > 0 ? threadId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets the nice value of thread `threadId` of this process; false when the system does not allow it.
 * Raising it needs no privilege; lowering it back needs one (root, CAP_SYS_NICE, or RLIMIT_NICE),
 * so without it a thread once raised stays so.
 *
 * @example setThreadNiceness(workerThreadId, LONG_QUERY_NICENESS)
 */
export function setThreadNiceness(threadId: number, niceness: number): boolean {
  try {
    os.setPriority(threadId, niceness);
    return true;
  } catch {
    // Not allowed (lowering without privilege), or the thread has just ended.
    return false;
  }
}
