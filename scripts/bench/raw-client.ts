// A lean HTTP/1.1 client (GET, and POST with a body) over keep-alive sockets for the open-loop sender: requests written as bytes, answers read by length, no per-request objects of node:http.
import net from 'node:net';

/**
 * How one request ended: an answer with its status, or a failure with a code: TIMEOUT (its connection
 * silent too long), CLOSED (the server closed the connection before the whole answer came),
 * ABANDONED (given up by the caller: abandon()), or the socket's own error (ECONNRESET, ...).
 */
export type Outcome = { status: number } | { code: string };

/** A request other than a GET of a path: a POST with its body (sent with the client's headers, which give its Content-Type). */
export interface RawRequest {
  method: 'POST';
  path: string;
  body: string;
}

export interface RawClient {
  /**
   * Sends `GET path` on an idle connection (or a new one, up to the cap; past it the request
   * waits for a free one) and calls `done` once, when the whole answer has arrived or the request failed.
   */
  get(path: string, done: (outcome: Outcome) => void): void;
  /** As get, for a POST with a body. */
  send(request: RawRequest, done: (outcome: Outcome) => void): void;
  /** Fails every request still waiting or unanswered with `code`. */
  abandon(code: string): void;
  /** Closes every connection. */
  close(): void;
}

export interface RawClientOptions {
  host: string;
  port: number;
  headers: Record<string, string>;
  /** Connections at most (default 512). */
  maxSockets?: number;
  /** A connection silent this long while a request waits on it fails that request with TIMEOUT. */
  timeoutMs: number;
  /** The clock idle connections are timed with, in ms (default performance.now; a test gives its own). */
  now?: () => number;
}

interface Connection {
  socket: net.Socket;
  /** The request it is answering. */
  done?: (outcome: Outcome) => void;
  /** Bytes of the answer so far. */
  chunks: Buffer[];
  received: number;
  /**
   * While idle: until when it may carry another request. The server closes a connection idle for the
   * time its answers' `Keep-Alive: timeout=N` says (Node: keepAliveTimeout); a request written as it
   * does is lost (CLOSED) though the server failed nothing. Like undici, the client stops reusing a
   * connection a margin before that (KEEP_ALIVE_MARGIN_MS), and closes it itself.
   */
  reusableUntil?: number;
}

/** How long before the server's keep-alive timeout an idle connection stops being reused (undici subtracts its keepAliveTimeoutThreshold the same way: 1 or 2 s by version). */
const KEEP_ALIVE_MARGIN_MS = 1_000;

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * node:http's client costs about as much CPU per request as the service answering it, on the same
 * two cores, so at 2,000 requests a second the sender would take a good part of the machine and its
 * own delays would be counted as the server's. This one reads only what the measurement needs: the
 * status, and where the answer ends (Content-Length or chunked).
 */
export function createRawClient(options: RawClientOptions): RawClient {
  const { host, port, timeoutMs, maxSockets = 512, now = () => performance.now() } = options;
  const extraHeaders = Object.entries(options.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  const waiting: [string | RawRequest, (outcome: Outcome) => void][] = [];

  const settle = (connection: Connection, outcome: Outcome): void => {
    const done = connection.done;
    connection.done = undefined;
    connection.chunks = [];
    connection.received = 0;
    done?.(outcome);
  };

  const open = (): Connection => {
    const socket = net.connect({ host, port, noDelay: true });
    const connection: Connection = { socket, chunks: [], received: 0 };
    all.add(connection);
    socket.setTimeout(timeoutMs, () => socket.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    socket.on('data', (chunk: Buffer) => onData(connection, chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => settle(connection, { code: error.code ?? 'ERROR' }));
    socket.on('close', () => {
      all.delete(connection);
      const at = idle.indexOf(connection);
      if (at !== -1) idle.splice(at, 1);
      settle(connection, { code: 'CLOSED' });
      next();
    });
    return connection;
  };

  const onData = (connection: Connection, chunk: Buffer): void => {
    if (!connection.done) return;
    connection.chunks.push(chunk);
    connection.received += chunk.length;
    const bytes = connection.chunks.length === 1 ? chunk : Buffer.concat(connection.chunks);
    connection.chunks = [bytes];
    const answer = completeAnswer(bytes);
    if (!answer) return;
    settle(connection, { status: answer.status });
    if (answer.close) connection.socket.destroy();
    else {
      connection.reusableUntil = answer.keepAliveS === undefined ? undefined : now() + answer.keepAliveS * 1000 - KEEP_ALIVE_MARGIN_MS;
      idle.push(connection);
      next();
    }
  };

  /** The most recently freed idle connection still safe to reuse; those past it are closed. */
  const reusableIdle = (): Connection | undefined => {
    for (let connection = idle.pop(); connection; connection = idle.pop()) {
      if (connection.reusableUntil === undefined || now() < connection.reusableUntil) return connection;
      all.delete(connection);
      connection.socket.destroy();
    }
    return undefined;
  };

  /** Hands a waiting request to a free connection. */
  const next = (): void => {
    while (waiting.length > 0 && (idle.length > 0 || all.size < maxSockets)) {
      const [request, done] = waiting.shift()!;
      write(reusableIdle() ?? open(), request, done);
    }
  };

  const write = (connection: Connection, request: string | RawRequest, done: (outcome: Outcome) => void): void => {
    connection.done = done;
    if (typeof request === 'string') {
      connection.socket.write(`GET ${request} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extraHeaders}\r\n`, 'latin1');
      return;
    }
    const body = Buffer.from(request.body, 'utf8');
    const head = `${request.method} ${request.path} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extraHeaders}Content-Length: ${body.length}\r\n\r\n`;
    connection.socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  };

  return {
    get(path, done) {
      waiting.push([path, done]);
      next();
    },
    send(request, done) {
      waiting.push([request, done]);
      next();
    },
    abandon(code) {
      for (const [, done] of waiting.splice(0)) done({ code });
      for (const connection of all) {
        if (!connection.done) continue;
        settle(connection, { code });
        connection.socket.destroy();
      }
    },
    close() {
      waiting.length = 0;
      for (const connection of all) connection.socket.destroy();
    },
  };
}

/** The answer in `bytes` when it is whole: its status and whether the server closes the connection after it. */
function completeAnswer(bytes: Buffer): { status: number; close: boolean; keepAliveS?: number } | undefined {
  const headerEnd = bytes.indexOf(HEADER_END);
  if (headerEnd === -1) return undefined;
  const head = bytes.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const lines = head.split('\r\n');
  let length: number | undefined;
  let chunked = false;
  let close = false;
  let keepAliveS: number | undefined;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.includes('chunked');
    else if (name === 'connection') close = value === 'close';
    else if (name === 'keep-alive') keepAliveS = keepAliveTimeout(value);
  }
  const bodyStart = headerEnd + HEADER_END.length;
  const answer = { status, close, keepAliveS };
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return answer;
  if (chunked) return chunkedEnd(bytes, bodyStart) ? answer : undefined;
  if (length !== undefined) return bytes.length >= bodyStart + length ? answer : undefined;
  // Neither: the body runs to the end of the connection, which the close event reports.
  return undefined;
}

/** The seconds of a Keep-Alive header's `timeout=N` (`timeout=5, max=100`), if it has one. */
function keepAliveTimeout(value: string): number | undefined {
  const match = /(?:^|[\s,])timeout=(\d+)/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** Whether a chunked body starting at `start` has reached its last chunk and the blank line after it. */
function chunkedEnd(bytes: Buffer, start: number): boolean {
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return false;
    const size = Number.parseInt(bytes.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) return false;
    // The last chunk, then trailers if any, then a blank line.
    if (size === 0) return bytes.indexOf(HEADER_END, lineEnd) !== -1;
    at = lineEnd + 2 + size + 2;
    if (at > bytes.length) return false;
  }
}
