// Church endpoints 1-8 on Express: find the church, send the answer answers.ts makes.
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { type PreparedJson, sendPreparedJson } from '../http/cache.ts';
import { CHURCH_CACHE_CONTROL } from '../http/cache-policy.ts';
import type { ChurchAnswers } from './answers.ts';
import type { ChurchRecord } from './records.ts';

/**
 * Mounted under /api/public/v1/churches. `before` runs first on every request under it (the method
 * guard, key auth and the rate limit): inside the router they match without a path test each.
 * The reads the fast path (fast-path.ts) takes never come here; the rest do (other query parameters, encoded segments, ...).
 */
export function createChurchRouter(answers: ChurchAnswers, before: readonly RequestHandler[] = []): Router {
  // One canonical path per resource (decisions.md): literal segments as written, no trailing slash.
  const router = Router({ caseSensitive: true, strict: true });
  if (before.length > 0) router.use(...before);

  const churchOf = (res: Response): ChurchRecord => res.locals.church as ChurchRecord;
  const send = (req: Request, res: Response, body: PreparedJson) =>
    sendPreparedJson(req, res, body, { cacheControl: CHURCH_CACHE_CONTROL });

  // Every route below starts with the church: looked up once, here, and 404 when unknown or not public.
  router.param('slug', async (_req, res, next, slug: string) => {
    res.locals.church = await answers.church(slug);
    next();
  });

  router.get('/:slug', (req, res) => send(req, res, answers.profile(churchOf(res))));
  router.get('/:slug/events', async (req, res) => send(req, res, await answers.events(churchOf(res))));
  router.get('/:slug/posts', async (req, res) => send(req, res, await answers.posts(churchOf(res), req.query)));
  router.get('/:slug/live', async (req, res) => send(req, res, await answers.live(churchOf(res))));
  router.get('/:slug/library', async (req, res) => send(req, res, await answers.library(churchOf(res), req.query)));
  router.get('/:slug/store', async (req, res) => send(req, res, await answers.store(churchOf(res))));
  router.get('/:slug/gallery', async (req, res) => send(req, res, await answers.gallery(churchOf(res))));
  router.get('/:slug/gallery/:albumId/photos', async (req, res) =>
    send(req, res, await answers.photos(churchOf(res), String(req.params.albumId))),
  );

  return router;
}
