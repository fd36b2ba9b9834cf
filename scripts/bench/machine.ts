// Where a run was made: CPU, cores, memory, load, Node and the commit, written beside every figure.
import { execFile } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { promisify } from 'node:util';
import type { Machine } from './report.ts';

/** The machine now; `loadAverage.end` is filled in at the end of the run (loadNow). */
export function describeMachine(): Machine {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryMB: Math.round(totalmem() / 1e6),
    loadAverage: { start: loadNow(), end: [] },
    os: `${type()} ${release()}`,
  };
}

/** The 1, 5 and 15 minute load averages. */
export function loadNow(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}

/** The checked-out commit, with `-dirty` when the work tree has changes (figures of uncommitted code). */
export async function currentCommit(): Promise<string> {
  const git = async (...args: string[]) => (await promisify(execFile)('git', args)).stdout.trim();
  try {
    const commit = await git('rev-parse', '--short=12', 'HEAD');
    const dirty = (await git('status', '--porcelain', '--untracked-files=no')) !== '';
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}
