// A rate-limit store whose every call ends within a timeout: with a hung Redis the limiters count per instance, logged once per interval.
import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from 'express-rate-limit';
import type { Logger } from '../http/logger.ts';

/** How often, at most, an ongoing store outage is logged. */
export const OUTAGE_LOG_INTERVAL_MS = 60_000;
/** After a failure, calls fail at once for this long rather than each waiting out the timeout again. */
export const OUTAGE_BACKOFF_MS = 1_000;

/**
 * A store call that failed or took too long. The outage reporter has already logged it (or is
 * within its interval), so a limiter counts the request in this instance without logging it again.
 */
export class LimitStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LimitStoreUnavailable';
  }
}

/** The state of one store connection: logs an outage at most once per interval, however many requests meet it. */
export interface OutageReporter {
  report(error: unknown, message: string): void;
  /** True for OUTAGE_BACKOFF_MS after a failure: calls skip the store (a request meets one timeout, not one per limiter). */
  isDown(): boolean;
}

export function createOutageReporter(logger: Logger, intervalMs = OUTAGE_LOG_INTERVAL_MS, now = Date.now): OutageReporter {
  let lastLogged = Number.NEGATIVE_INFINITY;
  let downUntil = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return {
    isDown: () => now() < downUntil,
    report(error, message) {
      const time = now();
      downUntil = time + OUTAGE_BACKOFF_MS;
      if (time - lastLogged < intervalMs) {
        suppressed += 1;
        return;
      }
      logger.error({ err: error, suppressedSinceLast: suppressed }, message);
      lastLogged = time;
      suppressed = 0;
    },
  };
}

/**
 * Wraps `store` so that get, increment, decrement and resetKey settle within `timeoutMs`:
 * past it (or on any error) they reject with LimitStoreUnavailable, on which the limiters count
 * in this instance (window-limiter.ts, local-counts.ts). The late reply is ignored. For a
 * second after a failure, calls fail at once without asking the store.
 */
export function boundedStore(store: Store, timeoutMs: number, outage: OutageReporter): Store {
  const call = <T>(operation: string, run: () => Promise<T> | T): Promise<T> => withTimeout(operation, run, timeoutMs, outage);
  const bounded: Store = {
    localKeys: store.localKeys,
    prefix: store.prefix,
    // Not bounded: it runs once at start (loading scripts), when a slow first answer is no outage.
    init: (options: Options) => store.init?.(options),
    increment: (key: string): Promise<IncrementResponse> => call('increment', () => store.increment(key)),
    decrement: (key: string) => call('decrement', () => store.decrement(key)),
    resetKey: (key: string) => call('resetKey', () => store.resetKey(key)),
    shutdown: () => store.shutdown?.(),
  };
  if (store.get) {
    const get = store.get.bind(store);
    bounded.get = (key: string): Promise<ClientRateLimitInfo | undefined> => call('get', () => get(key));
  }
  return bounded;
}

async function withTimeout<T>(operation: string, run: () => Promise<T> | T, timeoutMs: number, outage: OutageReporter): Promise<T> {
  if (outage.isDown()) throw new LimitStoreUnavailable(`rate-limit store ${operation} skipped: the store failed less than a second ago`);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    // Rejecting from setImmediate lets a reply that already arrived (the event loop was busy, not the store) be read first:
    // timers run before I/O callbacks in a turn of the loop, setImmediate after them.
    timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(run), timedOut]);
  } catch (error) {
    outage.report(error, `rate-limit store ${operation} failed; limits count in each instance until it answers again`);
    throw new LimitStoreUnavailable(`rate-limit store ${operation} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}
