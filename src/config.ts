// Environment → one typed, frozen Config, validated once at start.
import { isIP } from 'node:net';
import path from 'node:path';
import type { LevelWithSilent } from 'pino';
import { parsePublicBaseUrl } from '../build/contract/http-policy.ts';
import { defaultOutputs } from '../build/contract/layout.ts';
import { DEFAULT_RESERVED_MATCHING, type ReservedMatching } from './accounts/email-address.ts';
import { DEFAULT_ANSWER_CACHE_BYTES } from './bible/answer-cache.ts';

export interface Config {
  /** HTTP port; 0 picks a free one (tests). */
  port: number;
  /** Interface to listen on. Default loopback: put a TLS-terminating proxy in front on a VPS. */
  host: string;
  /** SQLite file of the church data, keys and accounts; ':memory:' for tests. Unused when `postgres` is set. */
  databasePath: string;
  /** PostgreSQL instead of the SQLite file (DATABASE_URL), for several instances sharing one database. */
  postgres?: PostgresConfig;
  /**
   * SQLite only: how long a request waits for another process's write lock (an import, the CLI),
   * retrying on timers so the event loop never waits; past it, 503 database-unavailable.
   */
  databaseLockWaitMs: number;
  /** Load the fictional demo churches into an empty database at start; off unless asked for (`npm start` asks). */
  demoData: boolean;
  /** The static Bible tree written by `npm run build:bible`. */
  biblePublicDir: string;
  /** The Bible query database written by `npm run build:bible`. */
  bibleDatabasePath: string;
  /** /readyz checks that a Bible build is loaded (READYZ_BIBLE); false for an instance meant to serve church data only. */
  readyzBible: boolean;
  /** Per-IP limit per minute on the Bible's dynamic endpoints (range, search); 0 turns it off. */
  bibleRateLimitPerMinute: number;
  /** Per-IP limit per minute on MCP messages to /mcp; 0 turns it off. */
  mcpRateLimitPerMinute: number;
  /** Most verses one passage request answers (`BIBLE_PASSAGE_MAX_VERSES`); more is a 400 naming ref. */
  biblePassageMaxVerses: number;
  /** Worker threads that run Bible searches off the event loop, each with its own read-only connection. */
  bibleSearchWorkers: number;
  /** Searches that may wait for a busy worker; one more answers 503 search-busy with Retry-After. */
  bibleSearchQueue: number;
  /** Time budget of one search on its worker, in ms; past it, 503 search-busy and the worker is replaced. */
  bibleSearchTimeoutMs: number;
  /** Bytes of range and search answers kept per build (`BIBLE_ANSWER_CACHE_BYTES`, 4 MiB); 0 keeps none (the bench measures queries so). */
  bibleAnswerCacheBytes: number;
  /** Requests per minute per key on church endpoints (spec: 120). */
  keyRateLimitPerMinute: number;
  /** Requests per minute per client address that carry an invalid key. */
  invalidKeyLimitPerMinute: number;
  /** Redis URL of the shared rate-limit store; unset means an in-process store. */
  redisUrl?: string;
  /** A rate-limit store call that takes longer fails: the request is counted in this instance instead (the outage is logged). */
  limitStoreTimeoutMs: number;
  /** Open connections the HTTP server accepts at once; past it, new sockets are closed at once. */
  maxConnections: number;
  /** A client must send its whole request head within this time (closes slowloris sockets). */
  headersTimeoutMs: number;
  /** A client must send its whole request, body included, within this time. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** Secret of the HMAC-SHA-256 key fingerprints. Unset: a file in var/, created on first start. */
  keyFingerprintSecret?: string;
  /** Where the generated fingerprint secret lives when KEY_FINGERPRINT_SECRET is unset. */
  keySecretFile: string;
  /**
   * Express `trust proxy` setting, so the client address is right behind a reverse proxy: off, a hop
   * count, or the proxies' addresses, CIDR ranges and express's names (loopback, linklocal, uniquelocal).
   * Never "every hop": a client could then choose its own address with X-Forwarded-For.
   */
  trustProxy: false | number | string[];
  /** Base of the links to public church pages (publicPage, registrationPage…). */
  publicSiteUrl: string;
  /**
   * The address clients reach this service at (no trailing slash); problem `type` URIs point
   * at its docs page (`<publicBaseUrl>/docs/problems#<slug>`). Default `http://127.0.0.1:<PORT>`.
   */
  publicBaseUrl: string;
  /** pino's level names; `silent` turns logging off. */
  logLevel: LevelWithSilent;
  /** The developer portal as developers reach it (links in e-mails, OIDC redirect); default `<publicBaseUrl>/portal`. */
  portalUrl: string;
  /** SMTP server of the portal's e-mail (`smtp://user:pass@host:587`); unset: .eml files in mailOutboxDir. */
  smtpUrl?: string;
  /** Sender of the portal's e-mail. */
  mailFrom: string;
  /** Where messages go without SMTP (their links are logged too). */
  mailOutboxDir: string;
  /** SMTP connections open at once (the one pooled transport's cap), and so messages sent at once. */
  smtpMaxConnections: number;
  /** nodemailer's connection, greeting and socket timeouts: an SMTP server silent this long fails the attempt. */
  smtpTimeoutMs: number;
  /** Attempts at one message before it is recorded as failed. */
  mailMaxAttempts: number;
  /** Wait before the second attempt; doubled after each failure, up to an hour. */
  mailRetryBaseMs: number;
  /** How often a sender looks for due messages: new ones (a request only writes its row), retries, other instances'. */
  mailPollIntervalMs: number;
  /** Mails of one kind (verification, password reset) one address receives per hour at most. */
  mailPerAddressPerHour: number;
  /** Mails one client address may cause per hour, of every kind and to any address. */
  mailPerClientPerHour: number;
  /** Portal accounts one client address may create per hour. */
  signUpsPerClientPerHour: number;
  /** How local parts are read when an address is compared with the reserved list (RESERVED_EMAIL_IGNORE). */
  reservedEmailMatching: ReservedMatching;
  /** An OpenID Connect provider developers may sign in with; unset: e-mail and password only. */
  oidc?: OidcConfig;
  /** scrypt cost N of new password hashes (a power of two; OWASP: 2^17). */
  passwordScryptCost: number;
  /** Password hashes computed at once (each takes 128 × N × 8 bytes: 128 MiB at N=2^17). */
  passwordHashConcurrency: number;
  /** Requests that may wait for a hash; one more answers 503 with Retry-After at once. */
  passwordHashQueue: number;
  /** Longest a request waits for a hash to start; past it, 503 with Retry-After. */
  passwordHashWaitMs: number;
  /** A portal session ends after this many hours without a request. */
  sessionIdleHours: number;
  /** The portal cookie's Secure flag; `auto`: set when the request came over TLS (trust proxy aware). */
  sessionCookieSecure: boolean | 'auto';
}

export interface PostgresConfig {
  /** `postgres://user:password@host:5432/database`; it may hold a password, so it is never logged. */
  url: string;
  /** Most connections one instance opens at once (DATABASE_POOL_MAX). */
  maxConnections: number;
  /** Longest wait for a connection, at start and per request (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /** Longest a statement may run, and a transaction sit idle (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs: number;
}

export interface OidcConfig {
  /** Issuer URL; its /.well-known/openid-configuration is read at the first sign-in. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Label of the button: "Sign in with <name>". */
  name: string;
}

/** Thrown at start for a bad setting, here or where the setting is first used (a file, Redis); names the variable. */
export class ConfigError extends Error {
  constructor(variable: string, message: string, options?: { cause?: unknown }) {
    super(`${variable}: ${message}`, options);
    this.name = 'ConfigError';
  }
}

/** Reads the environment once; every setting has a documented default (docs/configuration.md). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Readonly<Config> {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const config: Config = {
    port,
    host: host(env.HOST),
    databasePath: env.DATABASE_PATH === ':memory:' ? ':memory:' : path.resolve(root, env.DATABASE_PATH || 'var/church.sqlite'),
    postgres: postgres(env),
    databaseLockWaitMs: integer(env, 'DATABASE_LOCK_WAIT_MS', 1_000, 0, 60_000),
    demoData: boolean(env, 'DEMO_DATA', false),
    biblePublicDir: path.resolve(root, env.BIBLE_PUBLIC_DIR || defaultOutputs.publicDir),
    bibleDatabasePath: path.resolve(root, env.BIBLE_DB_PATH || defaultOutputs.database),
    readyzBible: boolean(env, 'READYZ_BIBLE', true),
    bibleRateLimitPerMinute: integer(env, 'BIBLE_RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    mcpRateLimitPerMinute: integer(env, 'MCP_RATE_LIMIT_PER_MINUTE', 300, 0, 1_000_000),
    biblePassageMaxVerses: integer(env, 'BIBLE_PASSAGE_MAX_VERSES', 500, 1, 100_000),
    bibleSearchWorkers: integer(env, 'BIBLE_SEARCH_WORKERS', 2, 1, 64),
    bibleSearchQueue: integer(env, 'BIBLE_SEARCH_QUEUE', 64, 0, 100_000),
    bibleSearchTimeoutMs: integer(env, 'BIBLE_SEARCH_TIMEOUT_MS', 1000, 1, 60_000),
    bibleAnswerCacheBytes: integer(env, 'BIBLE_ANSWER_CACHE_BYTES', DEFAULT_ANSWER_CACHE_BYTES, 0, 256 * 1024 * 1024),
    keyRateLimitPerMinute: integer(env, 'KEY_RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000),
    invalidKeyLimitPerMinute: integer(env, 'INVALID_KEY_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    redisUrl: redisUrl(env.REDIS_URL),
    limitStoreTimeoutMs: integer(env, 'LIMIT_STORE_TIMEOUT_MS', 100, 1, 60_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 1_000, 1, 1_000_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    keyFingerprintSecret: env.KEY_FINGERPRINT_SECRET || undefined,
    keySecretFile: path.resolve(root, env.KEY_SECRET_FILE || 'var/key-fingerprint.secret'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    publicSiteUrl: httpUrl(env, 'PUBLIC_SITE_URL') ?? 'https://churches.example.org',
    publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL, port),
    logLevel: logLevel(env.LOG_LEVEL),
    portalUrl: httpUrl(env, 'PORTAL_URL') ?? `${publicBaseUrl(env.PUBLIC_BASE_URL, port)}/portal`,
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM),
    mailOutboxDir: path.resolve(root, env.MAIL_OUTBOX_DIR || 'var/outbox'),
    smtpMaxConnections: integer(env, 'SMTP_MAX_CONNECTIONS', 2, 1, 50),
    smtpTimeoutMs: integer(env, 'SMTP_TIMEOUT_MS', 20_000, 100, 600_000),
    mailMaxAttempts: integer(env, 'MAIL_MAX_ATTEMPTS', 8, 1, 100),
    mailRetryBaseMs: integer(env, 'MAIL_RETRY_BASE_MS', 30_000, 10, 3_600_000),
    mailPollIntervalMs: integer(env, 'MAIL_POLL_INTERVAL_MS', 1_000, 10, 3_600_000),
    mailPerAddressPerHour: integer(env, 'MAIL_PER_ADDRESS_PER_HOUR', 3, 1, 1_000_000),
    mailPerClientPerHour: integer(env, 'MAIL_PER_CLIENT_PER_HOUR', 10, 1, 1_000_000),
    signUpsPerClientPerHour: integer(env, 'SIGN_UPS_PER_CLIENT_PER_HOUR', 10, 1, 1_000_000),
    reservedEmailMatching: reservedEmailIgnore(env.RESERVED_EMAIL_IGNORE),
    oidc: oidc(env),
    passwordScryptCost: powerOfTwo(env, 'PASSWORD_SCRYPT_N', 2 ** 17),
    passwordHashConcurrency: integer(env, 'PASSWORD_HASH_CONCURRENCY', 1, 1, 64),
    passwordHashQueue: integer(env, 'PASSWORD_HASH_QUEUE', 16, 0, 10_000),
    passwordHashWaitMs: integer(env, 'PASSWORD_HASH_WAIT_MS', 5_000, 1, 600_000),
    sessionIdleHours: integer(env, 'SESSION_IDLE_HOURS', 24, 1, 24 * 90),
    sessionCookieSecure: cookieSecure(env.SESSION_COOKIE_SECURE),
  };
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS',
      `must not exceed REQUEST_TIMEOUT_MS (${config.requestTimeoutMs}), got ${config.headersTimeoutMs}`,
    );
  }
  if (config.keyFingerprintSecret !== undefined && config.keyFingerprintSecret.length < 32) {
    throw new ConfigError('KEY_FINGERPRINT_SECRET', 'must be at least 32 characters (use `openssl rand -hex 32`)');
  }
  return Object.freeze(config);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be from ${min} to ${max}, got ${value}`);
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

/** PUBLIC_BASE_URL, else where `npm start` listens (the Bible build's default for the same port). */
function publicBaseUrl(raw: string | undefined, port: number): string {
  if (raw === undefined || raw === '') return `http://127.0.0.1:${port}`;
  try {
    return parsePublicBaseUrl(raw);
  } catch (error) {
    throw new ConfigError('PUBLIC_BASE_URL', (error as Error).message);
  }
}

/** An absolute http(s) URL without trailing slash, or undefined when unset. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, 'must be an http:// or https:// URL');
  return raw.replace(/\/+$/, '');
}

/** OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: all three or none. */
function oidc(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = httpUrl(env, 'OIDC_ISSUER');
  const clientId = env.OIDC_CLIENT_ID || undefined;
  const clientSecret = env.OIDC_CLIENT_SECRET || undefined;
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return undefined;
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
    const missing = [issuer ? '' : 'OIDC_ISSUER', clientId ? '' : 'OIDC_CLIENT_ID', clientSecret ? '' : 'OIDC_CLIENT_SECRET'].filter(
      Boolean,
    );
    throw new ConfigError(missing[0], `OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together; missing ${missing.join(', ')}`);
  }
  const { protocol, hostname } = new URL(issuer);
  if (protocol === 'http:' && !isLoopbackHost(hostname)) {
    throw new ConfigError('OIDC_ISSUER', `must be an https:// URL (plain http:// only for a provider on this machine), got ${issuer}`);
  }
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME || 'OpenID Connect' };
}

/** localhost, 127.x.x.x or [::1]: the only hosts an OpenID Connect provider may be reached at over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** An IP address or a host name (RFC 1123 labels): not a URL, and no port (PORT says that). */
function host(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '127.0.0.1';
  const name = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
  if (isIP(raw) === 0 && !name.test(raw)) {
    throw new ConfigError('HOST', `must be an IP address or a host name to listen on (the port goes in PORT), got "${raw}"`);
  }
  return raw;
}

/**
 * SMTP_URL: `smtp://` (STARTTLS when the server offers it) or `smtps://` (TLS from the start) with a
 * host, as nodemailer reads it. Never echoed: it may hold the SMTP password.
 */
/** Options the service sets itself on its one pooled transport (SMTP_MAX_CONNECTIONS, SMTP_TIMEOUT_MS): not taken from SMTP_URL. */
const SMTP_URL_OWN_OPTIONS = ['pool', 'maxConnections', 'maxMessages', 'connectionTimeout', 'greetingTimeout', 'socketTimeout'];

function smtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const expected = 'expected smtp://user:password@mail.example.org:587 or smtps://user:password@mail.example.org:465';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL', `is not a URL; ${expected}`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError('SMTP_URL', `must start with smtp:// or smtps://, got ${url.protocol}//; ${expected}`);
  }
  if (url.hostname === '') throw new ConfigError('SMTP_URL', `names no host; ${expected}`);
  const own = SMTP_URL_OWN_OPTIONS.filter((option) => url.searchParams.has(option));
  if (own.length > 0) {
    throw new ConfigError(
      'SMTP_URL',
      `sets ${own.join(', ')}, which the service sets itself (one pooled connection set: SMTP_MAX_CONNECTIONS, SMTP_TIMEOUT_MS)`,
    );
  }
  return raw;
}

/** RESERVED_EMAIL_IGNORE: a comma-separated list of `plus-tags` and `dots`, or `none`; default `plus-tags`. */
function reservedEmailIgnore(raw: string | undefined): ReservedMatching {
  if (raw === undefined || raw.trim() === '') return { ...DEFAULT_RESERVED_MATCHING };
  const parts = raw.split(',').map((part) => part.trim().toLowerCase());
  if (parts.length === 1 && parts[0] === 'none') return { plusTags: false, dots: false };
  const unknown = parts.filter((part) => part !== 'plus-tags' && part !== 'dots');
  if (unknown.length > 0) {
    throw new ConfigError('RESERVED_EMAIL_IGNORE', `must be none or a comma-separated list of plus-tags and dots, got "${raw}"`);
  }
  return { plusTags: parts.includes('plus-tags'), dots: parts.includes('dots') };
}

/** MAIL_FROM: an address, alone or after a display name in angle brackets. */
function mailFrom(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'Church API <no-reply@localhost>';
  const address = /^[^\s@<>",;]+@[^\s@<>",;]+$/;
  const named = /^([^<>"\r\n]*|"[^"\r\n]*")\s*<([^<>]+)>$/.exec(raw.trim());
  if (!(named ? address.test(named[2]) : address.test(raw.trim()))) {
    throw new ConfigError(
      'MAIL_FROM',
      `must be an address (no-reply@example.org) or a name and an address (Church API <no-reply@example.org>), got "${raw}"`,
    );
  }
  return raw;
}

function powerOfTwo(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback, 2, 2 ** 24);
  if (!Number.isInteger(Math.log2(value))) throw new ConfigError(name, `must be a power of two, got ${value}`);
  return value;
}

function cookieSecure(raw: string | undefined): boolean | 'auto' {
  if (raw === undefined || raw === '' || raw === 'auto') return 'auto';
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError('SESSION_COOKIE_SECURE', `must be auto, true or false, got "${raw}"`);
}

/** Express's names for address ranges, accepted in TRUST_PROXY. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const text = raw?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new ConfigError('TRUST_PROXY', `must be a small number of proxies in front of the service, got ${hops}`);
    return hops;
  }
  if (text === 'true' || text === '*') {
    throw new ConfigError(
      'TRUST_PROXY',
      `"${text}" would trust every hop, so any client could choose its own address with X-Forwarded-For; give the number of proxies in front (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8)`,
    );
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `"${entry}" is not a proxy address: use a hop count, or a comma-separated list of addresses, CIDR ranges (10.0.0.0/8) and ${TRUST_PROXY_NAMES.join(', ')}`,
      );
    }
  }
  return entries;
}

/** An IP address, an address/prefix-length range, or one of express's range names. */
function isProxyAddress(entry: string): boolean {
  if (TRUST_PROXY_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** DATABASE_URL and its pool settings; undefined when DATABASE_URL is unset (SQLite). */
function postgres(env: NodeJS.ProcessEnv): PostgresConfig | undefined {
  // Checked even without DATABASE_URL: a bad setting is reported whether or not it is used yet.
  const maxConnections = integer(env, 'DATABASE_POOL_MAX', 10, 1, 1_000);
  const connectTimeoutMs = integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000);
  const statementTimeoutMs = integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5_000, 100, 600_000);
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed: the value may hold a password.
    throw new ConfigError('DATABASE_URL', 'is not a URL; expected postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      'DATABASE_URL',
      `must start with postgres:// or postgresql://, got ${url.protocol}// (for SQLite, set DATABASE_PATH instead)`,
    );
  }
  if (url.pathname.length <= 1)
    throw new ConfigError('DATABASE_URL', 'names no database: expected postgres://user:password@host:5432/database');
  return { url: raw, maxConnections, connectTimeoutMs, statementTimeoutMs };
}

function redisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError('REDIS_URL', 'is not a URL; expected redis://host:6379 or rediss://host:6380');
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new ConfigError('REDIS_URL', `must start with redis:// or rediss://, got ${protocol}//`);
  }
  return raw;
}

function logLevel(raw: string | undefined): Config['logLevel'] {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
  if (raw === undefined || raw === '') return 'info';
  const found = levels.find((level) => level === raw);
  if (!found) throw new ConfigError('LOG_LEVEL', `must be one of ${levels.join(', ')}`);
  return found;
}
