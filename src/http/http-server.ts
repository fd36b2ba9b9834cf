// The HTTP server around the composition root's request listener, with explicit connection limits: a cap below the file-descriptor limit, and timeouts that close idle and slow sockets.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { type Problem, problems } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import { problemHead } from './errors.ts';
import type { Logger } from './logger.ts';

export type ServerSettings = Pick<
  Config,
  'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'publicBaseUrl'
>;

/**
 * An http.Server for `listener` (not yet listening: the composition root's, src/app.ts). Without these limits, idle sockets (20,000 in the
 * fault test) exhaust the process's file descriptors and every other client is refused:
 * - maxConnections: sockets past the cap are closed on arrival, so descriptors remain for files and SQLite;
 * - headersTimeout / requestTimeout: a socket that sends nothing or dribbles its request (slowloris) is
 *   closed, checked every connectionsCheckingInterval, so a held slot comes free within a second or so;
 * - keepAliveTimeout: an idle keep-alive connection is closed.
 */
export function createHttpServer(listener: http.RequestListener, limits: ServerSettings, logger?: Logger): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node's default is 30 s: a slow socket would hold its slot that long past its timeout.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  // Node hands CONNECT to this event, never to the app, and closes the socket when nobody listens.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    logger?.info({ method: req.method, status: 405 }, 'request');
    writeProblem(socket, 405, 'Method Not Allowed', problems.methodNotAllowed('CONNECT'), limits.publicBaseUrl);
  });
  // A request Node's parser refuses (bad bytes, method token, header or version) never reaches the app;
  // Node would answer a bare 400 without a body. Every error of this API is a problem body, these too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Bytes after a request on a connection that already had an answer (trailing garbage on a closing
    // connection): another response must not be appended to the one written, so the socket is just closed.
    const answered = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
    if (error.code === 'ECONNRESET' || !socket.writable || answered > 0) {
      socket.destroy();
      return;
    }
    const [status, reason] = clientErrorStatus(error.code);
    const detail = status === 400 ? 'The request could not be parsed as HTTP/1.1; check the request line and headers.' : `${reason}.`;
    writeProblem(socket, status, reason, problems.malformedRequest(status, detail), limits.publicBaseUrl);
  });
  return server;
}

/** The status Node itself would give a request its parser refused. */
function clientErrorStatus(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout'];
  return [400, 'Bad Request'];
}

/** Writes a problem response straight to a socket the app never saw (CONNECT, unparsable requests), then closes it. */
function writeProblem(socket: Duplex, status: number, reason: string, problem: Problem, publicBaseUrl: string): void {
  const { headers, body } = problemHead(problem, publicBaseUrl);
  headers.push('Connection', 'close');
  const head: string[] = [];
  for (let i = 0; i < headers.length; i += 2) head.push(`${headers[i]}: ${headers[i + 1]}\r\n`);
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head.join('')}\r\n${body}`);
}
