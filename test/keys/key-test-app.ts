// Test harness: the key auth and per-key limit mounted as app.ts mounts them, over a stub church route, on real HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { problems } from '../../build/contract/problems.ts';
import type { AccountRepository } from '../../src/accounts/repository.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { notFoundHandler, problemHandler } from '../../src/http/errors.ts';
import { createLogger, type Logger } from '../../src/http/logger.ts';
import { methodGuard } from '../../src/http/method-guard.ts';
import { ApiError } from '../../src/http/problem.ts';
import { requestLog } from '../../src/http/request-log.ts';
import { createKeyAuth } from '../../src/keys/auth.ts';
import { createFingerprinter, type Fingerprinter, loadOrCreateSecret } from '../../src/keys/fingerprint.ts';
import { createBibleRateLimit } from '../../src/limits/bible-limit.ts';
import { createKeyRateLimit } from '../../src/limits/key-limit.ts';
import { createLimitStores, type LimitStores } from '../../src/limits/stores.ts';
import { listenOnLoopback } from '../helpers/listen.ts';
import { collectLogLines } from '../helpers/log-lines.ts';
import { TEST_PUBLIC_BASE_URL } from '../helpers/problem.ts';

export interface KeyTestServices {
  config: Readonly<Config>;
  logger: Logger;
  keys: AccountRepository;
  fingerprinter: Fingerprinter;
  limitStores: LimitStores;
}

export interface KeyTestApp {
  url: string;
  services: KeyTestServices;
  db: Db;
  dir: string;
  logs: string[];
  close(): Promise<void>;
}

/**
 * Starts a small app: request log, method guard, then under /api/public/v1/churches the key
 * auth, the per-key limit and a stub route (`/:slug` → 200, `/unknown` → 404); under
 * /bible the Bible limit. `env` overrides the configuration (DATABASE_PATH to share a file).
 */
export async function startKeyTestApp(env: Record<string, string> = {}): Promise<KeyTestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-keys-'));
  const config = loadConfig(
    {
      PORT: '0',
      DATABASE_PATH: path.join(dir, 'church.sqlite'),
      KEY_SECRET_FILE: path.join(dir, 'key.secret'),
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      PUBLIC_BASE_URL: TEST_PUBLIC_BASE_URL,
      ...env,
    },
    dir,
  );
  const { lines: logs, destination } = collectLogLines();
  const logger = createLogger(config.logLevel, destination);
  const db = openDatabase(config.databasePath);
  const limitStores = await createLimitStores(config, logger);
  const services: KeyTestServices = {
    config,
    logger,
    keys: createSqliteAccountRepository(db),
    fingerprinter: createFingerprinter(loadOrCreateSecret(config, logger)),
    limitStores,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(requestLog(logger));
  app.use(methodGuard);
  const churches = express.Router();
  churches.get('/:slug', (req, res, next) => {
    if (req.params.slug === 'unknown') return next(new ApiError(problems.churchNotFound()));
    res.json({ slug: req.params.slug, keyId: res.locals.apiKeyId });
  });
  app.use('/api/public/v1/churches', createKeyAuth(services), createKeyRateLimit(services), churches);
  app.get('/bible/search', createBibleRateLimit(services), (_req, res) => {
    res.json({ items: [] });
  });
  app.use(notFoundHandler);
  app.use(problemHandler(logger, config.publicBaseUrl));

  const server = await listenOnLoopback(app);
  return {
    url: server.url,
    services,
    db,
    dir,
    logs,
    async close() {
      await server.close();
      await limitStores.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** GET with an optional Bearer key and extra headers. */
export function getWithKey(url: string, key?: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers: key === undefined ? headers : { Authorization: `Bearer ${key}`, ...headers } });
}
