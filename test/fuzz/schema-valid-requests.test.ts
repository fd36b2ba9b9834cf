// Property: every response to a request the OpenAPI document allows is one the document describes (status, media type, body).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiFetch } from '../helpers/api-client.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { type FuzzServer, startFuzzServer } from './fuzz-server.ts';
import { schemaValidRequest } from './request-arbitraries.ts';

/** Fixed, so a failure replays (fast-check prints the shrunk counterexample). */
const SEED = 20_261_124;
const RUNS = 1000;

let fuzz: FuzzServer;
let server: TestServer;
let key: string;

beforeAll(async () => {
  fuzz = await startFuzzServer();
  ({ server, key } = fuzz);
});

afterAll(async () => {
  await fuzz?.close();
});

test(`${RUNS} schema-valid requests: every response validates against the OpenAPI document`, async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(schemaValidRequest({ key }), async ({ path, headers }) => {
      // apiFetch rejects (UndocumentedResponseError) when the response is not what the document says.
      const response = await apiFetch(`${server.url}${path}`, { headers });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status).toBeLessThan(500);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  console.log('statuses of schema-valid requests:', Object.fromEntries(statuses));
  // The run reached both answers and refusals, not only one kind.
  expect(statuses.get(200)).toBeGreaterThan(RUNS / 10);
}, 120_000);
