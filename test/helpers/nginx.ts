// Test helper: a throwaway nginx (requirement('nginx') finds the binary) serving a public folder with the generated Bible rules.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX_MAPS_PATH } from '../../build/writers/host-rewrites.ts';
import { freePort } from './redis-server.ts';

export interface NginxTestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** nginx's error log so far, for failure messages. */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx in the foreground with a temporary prefix folder: a server whose root is
 * `publicDir`, including the generated `nginx-bible-maps.conf` and `nginx-bible.conf` as the
 * README says, and `upstream bible_api` on 127.0.0.1:`upstreamPort` (the service, or nothing).
 * Resolves once it answers /api/v1/bible/versions.
 */
export async function startNginx(binary: string, publicDir: string, upstreamPort: number): Promise<NginxTestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'bible-nginx-'));
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
      'events { worker_connections 64; }',
      'http {',
      `    access_log ${join(dir, 'logs/access.log')};`,
      `    client_body_temp_path ${join(dir, 'body')};`,
      `    proxy_temp_path ${join(dir, 'proxy')};`,
      `    fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `    uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `    scgi_temp_path ${join(dir, 'scgi')};`,
      `    upstream bible_api { server 127.0.0.1:${upstreamPort}; }`,
      `    include ${join(publicDir, NGINX_MAPS_PATH)};`,
      '    server {',
      // Every loopback address, so that tests can be two clients (127.0.0.2, 127.0.0.3).
      `        listen ${port};`,
      `        root ${publicDir};`,
      `        include ${join(publicDir, 'nginx-bible.conf')};`,
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
    await waitUntilListening(url, child);
  } catch (error) {
    await stop();
    throw new Error(`nginx did not start: ${stderr}`, { cause: error });
  }
  return { url, port, errors: () => stderr, stop };
}

async function waitUntilListening(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(`${url}/api/v1/bible/versions`);
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
