// The rate-limit stores: in-process memory by default, one shared Redis when REDIS_URL is set.
import { MemoryStore, type Store } from 'express-rate-limit';
import type { RedisReply } from 'rate-limit-redis';
import { type Config, ConfigError } from '../config.ts';
import type { Logger } from '../http/logger.ts';
import { boundedStore, createOutageReporter } from './bounded-store.ts';

/** One store per limiter: each initialises its store with its own window (express-rate-limit also refuses a shared one). */
export interface LimitStores {
  /** Where the counts live: this process only, or a Redis shared by every instance. */
  kind: 'memory' | 'redis';
  /** Requests per API key on church endpoints. */
  key: Store;
  /** Requests with an invalid key, per client address. */
  invalidKey: Store;
  /** Requests to the Bible's dynamic endpoints, per client address. */
  bible: Store;
  /** MCP messages to /mcp, per client address. */
  mcp: Store;
  /** Failed portal sign-ins, per account (the address typed). */
  signInAccount: Store;
  /** Failed portal sign-ins, per client address. */
  signInClient: Store;
  /** Portal e-mail per recipient and kind (verification, password reset). */
  mailAddress: Store;
  /** Portal e-mail per client address that caused it. */
  mailClient: Store;
  /** Portal accounts created per client address. */
  signUpClient: Store;
  /** Stops timers and quits the Redis connection. */
  close(): Promise<void>;
  /** Redis only: one PING, for the readiness check (rejects when Redis is down; a hung one never answers). */
  ping?: () => Promise<void>;
}

/** Redis key prefixes, one per limiter, so their counts never mix. */
export const REDIS_PREFIXES = {
  key: 'rl:key:',
  invalidKey: 'rl:invalid-key:',
  bible: 'rl:bible:',
  mcp: 'rl:mcp:',
  signInAccount: 'rl:sign-in-account:',
  signInClient: 'rl:sign-in-client:',
  mailAddress: 'rl:mail-address:',
  mailClient: 'rl:mail-client:',
  signUpClient: 'rl:sign-up-client:',
} as const;

/** Thrown at start when the configured Redis cannot be reached: a bad REDIS_URL, reported as one line like any bad setting. */
export class LimitStoreError extends ConfigError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('REDIS_URL', message, options);
    this.name = 'LimitStoreError';
  }
}

/**
 * Memory stores, or Redis stores when config.redisUrl is set. With Redis, connects now
 * and fails fast if the server cannot be reached, rather than starting with limits that
 * silently do not hold across instances.
 */
export async function createLimitStores(
  config: Pick<Config, 'redisUrl'> & Partial<Pick<Config, 'limitStoreTimeoutMs'>>,
  logger: Logger,
): Promise<LimitStores> {
  if (config.redisUrl === undefined) return createMemoryStores();
  return createRedisStores(config.redisUrl, config.limitStoreTimeoutMs ?? DEFAULT_TIMEOUT_MS, logger);
}

/** LIMIT_STORE_TIMEOUT_MS's default, for callers that build a partial config. */
const DEFAULT_TIMEOUT_MS = 100;

function createMemoryStores(): LimitStores {
  const stores = {
    key: new MemoryStore(),
    invalidKey: new MemoryStore(),
    bible: new MemoryStore(),
    mcp: new MemoryStore(),
    signInAccount: new MemoryStore(),
    signInClient: new MemoryStore(),
    mailAddress: new MemoryStore(),
    mailClient: new MemoryStore(),
    signUpClient: new MemoryStore(),
  };
  return {
    kind: 'memory',
    ...stores,
    async close() {
      for (const store of Object.values(stores)) store.shutdown();
    },
  };
}

async function createRedisStores(url: string, timeoutMs: number, logger: Logger): Promise<LimitStores> {
  // Loaded only here: an instance without REDIS_URL never holds node-redis (about 4 MB of heap, measured alone), towards
  // the service's 150 MB peak (issue 28).
  const [{ createClient }, { RedisStore }] = await Promise.all([import('redis'), import('rate-limit-redis')]);
  let started = false;
  const client = redisClient(createClient, url, () => started);
  // One reporter for the connection and every store: an outage is one log line per interval, not one per request.
  const outage = createOutageReporter(logger);
  client.on('error', (error: unknown) => {
    if (started) outage.report(error, 'rate-limit Redis connection error; limits count in each instance until it is back');
  });
  try {
    await client.connect();
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw new LimitStoreError(`cannot connect to the rate-limit Redis at ${redactUrl(url)}: ${errorMessage(error)}`, { cause: error });
  }
  started = true;
  logger.info({ url: redactUrl(url) }, 'rate limits use Redis');

  const sendCommand = (...args: string[]): Promise<RedisReply> => client.sendCommand(args);
  const store = (prefix: string) => boundedStore(new RedisStore({ sendCommand, prefix }), timeoutMs, outage);
  return {
    kind: 'redis',
    key: store(REDIS_PREFIXES.key),
    invalidKey: store(REDIS_PREFIXES.invalidKey),
    bible: store(REDIS_PREFIXES.bible),
    mcp: store(REDIS_PREFIXES.mcp),
    signInAccount: store(REDIS_PREFIXES.signInAccount),
    signInClient: store(REDIS_PREFIXES.signInClient),
    mailAddress: store(REDIS_PREFIXES.mailAddress),
    mailClient: store(REDIS_PREFIXES.mailClient),
    signUpClient: store(REDIS_PREFIXES.signUpClient),
    async close() {
      started = false;
      if (client.isOpen) await client.close();
    },
    async ping() {
      await client.ping();
    },
  };
}

/** A client that fails fast before `started()` and reconnects after; a URL node-redis refuses is a LimitStoreError. */
function redisClient(createClient: typeof import('redis').createClient, url: string, started: () => boolean) {
  try {
    return createClient({
      url,
      // Commands fail at once while disconnected instead of queueing behind a dead connection.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 5_000,
        // At start: give up at once (fail fast). Later: reconnect with a capped backoff.
        reconnectStrategy: (retries, cause) => (started() ? Math.min(100 * 2 ** retries, 5_000) : cause),
      },
    });
  } catch (error) {
    throw new LimitStoreError(`cannot use ${redactUrl(url)}: ${errorMessage(error)}`, { cause: error });
  }
}

/** The URL without its password, for logs and errors. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'redacted';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(errorMessage).join('; ');
  return error instanceof Error ? error.message || error.name : String(error);
}
