// JSON responses with a strong ETag, Cache-Control, 304 on a matching If-None-Match, and HEAD without a body.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';

export interface SendJsonOptions {
  /** The Cache-Control header value: one of the constants of build/contract/http-policy.ts. */
  cacheControl: string;
  /** Extra headers set on both the 200 and the 304. */
  headers?: Record<string, string>;
  /** Status of a fresh response; 200 by default. */
  status?: number;
}

/** A JSON body serialised once, with its entity tag: what sendPreparedJson answers with, again and again if kept. */
export interface PreparedJson {
  /** Kept a string, not a Buffer: Node writes the headers and a string body in one write, a Buffer body in a second (writev). */
  json: string;
  /** Strong ETag of the UTF-8 bytes of `json`. */
  etag: string;
  /** Content-Length: the UTF-8 bytes of `json`. */
  length: string;
}

/**
 * Serialises `body` once, tags it with a strong ETag (quoted base64url SHA-256 of its UTF-8 bytes),
 * and answers 304 without a body when the request's If-None-Match matches.
 *
 * @example sendJson(req, res, profile, { cacheControl: CHURCH_CACHE_CONTROL })
 */
export function sendJson(req: Request, res: Response, body: unknown, options: SendJsonOptions): void {
  sendPreparedJson(req, res, prepareJson(body), options);
}

/** The body serialised and tagged, for sendPreparedJson: to be kept when the same body is sent again. */
export function prepareJson(body: unknown): PreparedJson {
  const json = JSON.stringify(body);
  return { json, etag: strongEtag(json), length: String(Buffer.byteLength(json, 'utf8')) };
}

/** sendJson with a body already serialised and tagged (prepareJson). */
export function sendPreparedJson(req: Request, res: Response, prepared: PreparedJson, options: SendJsonOptions): void {
  res.setHeader('Cache-Control', options.cacheControl);
  res.setHeader('ETag', prepared.etag);
  for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);

  if (ifNoneMatchMatches(req.get('if-none-match'), prepared.etag)) {
    res.status(304).end();
    return;
  }
  res.status(options.status ?? 200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', prepared.length);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(prepared.json, 'utf8');
}

/**
 * As sendJson, for handlers that run before Express (src/bible/fast-path.ts), on Node's own request
 * and response: `json` already serialised, the `leading` headers first (request id, CORS, rate
 * limit), then the same headers sendJson sets, all in one writeHead.
 */
export function writeJson(req: IncomingMessage, res: ServerResponse, json: string, cacheControl: string, leading: readonly string[]): void {
  writePreparedJson(req, res, { json, etag: strongEtag(json), length: String(Buffer.byteLength(json, 'utf8')) }, cacheControl, leading);
}

/** writeJson with a body already serialised and tagged (prepareJson), as sendPreparedJson beside sendJson (src/church/fast-path.ts). */
export function writePreparedJson(
  req: IncomingMessage,
  res: ServerResponse,
  prepared: PreparedJson,
  cacheControl: string,
  leading: readonly string[],
): void {
  if (ifNoneMatchMatches(req.headers['if-none-match'], prepared.etag)) {
    res.writeHead(304, [...leading, 'Cache-Control', cacheControl, 'ETag', prepared.etag]);
    res.end();
    return;
  }
  res.writeHead(200, [
    ...leading,
    'Cache-Control',
    cacheControl,
    'ETag',
    prepared.etag,
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    prepared.length,
  ]);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(prepared.json, 'utf8');
}

/** The strong entity tag of a byte sequence: `"<base64url sha256>"`. */
export function strongEtag(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/**
 * True when an If-None-Match header value matches `tag`. Per RFC 9110 §13.1.2 the comparison is
 * weak: `W/"x"` matches `"x"`; `*` matches any current representation.
 */
export function ifNoneMatchMatches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  return header
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === opaque);
}
