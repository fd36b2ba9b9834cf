// The benchmark's CPU accounting of process trees: a server's children (PostgreSQL's backends, nginx's worker) count with it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuSnapshot, cpuSpentMs } from '../../../scripts/bench/processes.ts';

describe('cpuSnapshot and cpuSpentMs', () => {
  it("count a tree's descendants with it, and only what they spent between two snapshots", async () => {
    // A parent that starts one child; the child burns CPU until it is killed, the parent only waits.
    const script = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
      console.log(child.pid);
      process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(0); });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const childPid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (data: Buffer) => resolve(String(data)))));
      const before = await cpuSnapshot([parent.pid!]);
      expect([...before.keys()].sort()).toEqual([parent.pid!, childPid].sort());
      // Until the child has used a whole clock tick more (the unit of /proc's times), however loaded the machine.
      const childSpent = async () => ((await cpuSnapshot([childPid])).get(childPid) ?? 0) - before.get(childPid)!;
      await expect.poll(childSpent, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(10);
      const after = await cpuSnapshot([parent.pid!]);
      // The parent's tree counts what its child spent: at least the tick seen above.
      expect(cpuSpentMs(before, after)).toBeGreaterThanOrEqual(10);
      expect(cpuSpentMs(before, after)).toBeGreaterThanOrEqual(after.get(childPid)! - before.get(childPid)!);
      // A process outside the trees is not counted.
      expect((await cpuSnapshot([childPid])).has(parent.pid!)).toBe(false);
      expect(
        cpuSpentMs(
          new Map(),
          new Map([
            [1, 5],
            [2, 7],
          ]),
        ),
      ).toBe(12);
      expect(
        cpuSpentMs(
          new Map([
            [1, 5],
            [3, 100],
          ]),
          new Map([
            [1, 6],
            [2, 7],
          ]),
        ),
      ).toBe(8);
    } finally {
      const exited = new Promise((resolve) => parent.once('exit', resolve));
      parent.kill('SIGTERM');
      await exited;
    }
  });
});
