// A throwaway nginx load balancer (round robin over an upstream of service instances), as docs/several-instances.md sets it up: for tests and the benchmark.
import { type NginxProcess, startNginxProcess } from './nginx.ts';

export type NginxUpstream = NginxProcess;

export interface NginxUpstreamOptions {
  /**
   * Requests a client's connection may carry before nginx closes it (`keepalive_requests`; nginx's
   * default, 1,000, when unset, as docs/several-instances.md leaves it). The benchmark raises it
   * (scripts/bench/closed-loop.ts NGINX_KEEPALIVE_REQUESTS).
   */
  clientKeepaliveRequests?: number;
}

/**
 * Starts nginx in the foreground with a temporary prefix folder, proxying every path round robin
 * to 127.0.0.1:`ports` over kept-alive connections, retrying a request on the next instance when one refuses the connection
 * or fails before answering (GET and HEAD only: the API's methods), with X-Forwarded-For set to the
 * client's address. Resolves once it answers.
 *
 * @example const nginx = await startNginxUpstream(findExecutable('nginx', process.env, ['/usr/sbin'])!, [portA, portB]);
 */
export function startNginxUpstream(binary: string, ports: readonly number[], options: NginxUpstreamOptions = {}): Promise<NginxUpstream> {
  return startNginxProcess(binary, {
    name: 'church-api-nginx-upstream',
    readyPath: '/docs',
    // A burst of 200 clients needs 200 connections in and up to 200 out.
    connections: 1024,
    http: (port) => [
      'upstream church_api {',
      ...ports.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=30s;`),
      // Connections to the instances kept open between requests, as docs/several-instances.md has it: without
      // this, nginx opens a new one per request and each instance pays a TCP accept for every answer.
      '    keepalive 32;',
      '}',
      'server {',
      `    listen 127.0.0.1:${port};`,
      ...(options.clientKeepaliveRequests === undefined ? [] : [`    keepalive_requests ${options.clientKeepaliveRequests};`]),
      '    location / {',
      '        proxy_pass http://church_api;',
      '        proxy_http_version 1.1;',
      '        proxy_set_header Connection "";',
      '        proxy_set_header Host $host;',
      '        proxy_set_header X-Forwarded-For $remote_addr;',
      '        proxy_next_upstream error timeout http_502;',
      '        proxy_connect_timeout 2s;',
      '    }',
      '}',
    ],
  });
}
