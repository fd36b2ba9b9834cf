// The probes' endpoint table: GET /healthz (the process is up) and GET /readyz (every readiness check passes), for monitors and load balancers.

import { prepareJson } from '../http/cache.ts';
import { type EndpointTable, endpointOf } from '../http/endpoint.ts';
import type { Logger } from '../http/logger.ts';
import { ApiError } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';
import { READINESS_TIMEOUT_MS, type ReadinessCheck, runReadinessChecks } from './readiness.ts';
import { type Health, HealthSchema, type Readiness, ReadinessSchema } from './responses.ts';

/** What the probes answer from: the checks, and the log a change between ready and not ready goes to. */
export interface HealthDependencies {
  /** Runs every check; throws the 503 `not-ready` naming the failing ones; logs a change between ready and not ready once. */
  readiness(): Promise<Readiness>;
}

/**
 * The readiness of one app: the checks run together, each within its timeout, and the last state
 * remembered so that only a change is logged.
 *
 * @example const health: HealthDependencies = { readiness: readinessOf(services.readiness, services.logger) };
 */
export function readinessOf(checks: readonly ReadinessCheck[], logger: Logger): HealthDependencies['readiness'] {
  let wasReady: boolean | undefined;
  return async () => {
    const results = await runReadinessChecks(checks);
    const failing = results.filter((result) => !result.ok);
    const ready = failing.length === 0;
    if (ready !== wasReady) {
      if (ready) logger.info({ checks: results }, 'ready');
      else logger.warn({ checks: results }, 'not ready');
      wasReady = ready;
    }
    if (!ready) throw new ApiError(serviceProblems.notReady(failing.map(({ name, detail }) => ({ name, reason: detail ?? 'failed' }))));
    return { status: 'ready', checks: results };
  };
}

const endpoint = endpointOf<HealthDependencies, undefined>();

const HEALTHY: Health = { status: 'ok' };

/** Probes are never cached: an answer is true for the instant it was made, a 503 as much as a 200. */
export const PROBE_CACHE_CONTROL = 'no-store';

/**
 * Both answer without a key and outside every rate limit (a prober sends from one address every few
 * seconds), and their successful answers are logged at debug, not info.
 */
export const healthEndpoints: EndpointTable<HealthDependencies> = {
  tag: 'Operations',
  cache: { cacheControl: PROBE_CACHE_CONTROL, etag: false, onProblems: true },
  endpoints: [
    endpoint({
      path: '/healthz',
      query: [],
      quiet: true,
      answer: () => prepareJson(HEALTHY),
      operation: {
        operationId: 'getHealth',
        summary: 'Liveness',
        description:
          'Answers 200 as long as the process runs and its event loop turns; checks nothing else, so a failing database or Redis never gets a live process restarted. No key, no rate limit; successful probes are logged at debug level only.',
        body: HealthSchema,
        example: HEALTHY,
        responses: { 200: 'The process is up.' },
      },
    }),
    endpoint({
      path: '/readyz',
      query: [],
      quiet: true,
      answer: async (_request, { readiness }) => prepareJson(await readiness()),
      operation: {
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: `Runs every readiness check at once, each within ${READINESS_TIMEOUT_MS} ms: \`database\` (the church database answers a query), \`bible\` (a Bible build is loaded; without one every Bible endpoint answers 503), and \`redis\` when the server keeps its rate limits in Redis (it answers PING). 200 when all pass, else 503. No key, no rate limit; successful probes are logged at debug level only, and a change between ready and not ready is logged once.`,
        body: ReadinessSchema,
        example: {
          status: 'ready',
          checks: [
            { name: 'database', ok: true, ms: 0.1 },
            { name: 'bible', ok: true, detail: 'build 9c41e07d2a5b', ms: 0.2 },
            { name: 'redis', ok: true, ms: 0.6 },
          ],
        },
        problems: [serviceProblems.notReady([{ name: 'redis', reason: `no answer within ${READINESS_TIMEOUT_MS} ms` }])],
        responses: {
          200: 'Every check passed.',
          503: 'A check failed or gave no answer in time; `detail` names each failing check and why.',
        },
      },
    }),
  ],
};
