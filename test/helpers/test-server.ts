// Starts the real app on a loopback port with a temporary database, for tests over real HTTP.
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app.ts';
import type { BibleSourceOptions } from '../../src/bible/source.ts';
import type { Clock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createHttpServer } from '../../src/http/http-server.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createServices, type RunningServices } from '../../src/services.ts';
import { loadServedDocument } from './api-client.ts';
import { listenOnLoopback } from './listen.ts';
import { collectLogLines } from './log-lines.ts';
import { TEST_PUBLIC_BASE_URL } from './problem.ts';

export interface TestServer {
  url: string;
  /** The service's http.Server (createHttpServer), listening on url. */
  httpServer: Server;
  services: RunningServices;
  /** Temporary folder holding this server's database and secret file. */
  dir: string;
  /** Log lines written by the server (JSON strings). */
  logs: string[];
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** The app's clock (see fixedClock in clock.ts); default the system clock. */
  clock?: Clock;
  /** How the Bible source re-checks its build: a test that swaps a build controls the interval or its clock. */
  bible?: BibleSourceOptions;
}

/**
 * Starts createApp(createServices(config)) on 127.0.0.1 with a fresh temp database
 * (demo data loaded) unless `env` says otherwise. The OpenAPI document it serves is loaded for
 * apiFetch before this returns, so its request is logged before any of the test's.
 */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-test-'));
  const config = loadConfig(
    {
      PORT: '0',
      DATABASE_PATH: path.join(dir, 'church.sqlite'),
      KEY_SECRET_FILE: path.join(dir, 'key.secret'),
      BIBLE_PUBLIC_DIR: path.join(dir, 'public'),
      BIBLE_DB_PATH: path.join(dir, 'bible.sqlite'),
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: TEST_PUBLIC_BASE_URL,
      // The service's default is no demo data; most tests read the demo churches, as `npm start` loads them.
      DEMO_DATA: 'true',
      ...env,
    },
    dir,
  );
  const { lines: logs, destination } = collectLogLines();
  const logger = createLogger(config.logLevel, destination);
  const services = await createServices(config, logger, { clock: options.clock, bible: options.bible });
  // The service's own http.Server (connection limits, CONNECT and unparsable requests answered as problems).
  const app = createApp(services);
  const server = await listenOnLoopback(app, config.port, createHttpServer(app, config, logger));
  await loadServedDocument(server.url);
  return {
    url: server.url,
    httpServer: server.server,
    services,
    dir,
    logs,
    async close() {
      await server.close();
      await services.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
