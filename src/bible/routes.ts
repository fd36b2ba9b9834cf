// Bible endpoints 9-13: static files of the tree for versions, books and chapters; the database for ranges and search.
import express, { type Request, type Response, type Router } from 'express';
import { BIBLE_CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import type { AppServices } from '../app-services.ts';
import { sendJson } from '../http/cache.ts';
import { pageEnvelope } from '../http/paging.ts';
import { type BibleLimit, bibleLimitMiddleware } from '../limits/bible-limit.ts';
import { readChapterFile } from './chapter.ts';
import { parseLang, parseRefParameter, parseSearch } from './params.ts';
import { readPassages } from './passage.ts';
import { type RangeBound, readRange } from './range.ts';
import { searchBible } from './search.ts';
import { requireFile, sendFromDisk, sendStatic } from './send-static.ts';

/**
 * The Bible's routes under Express. Most chapter, verse and range reads never get here: the fast
 * path (fast-path.ts) answers them first, with these same functions; what it hands on (anything
 * unusual: an error to answer, a query it does not read) is answered here.
 */
export function createBibleRouter(services: Pick<AppServices, 'bible' | 'config'>, bibleLimit: BibleLimit): Router {
  // One canonical path per resource (decisions.md): literal segments as written, no trailing slash.
  const router = express.Router({ caseSensitive: true, strict: true });
  const { bible } = services;
  const rateLimit = bibleLimitMiddleware(bibleLimit);

  router.get('/versions', (req, res) => {
    const { files } = bible.current();
    sendStatic(req, res, requireFile(files.get(staticPaths.versions), staticPaths.versions));
  });

  router.get('/books', (req, res) => {
    const { files } = bible.current();
    const lang = parseLang(req.query.lang);
    sendStatic(req, res, requireFile(files.get(staticPaths.books(lang)), staticPaths.books(lang)));
  });

  // The whole version in one file (5-6 MB): streamed from disk, not held in memory like the small files.
  router.get('/download', async (req, res) => {
    const { files } = bible.current();
    const lang = parseLang(req.query.lang);
    const file = await files.open(staticPaths.download(lang));
    await sendFromDisk(req, res, requireFile(file, staticPaths.download(lang)));
  });

  router.get('/search', rateLimit, async (req, res) => {
    const { queries, pool } = bible.current();
    const params = parseSearch(req.query);
    // References on this thread (indexed lookups); the word search on a worker: its cost depends on the text asked for.
    const { totalItems, items } = await searchBible(queries, pool, params);
    sendJson(req, res, pageEnvelope(items, params, totalItems), { cacheControl: BIBLE_CACHE_CONTROL });
  });

  router.get('/passage', rateLimit, (req, res) => {
    const { queries } = bible.current();
    const lang = parseLang(req.query.lang);
    const ref = parseRefParameter(req.query.ref);
    const body = readPassages(queries, lang, ref, services.config.biblePassageMaxVerses);
    sendJson(req, res, body, { cacheControl: BIBLE_CACHE_CONTROL });
  });

  router.get('/:abbr/:chapter', (req, res) => {
    const build = bible.current();
    const lang = parseLang(req.query.lang);
    sendStatic(req, res, readChapterFile(build, lang, String(req.params.abbr), String(req.params.chapter)));
  });

  router.get('/:abbr/:chapter/:from/:to', rateLimit, (req, res) => {
    sendRange(req, res, ['from', String(req.params.from)], ['to', String(req.params.to)]);
  });

  // One verse by URL answers exactly like the range {verse}/{verse}.
  router.get('/:abbr/:chapter/:verse', rateLimit, (req, res) => {
    sendRange(req, res, ['verse', String(req.params.verse)], ['verse', String(req.params.verse)]);
  });

  /** Endpoint 12: verses from..to of the chapter the path names, in the chapter shape. */
  function sendRange(req: Request, res: Response, from: RangeBound, to: RangeBound): void {
    const { queries } = bible.current();
    const lang = parseLang(req.query.lang);
    const body = readRange(queries, lang, String(req.params.abbr), String(req.params.chapter), from, to);
    sendJson(req, res, body, { cacheControl: BIBLE_CACHE_CONTROL });
  }

  return router;
}
