// A small concurrency cap with a short, bounded queue: expensive work (password hashing) runs a few at a time, and who waits too long is refused.

export interface WorkGateOptions {
  /** Pieces of work that run at once. */
  concurrency: number;
  /** Callers that may wait for a slot; one more is refused at once. */
  queue: number;
  /** Longest a caller waits for a slot before it is refused. */
  waitMs: number;
}

/** Refused by the gate: the caller should answer 503 with Retry-After. */
export class WorkGateBusy extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('Too much of this work is waiting already; try again shortly.');
    this.name = 'WorkGateBusy';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Waiter {
  urgent: boolean;
  start(): void;
}

export interface WorkGate {
  /**
   * Runs `work` when a slot is free. `urgent` work (a sign-in) is started before waiting work that
   * is not (a sign-up), so a flood of one kind does not keep the other out. Throws WorkGateBusy
   * when the queue is full or the wait would exceed waitMs.
   */
  run<T>(work: () => Promise<T>, urgent?: boolean): Promise<T>;
}

/**
 * @example const gate = createWorkGate({ concurrency: 1, queue: 16, waitMs: 5_000 }); await gate.run(() => hash(password));
 */
export function createWorkGate({ concurrency, queue, waitMs }: WorkGateOptions): WorkGate {
  let running = 0;
  const waiting: Waiter[] = [];
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));

  const next = () => {
    running -= 1;
    const index = waiting.findIndex((waiter) => waiter.urgent);
    const [waiter] = waiting.splice(index === -1 ? 0 : index, 1);
    waiter?.start();
  };

  const slot = (urgent: boolean): Promise<void> => {
    if (running < concurrency && waiting.length === 0) {
      running += 1;
      return Promise.resolve();
    }
    if (waiting.length >= queue) return Promise.reject(new WorkGateBusy(retryAfter));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        urgent,
        start() {
          clearTimeout(timer);
          running += 1;
          resolve();
        },
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(new WorkGateBusy(retryAfter));
      }, waitMs);
      waiting.push(waiter);
    });
  };

  return {
    async run(work, urgent = false) {
      await slot(urgent);
      try {
        return await work();
      } finally {
        next();
      }
    },
  };
}
