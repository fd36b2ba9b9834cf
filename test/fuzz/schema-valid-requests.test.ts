// Property: every response to a request the OpenAPI document allows is one the document describes (status, media type, body).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiFetch } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { schemaValidRequest } from './request-arbitraries.ts';

/** Fixed, so a failure replays (fast-check prints the shrunk counterexample). */
const SEED = 20_261_124;
const RUNS = 1000;

let bible: BibleFixture;
let server: TestServer;
let key: string;

beforeAll(async () => {
  bible = await buildBibleFixture();
  server = await startTestServer({
    ...bible.env,
    LOG_LEVEL: 'warn',
    BIBLE_RATE_LIMIT_PER_MINUTE: '0',
    KEY_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  key = await createTestKey(server.services);
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
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
