// The one response writer: a JSON or other text body, a stored file or a file streamed from disk, with 304 on If-None-Match and HEAD without a body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { ifNoneMatchMatches } from './cache.ts';
import type { Body, CachePolicy } from './endpoint.ts';
import { closeDiskFile, negotiate } from './representations.ts';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A request's own Cache-Control asking for a fresh answer (as Express's `fresh` reads it). */
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

/**
 * Writes `body` as a 200, or a 304 when the request's If-None-Match matches its ETag: the
 * `leading` headers first (name, value, name, value…: request id, CORS, rate limit), then
 * Cache-Control of `cache`, then the body's own (ETag, type, length, and for a file Vary and its
 * encoding), in one writeHead. HEAD gets the same headers and no body. A file from disk is
 * streamed, and the promise settles when it is sent (a client that hangs up is no error).
 *
 * @example writeAnswer(req, res, prepareJson(body), ['X-Request-Id', id], { cacheControl: 'private, max-age=60', etag: true })
 */
export function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  body: Body,
  leading: readonly string[],
  cache: CachePolicy,
): void | Promise<void> {
  if (body.kind === 'streamed') return writeStreamed(req, res, body, leading, cache);
  const head = [...leading, 'Cache-Control', cache.cacheControl];
  if (body.kind === 'redirect') {
    // Cached as long as the resource it names: a name of a book does not change meaning within a build.
    res.writeHead(301, [...head, 'Location', body.location, 'Content-Length', '0']);
    res.end();
    return;
  }
  const ifNoneMatch = req.headers['if-none-match'];
  if (body.kind === 'stored') {
    const representation = negotiate(body, req.headers['accept-encoding']);
    if (ifNoneMatchMatches(ifNoneMatch, representation.etag)) return notModified(res, head.concat(representation.notModifiedHeaders));
    return send(req, res, head.concat(representation.okHeaders), representation.bytes);
  }
  if (cache.etag) {
    if (ifNoneMatchMatches(ifNoneMatch, body.etag)) return notModified(res, [...head, 'ETag', body.etag]);
    head.push('ETag', body.etag);
  } else if (ifNoneMatch?.trim() === '*' && !NO_CACHE.test(String(req.headers['cache-control'] ?? ''))) {
    // `*` matches any current representation, one without a tag too (RFC 9110 §13.1.2), unless the client asks afresh.
    return notModified(res, head);
  }
  if (body.kind === 'text') {
    head.push('Content-Type', body.contentType, 'Content-Length', body.length);
    return send(req, res, head, body.text);
  }
  head.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', body.length);
  send(req, res, head, body.json);
}

function notModified(res: ServerResponse, headers: string[]): void {
  res.writeHead(304, headers);
  res.end();
}

function send(req: IncomingMessage, res: ServerResponse, headers: string[], bytes: Buffer): void {
  // writeHead does not change the array.
  res.writeHead(200, headers);
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}

/** A file opened from disk, sent like one held in memory (same headers, 304, HEAD), its bytes streamed. */
async function writeStreamed(
  req: IncomingMessage,
  res: ServerResponse,
  file: Extract<Body, { kind: 'streamed' }>,
  leading: readonly string[],
  cache: CachePolicy,
): Promise<void> {
  const representation = negotiate(file, req.headers['accept-encoding']);
  const matched = ifNoneMatchMatches(req.headers['if-none-match'], representation.etag);
  const streamed = matched || req.method === 'HEAD' ? undefined : representation;
  await closeDiskFile(file, streamed);
  const head = [...leading, 'Cache-Control', cache.cacheControl, 'Vary', 'Accept-Encoding', 'ETag', representation.etag];
  if (matched) return notModified(res, head);
  head.push('Content-Type', JSON_CONTENT_TYPE);
  if (representation.coding !== 'identity') head.push('Content-Encoding', representation.coding);
  head.push('Content-Length', String(representation.size));
  res.writeHead(200, head);
  if (!streamed) {
    res.end();
    return;
  }
  try {
    // The stream closes the handle when it ends or fails.
    await pipeline(streamed.handle.createReadStream({ start: 0 }), res);
  } catch (error) {
    // A client that hangs up mid-download is no server error; anything else is.
    if (!res.writableFinished && res.destroyed) return;
    throw error;
  }
}
