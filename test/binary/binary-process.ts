// Test helper: runs the single binary as an operator would, a server that logs JSON lines or a command that prints and ends.
import { type ChildProcess, spawn } from 'node:child_process';

export interface BinaryServer {
  /** The address from the server's own "listening" log line (it listens on PORT 0). */
  url: string;
  child: ChildProcess;
  /** stdout and stderr so far, for failure messages. */
  output(): string;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface BinaryRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `binary` (no arguments: serve) in `cwd` with exactly `env`, and resolves once it logs
 * the address it listens at; rejects if it ends first or takes longer than `timeoutMs`.
 *
 * @example const server = await startBinaryServer(binary, dir, { PORT: '0' }); await fetch(`${server.url}/`);
 */
export function startBinaryServer(binary: string, cwd: string, env: Record<string, string>, timeoutMs = 30_000): Promise<BinaryServer> {
  const child = spawn(binary, [], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the binary did not say where it listens within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk) => (output += String(chunk)));
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
      const url = listeningUrl(output);
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({
        url,
        child,
        output: () => output,
        stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return ended;
        },
      });
    });
    void ended.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the binary ended (code ${code}, signal ${signal}) before listening:\n${output}`));
    });
  });
}

/**
 * Runs `binary args…` in `cwd` with exactly `env` and collects what it prints.
 *
 * @example const { stdout } = await runBinary(binary, ['--version'], dir, {});
 */
export function runBinary(binary: string, args: string[], cwd: string, env: Record<string, string>): Promise<BinaryRun> {
  const child = spawn(binary, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The `url` of the first complete JSON log line that has one. */
function listeningUrl(output: string): string | undefined {
  for (const line of output.split('\n').slice(0, -1)) {
    if (!line.startsWith('{')) continue;
    const url = (JSON.parse(line) as { url?: unknown }).url;
    if (typeof url === 'string' && url.startsWith('http')) return url;
  }
  return undefined;
}
