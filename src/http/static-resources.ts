// Serves the files of one shipped folder (page assets) from memory, whether they are embedded in the binary or on disk.
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { listResourceFolder, readResource } from '../resources/resources.ts';
import { ifNoneMatchMatches, strongEtag } from './cache.ts';

export interface StaticResourcesOptions {
  /** Cache-Control max-age of every file, in seconds. */
  maxAgeSeconds: number;
  /** Only these file names are served (default: every file directly in the folder). */
  only?: readonly string[];
  /** A name the folder does not hold: 'next' passes the request on, 'error' passes a 404 error to the error handler. */
  unknown: 'next' | 'error';
}

interface Asset {
  body: Buffer;
  etag: string;
  /** The extension, for Express's Content-Type lookup (`.css` → text/css; charset=utf-8). */
  extension: string;
}

/**
 * A handler for GET and HEAD of `/<name>` (one path segment) that answers with the file `name`
 * of `folder` (a path from resourcePath), with a strong ETag, 304 on If-None-Match and
 * `Cache-Control: public, max-age=N`. The files are read once, at the first request: the
 * folders hold a few small assets, and the binary has them in memory anyway.
 *
 * @example router.use('/assets', staticResources(resourcePath('public/portal'), { maxAgeSeconds: 3600, unknown: 'error' }));
 */
export function staticResources(folder: string, options: StaticResourcesOptions): RequestHandler {
  let assets: Map<string, Asset> | undefined;
  return (req, res, next) => {
    assets ??= loadAssets(folder, options.only);
    const asset = req.method === 'GET' || req.method === 'HEAD' ? assets.get(req.path.slice(1)) : undefined;
    if (!asset) return options.unknown === 'next' ? next() : next(Object.assign(new Error('Not found'), { status: 404 }));
    send(req, res, asset, options.maxAgeSeconds);
  };
}

function loadAssets(folder: string, only: readonly string[] | undefined): Map<string, Asset> {
  const names = only ?? listResourceFolder(folder);
  return new Map(
    names.map((name) => {
      const body = readResource(path.join(folder, name));
      return [name, { body, etag: strongEtag(body), extension: path.extname(name) }];
    }),
  );
}

function send(req: Request, res: Response, asset: Asset, maxAgeSeconds: number): void {
  res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
  res.setHeader('ETag', asset.etag);
  if (ifNoneMatchMatches(req.get('if-none-match'), asset.etag)) {
    res.status(304).end();
    return;
  }
  res.type(asset.extension);
  res.setHeader('Content-Length', String(asset.body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : asset.body);
}
