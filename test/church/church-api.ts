// Test helper: the real app over HTTP with demo data and a working key, plus a router with an injected clock.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { importChurchDocument } from '../../src/church/import/import-churches.ts';
import type { ImportSummary } from '../../src/church/records.ts';
import { createChurchRouter } from '../../src/church/routes.ts';
import { problemHandler } from '../../src/http/errors.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

export const CHURCHES = '/api/public/v1/churches';

export interface ChurchApi {
  server: TestServer;
  key: string;
  /** GET (or another method) on a path under the API, with the key unless `headers` says otherwise. */
  request(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<Response>;
  /** GET a path under /api/public/v1/churches, expect 200, return the parsed body. */
  json<T>(path: string): Promise<T>;
  /** Imports a church document into the server's database (relative times resolved at `now`). */
  importChurches(document: unknown, now?: Date): Promise<ImportSummary>;
  close(): Promise<void>;
}

export async function startChurchApi(env: Record<string, string> = {}): Promise<ChurchApi> {
  const server = await startTestServer({ LOG_LEVEL: 'silent', KEY_RATE_LIMIT_PER_MINUTE: '100000', ...env });
  const key = await createTestKey(server.services);
  const request = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
    fetch(server.url + path, { method: init.method ?? 'GET', headers: { Authorization: `Bearer ${key}`, ...init.headers } });
  return {
    server,
    key,
    request,
    async json<T>(path: string): Promise<T> {
      const response = await request(`${CHURCHES}/${path}`);
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    importChurches: (document, now) => importChurchDocument(server.services.churches, document, { now }),
    close: () => server.close(),
  };
}

export interface ClockedRouter {
  url: string;
  /** Sets the instant the router sees as now. */
  setNow(instant: Date): void;
  close(): Promise<void>;
}

/**
 * The church router alone (no key needed) over the same services as `api`, on its own port,
 * with an injected clock: for the time-zone edges of "upcoming".
 */
export async function startClockedRouter(api: ChurchApi, initial: Date): Promise<ClockedRouter> {
  let now = initial;
  const app = express();
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(CHURCHES, createChurchRouter(api.server.services, { now: () => now }));
  app.use(problemHandler(createLogger('silent'), api.server.services.config.publicBaseUrl));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${CHURCHES}`,
    setNow(instant) {
      now = instant;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
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
