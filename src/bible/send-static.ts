// Sending files of the static tree: from memory (versions, books, chapters) or streamed from disk (downloads, search indexes), in the best stored encoding.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { BIBLE_CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { ifNoneMatchMatches } from '../http/cache.ts';
import { closeDiskFile, type DiskFile, negotiate, type StoredFile } from '../http/representations.ts';

/** A file the stamp promises; its absence means a broken tree, not a client error. */
export function requireFile<F extends StoredFile | DiskFile>(file: F | undefined, relativePath: string): F {
  if (!file) throw new Error(`Bible tree lacks ${relativePath}`);
  return file;
}

/**
 * Sends a file of the tree as it is, in the best stored encoding the client accepts, or 304, with
 * the representation's headers made when the file was read. `leading` headers come first (the
 * fast path's request id and CORS headers, which the Express middleware sets on `res` instead).
 * Takes Node's request and response, so the Express routes and the fast path send the same bytes.
 */
export function sendStatic(req: IncomingMessage, res: ServerResponse, file: StoredFile, leading: readonly string[] = []): void {
  const representation = negotiate(file, req.headers['accept-encoding']);
  const head = [...leading, 'Cache-Control', BIBLE_CACHE_CONTROL];
  if (ifNoneMatchMatches(req.headers['if-none-match'], representation.etag)) {
    res.writeHead(304, [...head, ...representation.notModifiedHeaders]);
    res.end();
    return;
  }
  res.writeHead(200, [...head, ...representation.okHeaders]);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(representation.bytes);
}

/** Sends a file opened from disk as sendStatic sends one in memory (same headers, 304, HEAD), streaming its bytes. */
export async function sendFromDisk(req: Request, res: Response, file: DiskFile): Promise<void> {
  const representation = negotiate(file, req.get('accept-encoding'));
  const notModified = ifNoneMatchMatches(req.get('if-none-match'), representation.etag);
  const streamed = notModified || req.method === 'HEAD' ? undefined : representation;
  await closeDiskFile(file, streamed);
  res.setHeader('Cache-Control', BIBLE_CACHE_CONTROL);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', representation.etag);
  if (notModified) {
    res.status(304).end();
    return;
  }
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (representation.coding !== 'identity') res.setHeader('Content-Encoding', representation.coding);
  res.setHeader('Content-Length', String(representation.size));
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
