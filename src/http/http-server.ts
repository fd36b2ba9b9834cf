// The HTTP server around the app, with explicit connection limits: a cap below the file-descriptor limit, and timeouts that close idle and slow sockets.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { PROBLEM_CONTENT_TYPE, PROBLEM_HEADERS } from '../../build/contract/http-policy.ts';
import { problemBody, problems } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from './logger.ts';

export type ServerSettings = Pick<
  Config,
  'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'publicBaseUrl'
>;

/**
 * An http.Server for `app` (not yet listening). Without these limits, idle sockets (20,000 in the
 * fault test) exhaust the process's file descriptors and every other client is refused:
 * - maxConnections: sockets past the cap are closed on arrival, so descriptors remain for files and SQLite;
 * - headersTimeout / requestTimeout: a socket that sends nothing or dribbles its request (slowloris) is
 *   closed, checked every connectionsCheckingInterval, so a held slot comes free within a second or so;
 * - keepAliveTimeout: an idle keep-alive connection is closed.
 */
export function createHttpServer(app: Express, limits: ServerSettings, logger?: Logger): http.Server {
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
  // Node hands CONNECT to this event, never to the app, and closes the socket when nobody listens.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    logger?.info({ method: req.method, status: 405 }, 'request');
    refuseConnect(socket, limits.publicBaseUrl);
  });
  return server;
}

/** Answers CONNECT like any other method the read-only API does not allow: a 405 problem with Allow, then closes. */
function refuseConnect(socket: Duplex, publicBaseUrl: string): void {
  const problem = problems.methodNotAllowed('CONNECT');
  const body = JSON.stringify(problemBody(problem, publicBaseUrl));
  const headers = {
    ...PROBLEM_HEADERS,
    ...problem.headers,
    'Content-Type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${head.join('')}\r\n${body}`);
}
