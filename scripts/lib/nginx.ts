// A throwaway nginx in the foreground: a temporary prefix folder, a config from the caller's http-block lines, started, awaited, stopped (for tests and the benchmark).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.ts';

export interface NginxOptions {
  /** Prefix of the temporary folder's name. */
  name: string;
  /** The http block's own lines (upstreams, includes, servers), given the port nginx listens on. */
  http: (port: number) => string[];
  /** A path that answers (any status) once nginx serves. */
  readyPath: string;
  /** `worker_connections` (a burst of N clients through a proxy needs 2N). */
  connections?: number;
  /** Write an access log into the prefix folder (else none). */
  accessLog?: boolean;
}

export interface NginxProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The master process (its worker is its child): the benchmark reads the tree's CPU time. */
  pid: number;
  /** nginx's stderr and error log so far, for failure messages. */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Writes the config (one worker, no daemon, every temporary path inside the prefix folder) and starts
 * nginx on a free port; resolves once `readyPath` answers, rejects with nginx's stderr otherwise.
 *
 * @example const nginx = await startNginxProcess(binary, { name: 'lb', readyPath: '/docs', http: (port) => [`server { listen ${port}; }`] });
 */
export async function startNginxProcess(binary: string, options: NginxOptions): Promise<NginxProcess> {
  const dir = await mkdtemp(join(tmpdir(), `${options.name}-`));
  const port = await freePort();
  await mkdir(join(dir, 'logs'));
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'logs/error.log')} warn;`,
      `events { worker_connections ${options.connections ?? 64}; }`,
      'http {',
      options.accessLog ? `    access_log ${join(dir, 'logs/access.log')};` : '    access_log off;',
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `    ${kind === 'body' ? 'client_body' : kind}_temp_path ${join(dir, kind)};`,
      ),
      ...options.http(port).map((line) => `    ${line}`),
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs/error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(`${url}${options.readyPath}`, child);
  } catch (error) {
    await stop();
    throw new Error(`nginx did not start: ${stderr}`, { cause: error });
  }
  return {
    url,
    port,
    pid: child.pid!,
    errors: async () => stderr + (await readFile(join(dir, 'logs/error.log'), 'utf8').catch(() => '')),
    stop,
  };
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(child.exitCode === null ? 'no answer within 10 s' : `exited with ${child.exitCode}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
