// Test helper for the end-to-end tests: one instance of the service as its own process (`node --import tsx src/server.ts`), as a deployment runs it.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface InstanceProcess {
  url: string;
  port: number;
  /** The process id, to read its /proc entries (file descriptors, sockets). */
  pid: number;
  /** JSON log lines the instance wrote on stdout (its access log included). */
  logs: string[];
  /** Sends a signal; SIGKILL ends it with no chance to clean up, as a crash does. */
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the service with `env` on a free loopback port in a folder of its own (its secret file,
 * outbox and Bible folders go there), and resolves once it logs that it listens.
 */
export async function startInstance(env: Record<string, string>): Promise<InstanceProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-instance-'));
  // Node itself with tsx's loader, not the tsx launcher: a signal must reach the server, and a SIGKILLed
  // launcher would leave its server child running.
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(root, 'src', 'server.ts')], {
    cwd: dir,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let stderr = '';
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = pending + chunk.toString();
    const lines = text.split('\n');
    pending = lines.pop() ?? '';
    logs.push(...lines.filter(Boolean));
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await listeningUrl(child, logs, () => stderr);
  const cleanUp = () => fs.rmSync(dir, { recursive: true, force: true });
  exited.then(cleanUp);
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    logs,
    kill: (signal) => child.kill(signal),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function listeningUrl(child: ChildProcess, logs: string[], stderr: () => string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const line of logs) {
      const entry = JSON.parse(line) as { msg?: string; message?: string; url?: string };
      if ((entry.msg ?? entry.message) === 'listening' && entry.url) return entry.url;
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`the instance did not start:\n${stderr()}\n${logs.join('\n')}`);
}
