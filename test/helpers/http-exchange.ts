// Test helper: one HTTP request over node:http as sent, its answer's status, headers and raw bytes (no transparent decompression).
import { createHash } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';

export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface ExchangeOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The client's local address (another loopback address, for a second client address). */
  localAddress?: string;
}

/**
 * Sends one request on a connection of its own (`Connection: close`) and resolves with the raw answer.
 *
 * @example const { status, headers, body } = await exchange(`${server.url}/api/v1/bible/John/3?lang=en`, { headers: { 'accept-encoding': 'br' } });
 */
export function exchange(url: string, { method = 'GET', headers = {}, localAddress }: ExchangeOptions = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { connection: 'close', ...headers }, localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * The headers of an answer without what differs between any two answers to the same request (the
 * date, the connection's own, a fresh request id) or with the count (the remaining budget, the
 * seconds left): for comparing the answers of two servers of the same app.
 */
export function comparableHeaders(headers: Exchange['headers']): Exchange['headers'] {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  const ratelimit = rest.ratelimit;
  if (typeof ratelimit === 'string') rest.ratelimit = ratelimit.replace(/r=\d+; t=\d+/, 'r=_; t=_');
  if (rest['retry-after'] !== undefined) rest['retry-after'] = '_';
  // A new UUID each time, unless the client sent a sane X-Request-Id.
  if (typeof rest['x-request-id'] === 'string')
    rest['x-request-id'] = rest['x-request-id'].replace(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'uuid');
  return rest;
}

/** An answer as a snapshot keeps it: what a client sees of it, whatever is not the same from one run to the next left out. */
export interface RecordedAnswer {
  status: number;
  headers: Exchange['headers'];
  /** The body as text, decoded when it was sent compressed; a long one by its length and SHA-256. */
  body: string;
}

/** Bodies up to this length are kept as text in a snapshot; longer ones by their length and hash. */
const RECORDED_TEXT_MAX = 2_000;

/**
 * The answer as comparableHeaders compares it, without the RateLimit-Policy partition key (it
 * derives from a key made at random) and, when the body is compressed, without its length (the
 * bytes depend on the zlib version, so the body is kept decoded; its length is checked here).
 */
export function recordedAnswer(answer: Exchange): RecordedAnswer {
  const headers = comparableHeaders(answer.headers);
  if (typeof headers['ratelimit-policy'] === 'string')
    headers['ratelimit-policy'] = headers['ratelimit-policy'].replace(/pk=:[^:]*:/, 'pk=:_:');
  let body = answer.body;
  const coding = headers['content-encoding'];
  if (coding !== undefined) {
    if (Number(headers['content-length']) !== body.length)
      throw new Error(`Content-Length ${headers['content-length']} of ${body.length} bytes`);
    headers['content-length'] = '_';
    if (body.length > 0) body = coding === 'br' ? zlib.brotliDecompressSync(body) : zlib.gunzipSync(body);
  }
  const text = body.toString('utf8');
  return {
    status: answer.status,
    headers,
    body: text.length <= RECORDED_TEXT_MAX ? text : `${body.length} bytes, sha256 ${createHash('sha256').update(body).digest('base64url')}`,
  };
}

/**
 * The remaining budget an answer's RateLimit header gives (its `r=`). Throws when the header is
 * missing or has no count: a missing header must fail a test, not compare as NaN.
 *
 * @example expect(remainingBudget(second)).toBe(remainingBudget(first) - 1);
 */
export function remainingBudget(answer: Pick<Exchange, 'headers'>): number {
  const header = answer.headers.ratelimit;
  const count = typeof header === 'string' ? /(?:^|[;,]\s*)r=(\d+)/.exec(header)?.[1] : undefined;
  if (count === undefined) throw new Error(`no remaining count in the RateLimit header (${String(header)})`);
  return Number(count);
}
