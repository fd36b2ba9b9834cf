// The probe operations: /healthz (process up) and /readyz (every readiness check passes), for monitors and load balancers.
import { problems } from '../../../build/contract/problems.ts';
import { READINESS_TIMEOUT_MS } from '../../health/readiness.ts';
import { HealthSchema, ReadinessSchema } from '../../health/responses.ts';
import { HEALTH_PATH, PROBE_CACHE_CONTROL, READINESS_PATH } from '../../health/routes.ts';
import { serviceProblems } from '../../http/problems.ts';
import { problemResponse } from './problem-responses.ts';
import type { DocumentParts, Json } from './types.ts';

/** Paths and operations of the two probes. */
export function healthPaths(parts: DocumentParts): Json {
  const noStore = { 'Cache-Control': { schema: { type: 'string', const: PROBE_CACHE_CONTROL } } };
  const internal = problemResponse(parts, 'The service failed; the failure is logged.', [problems.internalError()]);
  return {
    [HEALTH_PATH]: {
      get: {
        tags: ['Operations'],
        operationId: 'getHealth',
        summary: 'Liveness',
        description:
          'Answers 200 as long as the process runs and its event loop turns; checks nothing else, so a failing database or Redis never gets a live process restarted. No key, no rate limit; successful probes are logged at debug level only.',
        security: [],
        parameters: [],
        responses: {
          '200': {
            description: 'The process is up.',
            headers: noStore,
            content: { 'application/json': { schema: parts.components.ref(HealthSchema), example: { status: 'ok' } } },
          },
          '500': internal,
        },
      },
    },
    [READINESS_PATH]: {
      get: {
        tags: ['Operations'],
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: `Runs every readiness check at once, each within ${READINESS_TIMEOUT_MS} ms: \`database\` (the church database answers a query), \`bible\` (a Bible build is loaded; without one every Bible endpoint answers 503), and \`redis\` when the server keeps its rate limits in Redis (it answers PING). 200 when all pass, else 503. No key, no rate limit; successful probes are logged at debug level only, and a change between ready and not ready is logged once.`,
        security: [],
        parameters: [],
        responses: {
          '200': {
            description: 'Every check passed.',
            headers: noStore,
            content: {
              'application/json': {
                schema: parts.components.ref(ReadinessSchema),
                example: {
                  status: 'ready',
                  checks: [
                    { name: 'database', ok: true, ms: 0.1 },
                    { name: 'bible', ok: true, detail: 'build 9c41e07d2a5b', ms: 0.2 },
                    { name: 'redis', ok: true, ms: 0.6 },
                  ],
                },
              },
            },
          },
          '500': internal,
          '503': problemResponse(
            parts,
            'A check failed or gave no answer in time; `detail` names each failing check and why.',
            [serviceProblems.notReady([{ name: 'redis', reason: `no answer within ${READINESS_TIMEOUT_MS} ms` }])],
            noStore,
          ),
        },
      },
    },
  };
}
