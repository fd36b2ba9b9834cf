// Test helper: the real app over HTTP with demo data and a working key; every response checked against the OpenAPI document.

import { importChurchDocument } from '../../src/church/import/import-churches.ts';
import type { ImportSummary } from '../../src/church/records.ts';
import { apiFetch } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/test-server.ts';

export const CHURCHES = '/api/public/v1/churches';

export interface ChurchApi {
  server: TestServer;
  key: string;
  /** GET (or another method) on a path under the API, with the key unless `headers` says otherwise. */
  request(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<Response>;
  /** GET a path under /api/public/v1/churches, expect 200, return the parsed body. */
  json<T>(path: string): Promise<T>;
  /** Imports a church document into the server's database (relative times resolved at `now`, default the server's clock). */
  importChurches(document: unknown, now?: Date): Promise<ImportSummary>;
  close(): Promise<void>;
}

/** `options.clock` sets the server's clock (see fixedClock), for the time-zone edges of "upcoming". */
export async function startChurchApi(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<ChurchApi> {
  const server = await startTestServer({ LOG_LEVEL: 'silent', KEY_RATE_LIMIT_PER_MINUTE: '100000', ...env }, options);
  const key = await createTestKey(server.services);
  const request = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
    apiFetch(server.url + path, { method: init.method ?? 'GET', headers: { Authorization: `Bearer ${key}`, ...init.headers } });
  return {
    server,
    key,
    request,
    async json<T>(path: string): Promise<T> {
      const response = await request(`${CHURCHES}/${path}`);
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    importChurches: (document, now = server.services.clock.now()) => importChurchDocument(server.services.churches, document, { now }),
    close: () => server.close(),
  };
}

/** A minimal valid church for import tests; `overrides` replace top-level fields. */
export function churchDocument(slug: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug,
    name: `Church ${slug}`,
    city: 'Testville',
    country: 'FR',
    language: 'fr',
    timeZone: 'Europe/Paris',
    isPublic: true,
    ...overrides,
  };
}
