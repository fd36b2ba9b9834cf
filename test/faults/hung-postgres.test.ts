// A PostgreSQL that stops answering (SIGSTOP) gives the portal 503 with Retry-After within its timeouts, as the API answers it, never a 500 or a hang.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import type { PortalClient } from '../portal/portal-client.ts';
import { type PortalTestServer, signUpVerified, startPortalTestServer } from '../portal/portal-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
/** DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS of the test server. */
const TIMEOUT_MS = 1_000;
/**
 * The longest a request may take against the hung server: one statement unanswered until the
 * driver gives up (the statement timeout plus its one second: the server, stopped, cannot end the
 * statement itself) or one connection not made within the connect timeout, whichever it meets
 * first, plus a second for the request's own work on a loaded machine. A request that met two
 * timeouts in a row, or waited for the server, would not make it.
 */
const BOUND_MS = TIMEOUT_MS + 1_000 + 1_000;

describeWith(['postgres'], 'the portal while PostgreSQL hangs', () => {
  const databases = usePostgresDatabases();
  let server: PortalTestServer;
  let developer: PortalClient;

  beforeAll(async () => {
    const { url } = await databases.migrated();
    server = await startPortalTestServer({
      DATABASE_URL: url,
      DATABASE_CONNECT_TIMEOUT_MS: String(TIMEOUT_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    developer = await signUpVerified(server, 'hung@example.org');
    await developer.get('/portal/account');
  });
  afterAll(async () => {
    databases.server().resume();
    await server?.close();
  });

  it('answers pages and forms 503 with Retry-After within its timeouts, like the API, and serves them again once it answers', async () => {
    const key = await createTestKey(server.services);
    databases.server().pause();
    const answers: { what: string; status: number; retryAfter: string | null; elapsed: number }[] = [];
    try {
      const timed = async (what: string, request: () => Promise<{ status: number; headers: Headers }>) => {
        const started = performance.now();
        const response = await request();
        answers.push({
          what,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          elapsed: performance.now() - started,
        });
      };
      await timed('the key page', () => developer.get('/portal/keys'));
      await timed('a rename', () => developer.post('/portal/account/name', { name: 'Renamed While Hung' }));
      await timed('the API', () => getWithKey(server.url + CHURCH, key));
    } finally {
      databases.server().resume();
    }
    for (const answer of answers) {
      expect(answer, answer.what).toMatchObject({ status: 503, retryAfter: '5' });
      expect(answer.elapsed, `${answer.what} took ${answer.elapsed.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
    }
    expect(server.logs.some((line) => line.includes('"unhandled portal error"'))).toBe(false);
    expect(server.logs.filter((line) => line.includes('"database unavailable"')).length).toBeGreaterThanOrEqual(3);

    // Back: the same session goes on, nothing was renamed, the form works.
    expect((await developer.get('/portal/account')).status).toBe(200);
    expect((await server.services.accountService.developerByEmail('hung@example.org'))?.name).toBe('Test Developer');
    expect((await developer.post('/portal/account/name', { name: 'Renamed After' })).status).toBe(303);
  }, 60_000);
});
