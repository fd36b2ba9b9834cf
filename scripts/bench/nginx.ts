// The ceiling for static files: nginx serving the built tree with the build's generated configuration, installed when missing.
import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NGINX_MAPS_PATH } from '../../build/writers/host-rewrites.ts';
import { NGINX_KEEPALIVE_REQUESTS } from './closed-loop.ts';
import { freePort, type RunningServer, startServer } from './processes.ts';

/** nginx, or why it could not be had. */
export type NginxAvailability = { path: string } | { skipped: string };

/** The server block's include that the build writes beside the maps (build/writers/host-rewrites.ts). */
const NGINX_SERVER_PATH = 'nginx-bible.conf';

/** Where Debian puts nginx; `command -v` finds others. */
const KNOWN_PATHS = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'];

/**
 * nginx's path; when it is missing and the run is root, `apt-get install nginx-light` first;
 * otherwise the reason the figures that need it are skipped.
 */
export async function findOrInstallNginx(log: (line: string) => void): Promise<NginxAvailability> {
  const found = await findNginx();
  if (found) return { path: found };
  if (process.getuid?.() !== 0) return { skipped: 'nginx is not installed and this run is not root (apt-get install nginx-light)' };
  log('nginx is missing: apt-get install nginx-light');
  try {
    await promisify(execFile)('apt-get', ['install', '-y', '--no-install-recommends', 'nginx-light'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    return { skipped: `apt-get install nginx-light failed: ${(error as Error).message.split('\n')[0]}` };
  }
  const installed = await findNginx();
  return installed ? { path: installed } : { skipped: 'nginx-light installed but no nginx binary found' };
}

/**
 * nginx in the foreground with one worker process (as the service is one process), serving
 * `publicDir` with the generated maps and server block, ranges and search proxied to `upstream`,
 * and an access log written to a file as the service writes its own.
 */
export async function startNginx(nginxPath: string, publicDir: string, upstreamUrl: string, workDir: string): Promise<RunningServer> {
  await mkdir(join(workDir, 'logs'), { recursive: true });
  const port = await freePort();
  const config = join(workDir, 'nginx.conf');
  await writeFile(config, nginxConfig({ port, publicDir, upstream: new URL(upstreamUrl).host, workDir }));
  return startServer({
    name: 'nginx',
    command: nginxPath,
    args: ['-p', workDir, '-c', config, '-e', join(workDir, 'logs/error.log')],
    port,
    readyPath: '/api/v1/bible/versions',
    stdoutFile: join(workDir, 'nginx.out'),
    stderrFile: join(workDir, 'nginx.err'),
  });
}

/**
 * The nginx.conf of a run: Debian's defaults for static files (sendfile, tcp_nopush) around the
 * build's includes, with no kept-alive connection closed mid-run (NGINX_KEEPALIVE_REQUESTS).
 */
export function nginxConfig(options: { port: number; publicDir: string; upstream: string; workDir: string }): string {
  const { port, publicDir, upstream, workDir } = options;
  return [
    'daemon off;',
    'master_process off;',
    'worker_processes 1;',
    `pid ${join(workDir, 'nginx.pid')};`,
    `error_log ${join(workDir, 'logs/error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '    sendfile on;',
    '    tcp_nopush on;',
    `    keepalive_requests ${NGINX_KEEPALIVE_REQUESTS};`,
    `    access_log ${join(workDir, 'logs/access.log')};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${join(workDir, kind)};`),
    `    upstream bible_api { server ${upstream}; }`,
    `    include ${join(publicDir, NGINX_MAPS_PATH)};`,
    '    server {',
    `        listen 127.0.0.1:${port};`,
    `        root ${publicDir};`,
    `        include ${join(publicDir, NGINX_SERVER_PATH)};`,
    '    }',
    '}',
    '',
  ].join('\n');
}

async function findNginx(): Promise<string | undefined> {
  for (const candidate of KNOWN_PATHS) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  const which = await promisify(execFile)('sh', ['-c', 'command -v nginx']).catch(() => undefined);
  return which?.stdout.trim() || undefined;
}
