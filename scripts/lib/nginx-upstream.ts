// A throwaway nginx load balancer (round robin over an upstream of service instances), as the README's "Running several instances" sets it up: for tests and the benchmark.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.ts';

export interface NginxUpstream {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** nginx's error log so far, for failure messages. */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground with a temporary prefix folder, proxying every path round robin
 * to 127.0.0.1:`ports`, retrying a request on the next instance when one refuses the connection
 * or fails before answering (GET and HEAD only: the API's methods), with X-Forwarded-For set to the
 * client's address. Resolves once it answers.
 *
 * @example const nginx = await startNginxUpstream(findExecutable('nginx', process.env, ['/usr/sbin'])!, [portA, portB]);
 */
export async function startNginxUpstream(binary: string, ports: readonly number[]): Promise<NginxUpstream> {
  const dir = await mkdtemp(join(tmpdir(), 'church-api-nginx-upstream-'));
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
      // A burst of 200 clients needs 200 connections in and up to 200 out.
      'events { worker_connections 1024; }',
      'http {',
      '    access_log off;',
      `    client_body_temp_path ${join(dir, 'body')};`,
      `    proxy_temp_path ${join(dir, 'proxy')};`,
      `    fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `    uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `    scgi_temp_path ${join(dir, 'scgi')};`,
      '    upstream church_api {',
      ...ports.map((upstream) => `        server 127.0.0.1:${upstream} max_fails=1 fail_timeout=30s;`),
      '    }',
      '    server {',
      `        listen 127.0.0.1:${port};`,
      '        location / {',
      '            proxy_pass http://church_api;',
      '            proxy_http_version 1.1;',
      '            proxy_set_header Connection "";',
      '            proxy_set_header Host $host;',
      '            proxy_set_header X-Forwarded-For $remote_addr;',
      '            proxy_next_upstream error timeout http_502;',
      '            proxy_connect_timeout 2s;',
      '        }',
      '    }',
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
    await waitUntilAnswering(url, child);
  } catch (error) {
    await stop();
    throw new Error(`nginx did not start: ${stderr}`, { cause: error });
  }
  return { url, errors: async () => stderr + (await readFile(join(dir, 'logs/error.log'), 'utf8').catch(() => '')), stop };
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(`${url}/docs`);
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
