// An error a repository throws in a request is answered as a problem and logged with the request's id, never as a bare 500.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

describe('an error thrown by a repository during a request', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer();
  });
  afterAll(() => app.close());

  it('answers the internal-error problem (500, problem+json) and logs the error with the request id', async () => {
    const key = await createTestKey(app.services);
    // What better-sqlite3 throws when a lock outlasts its busy timeout: no StorageUnavailableError, so a bug's answer.
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const lookup = vi.spyOn(app.services.churches, 'publicChurchBySlug').mockRejectedValue(busy);
    try {
      const before = app.logs.length;
      const response = await getWithKey(app.url + CHURCH, key, { 'x-request-id': 'repository-error' });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        type: problemType('internal-error'),
        title: 'Internal server error',
        status: 500,
        detail: 'The server could not answer this request. It has been logged.',
      });
      const errors = app.logs
        .slice(before)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ message: 'unhandled error', requestId: 'repository-error', path: CHURCH });
      expect(JSON.stringify(errors[0])).toContain('database is locked');
    } finally {
      lookup.mockRestore();
    }
  });
});
