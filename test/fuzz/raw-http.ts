// Test helper: one request as raw bytes over a TCP socket, and the response parsed by hand, so nothing is normalised on the way.
import net from 'node:net';
import zlib from 'node:zlib';

export interface RawExchange {
  /** Undefined when the server closed the connection without an answer. */
  status?: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** The body, chunked transfer and Content-Encoding undone. */
  body: Buffer;
}

/**
 * Writes `request` to the server at `port` on loopback and reads until the server closes (the
 * request should say `Connection: close`); rejects when it has not after `timeoutMs`.
 *
 * @example const { status } = await sendRaw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
 */
export function sendRaw(port: number, request: Buffer | string, timeoutMs = 10_000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timedOut = false;
    socket.setTimeout(timeoutMs, () => {
      timedOut = true;
      socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server may reset a connection it refuses: what arrived before still counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (timedOut) reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(String(request).slice(0, 120))}`));
      else {
        try {
          resolve(parseResponse(Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      }
    });
    // Not end(): a client that half-closes its side makes Node abort the request before an
    // asynchronous handler answers; real clients keep the socket open until the answer.
    socket.write(request);
  });
}

function parseResponse(bytes: Buffer): RawExchange {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return { headers: {}, body: Buffer.alloc(0) };
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(headEnd + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = unchunk(body);
  // HEAD and 304 announce an encoding without a body to decode.
  if (body.length > 0 && headers['content-encoding'] === 'br') body = zlib.brotliDecompressSync(body);
  else if (body.length > 0 && headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
  return { status: status === undefined ? undefined : Number(status), headers, body };
}

function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
