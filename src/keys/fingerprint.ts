// Keyed fingerprints of API keys (HMAC-SHA-256 with a server secret), and where that secret comes from.
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError } from '../config.ts';
import type { Logger } from '../http/logger.ts';

export interface Fingerprinter {
  /** Lowercase hex HMAC-SHA-256 of the full key: what the database stores and looks keys up by. */
  fingerprint(key: string): string;
}

/** Shortest secret accepted, in characters (the generated one is 64 hex characters). */
const MIN_SECRET_LENGTH = 32;

/**
 * A fingerprinter over one secret.
 *
 * @example createFingerprinter(secret).fingerprint('sk_live_…') // '3f9a…' (64 hex characters)
 */
export function createFingerprinter(secret: string): Fingerprinter {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`The key fingerprint secret must be at least ${MIN_SECRET_LENGTH} characters.`);
  // The secret's UTF-8 bytes (what createHmac makes of a string) as a key object once, not converted again on every request.
  const hmacKey = createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    fingerprint(key) {
      return createHmac('sha256', hmacKey).update(key, 'utf8').digest('hex');
    },
  };
}

/**
 * The fingerprint secret: config.keyFingerprintSecret if set, else the contents of
 * config.keySecretFile, else a new random secret written to that file (mode 0600).
 * Changing the secret invalidates every key, so it is created once and never rotated silently.
 * A file that cannot be read, written or trusted is a ConfigError naming KEY_SECRET_FILE.
 */
export function loadOrCreateSecret(config: Pick<Config, 'keyFingerprintSecret' | 'keySecretFile'>, logger: Logger): string {
  if (config.keyFingerprintSecret !== undefined) return config.keyFingerprintSecret;
  const file = config.keySecretFile;
  const existing = readSecretFile(file);
  if (existing !== undefined) return existing;
  try {
    createSecretFile(file, logger);
  } catch (error) {
    throw new ConfigError('KEY_SECRET_FILE', `cannot create the key fingerprint secret ${file} (${errorMessage(error)})`, { cause: error });
  }
  const created = readSecretFile(file);
  if (created === undefined) throw new ConfigError('KEY_SECRET_FILE', `could not read the key fingerprint secret back from ${file}`);
  return created;
}

/**
 * The secret stored in `file`, or undefined when there is no such file yet.
 * Throws a ConfigError naming KEY_SECRET_FILE when the file cannot be read or is too short.
 */
export function readSecretFile(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    // ENOTDIR: a parent is a file, so there is no secret there yet either (creating it will say why not).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError('KEY_SECRET_FILE', `cannot read the key fingerprint secret ${file} (${errorMessage(error)})`, { cause: error });
  }
  const secret = text.trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      'KEY_SECRET_FILE',
      `the key fingerprint secret in ${file} is shorter than ${MIN_SECRET_LENGTH} characters; restore it from backup`,
    );
  }
  return secret;
}

function createSecretFile(file: string, logger: Logger): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // link() refuses to replace an existing file: if another process created the secret first, its secret wins.
    fs.linkSync(temporary, file);
    logger.info({ file }, 'created the key fingerprint secret; back it up, losing it invalidates every API key');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
