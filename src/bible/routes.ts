// Bible endpoints 9-13: static files of the tree for versions, books and chapters; the database for ranges and search.
import express, { type Request, type Response, type Router } from 'express';
import { verseFromRow } from '../../build/contract/bible-database.ts';
import { bookByUsfm } from '../../build/contract/books.ts';
import { BIBLE_CACHE_CONTROL } from '../../build/contract/http-policy.ts';
import { staticPaths } from '../../build/contract/layout.ts';
import { problems } from '../../build/contract/problems.ts';
import { chapterResponse } from '../../build/contract/responses.ts';
import type { AppServices } from '../app-services.ts';
import { sendJson } from '../http/cache.ts';
import { pageEnvelope } from '../http/paging.ts';
import { ApiError } from '../http/problem.ts';
import { createBibleRateLimit } from '../limits/bible-limit.ts';
import { parseBook, parseChapter, parseLang, parsePositiveInteger, parseRefParameter, parseSearch } from './params.ts';
import { readPassages } from './passage.ts';
import { searchBible } from './search.ts';
import { requireFile, sendFromDisk, sendStatic } from './send-static.ts';

export function createBibleRouter(services: Pick<AppServices, 'bible' | 'config' | 'limitStores' | 'logger'>): Router {
  // One canonical path per resource (decisions.md): literal segments as written, no trailing slash.
  const router = express.Router({ caseSensitive: true, strict: true });
  const { bible } = services;
  const rateLimit = createBibleRateLimit(services);

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
    const { queries, files } = bible.current();
    const lang = parseLang(req.query.lang);
    const book = parseBook(queries, lang, String(req.params.abbr));
    const chapter = parseChapter(book, String(req.params.chapter));
    const file = files.get(staticPaths.chapter(lang, book.usfm, chapter));
    // A chapter the source leaves empty has no file (the writer skips it): nothing to read there.
    if (!file) throw new ApiError(problems.chapterWithoutVerses(book.name, chapter));
    sendStatic(req, res, file);
  });

  router.get('/:abbr/:chapter/:from/:to', rateLimit, (req, res) => {
    sendRange(req, res, ['from', String(req.params.from)], ['to', String(req.params.to)]);
  });

  // One verse by URL answers exactly like the range {verse}/{verse}.
  router.get('/:abbr/:chapter/:verse', rateLimit, (req, res) => {
    sendRange(req, res, ['verse', String(req.params.verse)], ['verse', String(req.params.verse)]);
  });

  /** Endpoint 12: verses from..to of the chapter the path names, in the chapter shape; each bound is [parameter name, path text]. */
  function sendRange(req: Request, res: Response, fromParam: [string, string], toParam: [string, string]): void {
    const { queries } = bible.current();
    const lang = parseLang(req.query.lang);
    const book = parseBook(queries, lang, String(req.params.abbr));
    const chapter = parseChapter(book, String(req.params.chapter));
    const from = parsePositiveInteger(...fromParam);
    const to = parsePositiveInteger(...toParam);
    if (from > to) throw new ApiError(problems.reversedVerseRange(from, to));
    const last = queries.lastVerse(lang, book.usfm, chapter);
    if (last === undefined) throw new ApiError(problems.chapterWithoutVerses(book.name, chapter));
    if (from > last) throw new ApiError(problems.verseOutsideChapter(book.name, chapter, from, last));
    const verses = queries.verseRange(lang, book.usfm, chapter, from, Math.min(to, last)).map(verseFromRow);
    // A gap: the source leaves out verses that other versions number (RVR, STV and BLIVRE lack a few).
    if (verses.length === 0) throw new ApiError(problems.versesMissing(book.name, chapter, from, Math.min(to, last)));
    const canon = bookByUsfm(book.usfm);
    const version = queries.version(lang);
    if (!canon || !version) throw new Error(`Bible database lacks ${canon ? 'the version' : 'the canon book'} for ${lang} ${book.usfm}`);
    // Same shape and serialisation as the static chapter files: from/to say which verses it holds.
    const navigation = { ...queries.neighbours(lang, book.usfm, chapter), verseCount: last, attribution: version.attribution };
    sendJson(req, res, chapterResponse(lang, version.code, canon, chapter, verses, navigation), { cacheControl: BIBLE_CACHE_CONTROL });
  }

  return router;
}
