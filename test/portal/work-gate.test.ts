// The gate in front of password hashing: a few at a time, a short queue, sign-ins first, refusals with a Retry-After.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWorkGate, WorkGateBusy } from '../../src/portal/work-gate.ts';

/** Work the test finishes when it wants, recording when it started. */
function controlledWork(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: () => {
      started.push(name);
      return done.then(() => name);
    },
    finish: () => finish(),
  };
}

describe('the work gate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at most `concurrency` at once, then the waiting ones as slots free up, urgent ones first', async () => {
    const gate = createWorkGate({ concurrency: 2, queue: 10, waitMs: 60_000 });
    const started: string[] = [];
    const works = Object.fromEntries(['a', 'b', 'c', 'd', 'urgent'].map((name) => [name, controlledWork(started, name)]));
    const results = [
      gate.run(works.a.run),
      gate.run(works.b.run),
      gate.run(works.c.run),
      gate.run(works.d.run),
      gate.run(works.urgent.run, true),
    ];
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['a', 'b']);
    works.a.finish();
    await vi.advanceTimersByTimeAsync(0);
    // The sign-in overtakes the two sign-ups that were waiting before it.
    expect(started).toEqual(['a', 'b', 'urgent']);
    for (const name of ['b', 'urgent', 'c', 'd']) {
      works[name].finish();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(started).toEqual(['a', 'b', 'urgent', 'c', 'd']);
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'urgent']);
  });

  it('refuses at once past the queue, and after waitMs a caller still waiting, with a Retry-After of that wait', async () => {
    const gate = createWorkGate({ concurrency: 1, queue: 1, waitMs: 3_000 });
    const started: string[] = [];
    const running = controlledWork(started, 'running');
    const first = gate.run(running.run);
    const waiting = gate.run(controlledWork(started, 'waiting').run);
    const waitingRefusal = waiting.catch((error: unknown) => error);
    await expect(gate.run(controlledWork(started, 'one too many').run)).rejects.toMatchObject({ retryAfterSeconds: 3 });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(started).toEqual(['running']);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waitingRefusal).toBeInstanceOf(WorkGateBusy);
    running.finish();
    expect(await first).toBe('running');
    // The slot is free again: the next caller runs at once.
    const later = controlledWork(started, 'later');
    const result = gate.run(later.run);
    later.finish();
    expect(await result).toBe('later');
    expect(started).toEqual(['running', 'later']);
  });
});
