// The service under test: started as `npm start` starts it (scripts/start.mjs) on a free port with production-like settings, and a key minted through the CLI.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { npmNodeCommand } from '../lib/npm-start.ts';
import { freePort, type RunningServer, startServer } from './processes.ts';

export interface ServiceOptions {
  /** Folder of this instance's files: secret, outbox, logs. */
  workDir: string;
  /** The backend's variables (backends.ts), shared by every instance on that backend. */
  backendEnv: Record<string, string>;
  /** Shown in messages: `service (sqlite)`. */
  name: string;
  biblePublicDir: string;
  bibleDatabasePath: string;
  /** The service's LOG_LEVEL: `info` writes the access line of every request, as in production. */
  logLevel: string;
  /** Writes a V8 CPU profile of the service into this folder when it stops (`node --cpu-prof`). */
  cpuProfileDir?: string;
  /** The checkout whose service runs (its package.json's start command, in its folder); default this one. */
  checkout?: string;
  /** Node flags added before the entry, after npm start's own (a variant measured by scripts/bench/peak-rss.ts). */
  nodeFlags?: readonly string[];
  /** Variables set last, over npm start's own (MALLOC_ARENA_MAX=…): a variant measured by scripts/bench/peak-rss.ts. */
  env?: Record<string, string>;
}

export interface RunningService extends RunningServer {
  /** The environment it runs with: the CLI takes the same, to reach the same database. */
  env: NodeJS.ProcessEnv;
  /** Where its stdout goes: the access log. */
  logFile: string;
}

/**
 * The limits raised for the run: one key and one address send every request of the benchmark,
 * far past the per-minute limits of production. They are raised, not turned off, so that the
 * limiters' own work is measured.
 */
export const RAISED_LIMITS = {
  KEY_RATE_LIMIT_PER_MINUTE: '1000000',
  BIBLE_RATE_LIMIT_PER_MINUTE: '1000000',
  MCP_RATE_LIMIT_PER_MINUTE: '1000000',
} as const;

/** Node with tsx's loader, for the operator CLI (a short process: what it costs at start does not matter). */
const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;

/** The checkout, where npm runs its scripts. */
const CHECKOUT = join(import.meta.dirname, '../..');

/** Starts the service as `npm start` does (without npm between) and waits until the Bible answers. */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  await mkdir(options.workDir, { recursive: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: options.logLevel,
    DEMO_DATA: 'true',
    KEY_SECRET_FILE: join(options.workDir, 'key-fingerprint.secret'),
    MAIL_OUTBOX_DIR: join(options.workDir, 'outbox'),
    BIBLE_PUBLIC_DIR: options.biblePublicDir,
    BIBLE_DB_PATH: options.bibleDatabasePath,
    ...RAISED_LIMITS,
    // No kept range or search answers: the bench cycles through fixed query sets, which a cache would
    // answer from memory after the first round; the figures are those of a query run each time.
    BIBLE_ANSWER_CACHE_BYTES: '0',
    ...options.backendEnv,
  };
  const checkout = options.checkout ?? CHECKOUT;
  // The variables npm start sets for Node (MALLOC_ARENA_MAX), as npm would.
  const { args: startArgs, env: startEnv } = npmNodeCommand(checkout, 'start');
  Object.assign(env, startEnv, options.env);
  const profile = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  const logFile = join(options.workDir, 'service.log');
  const server = await startServer({
    name: options.name,
    command: process.execPath,
    args: [...profile, ...startArgs.slice(0, -1), ...(options.nodeFlags ?? []), ...startArgs.slice(-1)],
    env,
    port,
    readyPath: '/api/v1/bible/versions',
    stdoutFile: logFile,
    stderrFile: join(options.workDir, 'service.err'),
    cwd: checkout,
  });
  return { ...server, env, logFile };
}

/**
 * A verified developer and one key, made with the operator CLI (`npm run cli`) over the service's
 * settings once the service has created its database; the key as the CLI prints it.
 */
export async function mintKey(env: NodeJS.ProcessEnv): Promise<string> {
  const cli = async (...args: string[]) => {
    const command = [...NODE_WITH_TSX.slice(1), 'scripts/cli.ts', ...args];
    return (await promisify(execFile)(NODE_WITH_TSX[0], command, { env: { ...env, LOG_LEVEL: 'warn' } })).stdout;
  };
  await cli('create-developer', '--email', 'bench@example.org', '--name', 'Benchmark', '--verified');
  const printed = await cli('create-key', '--email', 'bench@example.org', '--name', 'benchmark');
  const key = /\bsk_live_[A-Za-z0-9]+/.exec(printed)?.[0];
  if (!key) throw new Error(`create-key printed no key:\n${printed}`);
  return key;
}
