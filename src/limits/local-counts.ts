// This instance's own fixed-window counts beside a shared store: what a limiter goes by when Redis fails or is too slow.
import type { WindowState } from './types.ts';

/** One counting key's window in this instance. */
interface LocalWindow {
  hits: number;
  /** When the window ends, in Date.now() milliseconds. */
  resetAt: number;
}

/**
 * Per-instance counts that follow a shared store. While the store answers, each key's local count
 * is the larger of the store's count and this instance's own (so it never falls below what the
 * store said in the same window); when the store fails, the limiter counts here alone. A key over
 * its limit when Redis pauses therefore stays over it, and a key first seen during an outage gets
 * at most the limit through this instance per window.
 */
export interface LocalCounts {
  /** After the shared store counted (`counted` 1) or read (0) `key` as `shared`: the state to go by. */
  follow(key: string, shared: WindowState, counted: 0 | 1): WindowState;
  /** The store failed: counts one request here. */
  add(key: string): WindowState;
  /** The store failed: the state here, undefined when nothing is counted under `key`. */
  peek(key: string): WindowState | undefined;
  /** Takes back one request (whether or not the store took it back). */
  takeBack(key: string): void;
}

/**
 * @example const local = createLocalCounts(60_000); const state = local.add('key:abc');
 */
export function createLocalCounts(windowMs: number, now: () => number = Date.now): LocalCounts {
  const windows = new Map<string, LocalWindow>();
  let nextSweep = now() + windowMs;

  const current = (key: string, time: number): LocalWindow | undefined => {
    const window = windows.get(key);
    return window && window.resetAt > time ? window : undefined;
  };
  const stateOf = (window: LocalWindow, time: number): WindowState => ({ totalHits: window.hits, msToReset: window.resetAt - time });
  /** Ended windows are dropped once per window length, so the map holds about one window's keys. */
  const sweep = (time: number) => {
    if (time < nextSweep) return;
    nextSweep = time + windowMs;
    for (const [key, window] of windows) if (window.resetAt <= time) windows.delete(key);
  };

  return {
    follow(key, shared, counted) {
      const time = now();
      sweep(time);
      const sharedResetAt = time + shared.msToReset;
      const window = current(key, time);
      // No window here, or the store's began after ours had run half its length: a new window.
      if (!window || sharedResetAt - window.resetAt > windowMs / 2) {
        windows.set(key, { hits: shared.totalHits, resetAt: sharedResetAt });
        return shared;
      }
      window.hits = Math.max(window.hits + counted, shared.totalHits);
      return window.hits > shared.totalHits ? stateOf(window, time) : shared;
    },
    add(key) {
      const time = now();
      sweep(time);
      let window = current(key, time);
      if (!window) {
        window = { hits: 0, resetAt: time + windowMs };
        windows.set(key, window);
      }
      window.hits += 1;
      return stateOf(window, time);
    },
    peek(key) {
      const time = now();
      const window = current(key, time);
      return window && window.hits > 0 ? stateOf(window, time) : undefined;
    },
    takeBack(key) {
      const window = current(key, now());
      if (window && window.hits > 0) window.hits -= 1;
    },
  };
}
