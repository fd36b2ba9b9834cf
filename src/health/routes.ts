// GET /healthz (the process is up) and GET /readyz (every readiness check passes) for monitors and load balancers.
import express, { type Router } from 'express';
import type { AppServices } from '../app-services.ts';
import { ApiError } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';
import { runReadinessChecks } from './readiness.ts';
import type { Health, Readiness } from './responses.ts';

export const HEALTH_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

/** Probes are never cached: an answer is true for the instant it was made. */
export const PROBE_CACHE_CONTROL = 'no-store';

/**
 * Both answer without a key and outside every rate limit: a prober sends from one address every
 * few seconds. /readyz is 200 with each check's result, or a 503 `not-ready` problem naming the
 * failing checks; a change between the two is logged once (warn when it becomes unready).
 */
export function createHealthRouter(services: Pick<AppServices, 'readiness' | 'logger'>): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  let wasReady: boolean | undefined;

  router.get(HEALTH_PATH, (_req, res) => {
    const body: Health = { status: 'ok' };
    res.setHeader('Cache-Control', PROBE_CACHE_CONTROL);
    res.json(body);
  });

  router.get(READINESS_PATH, async (_req, res, next) => {
    const results = await runReadinessChecks(services.readiness);
    const failing = results.filter((result) => !result.ok);
    const ready = failing.length === 0;
    if (ready !== wasReady) {
      if (ready) services.logger.info({ checks: results }, 'ready');
      else services.logger.warn({ checks: results }, 'not ready');
      wasReady = ready;
    }
    res.setHeader('Cache-Control', PROBE_CACHE_CONTROL);
    if (!ready)
      return next(new ApiError(serviceProblems.notReady(failing.map(({ name, detail }) => ({ name, reason: detail ?? 'failed' })))));
    const body: Readiness = { status: 'ready', checks: results };
    res.json(body);
  });
  return router;
}
