// The MiniSearch index files of the build (/bible-search/{lang}.json), served as a static host serves them, for search in the browser.
import express, { type Router } from 'express';
import { LANGS } from '../../build/contract/books.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { sendFromDisk } from './send-static.ts';
import type { BibleSource } from './source.ts';

/** `{lang}.json`; anything else under the folder is no file of the build. */
const INDEX_FILE = /^([a-z]{2})\.json$/;

/**
 * Mounted at `/bible-search`, the path of the indexes in the static tree (staticPaths.searchIndex),
 * so a page finds them at the same URL on the service and on a static host. Each is about
 * 9 MB (1.8 MB with brotli): streamed from disk like a download, never held in memory.
 */
export function createSearchIndexRouter(services: { bible: BibleSource }): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get('/:file', async (req, res, next) => {
    const lang = LANGS.find((candidate) => candidate === INDEX_FILE.exec(String(req.params.file))?.[1]);
    if (lang === undefined) return next();
    const file = await services.bible.current().files.open(staticPaths.searchIndex(lang));
    // A tree built without this language, or by a build that wrote no indexes: no such file.
    if (file === undefined) return next();
    await sendFromDisk(req, res, file);
  });
  return router;
}
