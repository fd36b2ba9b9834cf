// The HTTP server around the app, with explicit connection limits: a cap below the file-descriptor limit, and timeouts that close idle and slow sockets.
import http from 'node:http';
import type { Express } from 'express';
import type { Config } from '../config.ts';

export type ServerLimits = Pick<Config, 'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>;

/**
 * An http.Server for `app` (not yet listening). Without these limits, idle sockets (20,000 in the
 * fault test) exhaust the process's file descriptors and every other client is refused:
 * - maxConnections: sockets past the cap are closed on arrival, so descriptors remain for files and SQLite;
 * - headersTimeout / requestTimeout: a socket that sends nothing or dribbles its request (slowloris) is
 *   closed, checked every connectionsCheckingInterval, so a held slot comes free within a second or so;
 * - keepAliveTimeout: an idle keep-alive connection is closed.
 */
export function createHttpServer(app: Express, limits: ServerLimits): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node's default is 30 s: a slow socket would hold its slot that long past its timeout.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    app,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
