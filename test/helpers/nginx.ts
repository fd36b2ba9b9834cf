// Test helper: a throwaway nginx (requirement('nginx') finds the binary) serving a public folder with the generated Bible rules.
import { join } from 'node:path';
import { NGINX_MAPS_PATH } from '../../build/writers/host-rewrites.ts';
import { type NginxProcess, startNginxProcess } from '../../scripts/lib/nginx.ts';

export type NginxTestServer = NginxProcess;

/**
 * Starts nginx in the foreground with a temporary prefix folder: a server whose root is
 * `publicDir`, including the generated `nginx-bible-maps.conf` and `nginx-bible.conf` as the
 * docs/static-hosts.md says, and `upstream bible_api` on 127.0.0.1:`upstreamPort` (the service, or nothing).
 * Resolves once it answers /api/v1/bible/versions.
 */
export function startNginx(binary: string, publicDir: string, upstreamPort: number): Promise<NginxTestServer> {
  return startNginxProcess(binary, {
    name: 'bible-nginx',
    readyPath: '/api/v1/bible/versions',
    accessLog: true,
    http: (port) => [
      `upstream bible_api { server 127.0.0.1:${upstreamPort}; }`,
      `include ${join(publicDir, NGINX_MAPS_PATH)};`,
      'server {',
      // Every loopback address, so that tests can be two clients (127.0.0.2, 127.0.0.3).
      `    listen ${port};`,
      `    root ${publicDir};`,
      `    include ${join(publicDir, 'nginx-bible.conf')};`,
      '}',
    ],
  });
}
