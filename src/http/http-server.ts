// The HTTP server around the app, with explicit connection limits: a cap below the file-descriptor limit, and timeouts that close idle and slow sockets.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { PROBLEM_CONTENT_TYPE, PROBLEM_HEADERS } from '../../build/contract/http-policy.ts';
import { type Problem, problemBody, problems } from '../../build/contract/problems.ts';
import type { Config } from '../config.ts';
import type { Logger } from './logger.ts';

/**
 * A handler the server runs before the app (src/bible/fast-path.ts, src/church/fast-path.ts): true when it took the request
 * (and answers it), false to hand it to the app untouched.
 */
export type FrontHandler = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

/** The front handler of each app, put there by the composition root (putInFront). */
const frontHandlers = new WeakMap<Express, FrontHandler>();

/**
 * Makes every server createHttpServer builds for `app` try `fronts` first, in order: requests one
 * takes never meet Express's per-request work. Called by the composition root (src/app.ts), which makes them all.
 */
export function putInFront(app: Express, ...fronts: FrontHandler[]): void {
  frontHandlers.set(app, (req, res) => fronts.some((front) => front(req, res)));
}

export type ServerSettings = Pick<
  Config,
  'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'publicBaseUrl'
>;

/**
 * An http.Server for `app` (not yet listening), behind its front handler when it has one. Without these limits, idle sockets (20,000 in the
 * fault test) exhaust the process's file descriptors and every other client is refused:
 * - maxConnections: sockets past the cap are closed on arrival, so descriptors remain for files and SQLite;
 * - headersTimeout / requestTimeout: a socket that sends nothing or dribbles its request (slowloris) is
 *   closed, checked every connectionsCheckingInterval, so a held slot comes free within a second or so;
 * - keepAliveTimeout: an idle keep-alive connection is closed.
 */
export function createHttpServer(app: Express, limits: ServerSettings, logger?: Logger): http.Server {
  const front = frontHandlers.get(app);
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node's default is 30 s: a slow socket would hold its slot that long past its timeout.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    front
      ? (req, res) => {
          if (!front(req, res)) app(req, res);
        }
      : app,
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
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head.join('')}\r\n${body}`);
}
