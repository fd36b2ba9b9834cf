// Child processes of a benchmark run: free loopback ports, starting a server and waiting for its first good answer, stopping it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

/** A server the benchmark started: its address and process, and how to stop it. */
export interface RunningServer {
  name: string;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  pid: number;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  port: number;
  /** A path that answers 200 once the server is ready. */
  readyPath: string;
  /** Files that receive the process's stdout and stderr (a service's access log, its errors). */
  stdoutFile: string;
  stderrFile: string;
  cwd?: string;
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port from the OS');
  return address.port;
}

/**
 * Starts the command and waits until `readyPath` answers 200 (at most a minute); throws with the
 * end of its stderr when it exits or never gets ready.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const stdout = createWriteStream(options.stdoutFile);
  const stderr = createWriteStream(options.stderrFile);
  const child = spawn(options.command, options.args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(stdout);
  child.stderr?.pipe(stderr);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitUntilReady(`${url}${options.readyPath}`, child);
  } catch (error) {
    await stopChild(child);
    const output = await readFile(options.stderrFile, 'utf8').catch(() => '');
    throw new Error(`${options.name} did not start: ${(error as Error).message}\n${output.slice(-2000)}`);
  }
  return { name: options.name, url, pid: child.pid!, stop: () => stopChild(child) };
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer 200 within a minute`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * CPU time the process has used so far (user + system), in ms, from /proc/PID/stat; undefined once it
 * is gone. Per request, it tells a server's cost apart from the machine's load, which throughput does not.
 */
export async function cpuTimeMs(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return undefined;
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** CPU time (user + system, ms) of each process of some process trees at one moment, by process id. */
export type CpuSnapshot = ReadonlyMap<number, number>;

/**
 * The CPU time of every process in the trees under `roots` (each root and all its descendants: a
 * PostgreSQL server's postmaster and its backends, nginx's master and worker), read from /proc at
 * once. A process's own times never include its children's, so the sum over the tree is the tree's.
 */
export async function cpuSnapshot(roots: readonly number[]): Promise<CpuSnapshot> {
  const names = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const processes = new Map<number, { parent: number; cpuMs: number }>();
  await Promise.all(
    names.map(async (name) => {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
      if (!stat) return;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(Number(name), {
        parent: Number(fields[1]),
        cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND,
      });
    }),
  );
  const inTree = new Set(roots.filter((pid) => processes.has(pid)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { parent }] of processes) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return new Map([...inTree].map((pid) => [pid, processes.get(pid)!.cpuMs]));
}

/**
 * The CPU time (ms) the trees spent between two snapshots: a process that started in between counts
 * whole; one that ended in between is missing (its time is lost with it, so this can only undercount).
 */
export function cpuSpentMs(before: CpuSnapshot, after: CpuSnapshot): number {
  let spent = 0;
  for (const [pid, cpuMs] of after) spent += cpuMs - (before.get(pid) ?? 0);
  return spent;
}

/** USER_HZ: Linux reports process times in hundredths of a second on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The peak resident set of a process so far (VmHWM), in MB; undefined once it is gone. */
export async function peakRssMb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kilobytes = status ? /VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] : undefined;
  return kilobytes === undefined ? undefined : (Number(kilobytes) * 1024) / 1e6;
}
