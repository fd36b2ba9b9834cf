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
}

interface Connection {
  socket: net.Socket;
  /** The request it is answering. */
  done?: (outcome: Outcome) => void;
  /** Bytes of the answer so far. */
  chunks: Buffer[];
  received: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * node:http's client costs about as much CPU per request as the service answering it, on the same
 * two cores, so at 2,000 requests a second the sender would take a good part of the machine and its
 * own delays would be counted as the server's. This one reads only what the measurement needs: the
 * status, and where the answer ends (Content-Length or chunked).
 */
export function createRawClient(options: RawClientOptions): RawClient {
  const { host, port, timeoutMs, maxSockets = 512 } = options;
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
      idle.push(connection);
      next();
    }
  };

  /** Hands a waiting request to a free connection. */
  const next = (): void => {
    while (waiting.length > 0 && (idle.length > 0 || all.size < maxSockets)) {
      const [request, done] = waiting.shift()!;
      write(idle.pop() ?? open(), request, done);
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
function completeAnswer(bytes: Buffer): { status: number; close: boolean } | undefined {
  const headerEnd = bytes.indexOf(HEADER_END);
  if (headerEnd === -1) return undefined;
  const head = bytes.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const lines = head.split('\r\n');
  let length: number | undefined;
  let chunked = false;
  let close = false;
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
  }
  const bodyStart = headerEnd + HEADER_END.length;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return { status, close };
  if (chunked) return chunkedEnd(bytes, bodyStart) ? { status, close } : undefined;
  if (length !== undefined) return bytes.length >= bodyStart + length ? { status, close } : undefined;
  // Neither: the body runs to the end of the connection, which the close event reports.
  return undefined;
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
