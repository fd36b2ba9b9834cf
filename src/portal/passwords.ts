// Password hashing with scrypt from node:crypto: self-describing hashes, constant-time checks, a dummy check for unknown accounts.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { createWorkGate, type WorkGateOptions } from './work-gate.ts';

export interface PasswordHasher {
  /** A new salted hash: `scrypt$N$r$p$salt$hash` (base64). */
  hash(password: string): Promise<string>;
  /** Whether the password matches the stored hash (its own N, r and p, so older costs keep working). */
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * Spends the time of one check and answers false: used when the account is unknown or has no
   * password, so the answer takes as long as for a known account.
   */
  verifyNothing(password: string): Promise<false>;
}

/** OWASP's scrypt setting: N=2^17, r=8, p=1 (about 128 MiB and a few tenths of a second per hash). */
export const DEFAULT_SCRYPT_COST = 2 ** 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

/** One hash at a time, up to 16 waiting up to 5 s: the defaults of PASSWORD_HASH_CONCURRENCY, _QUEUE and _WAIT_MS. */
export const DEFAULT_HASHING_LIMITS: Readonly<WorkGateOptions> = { concurrency: 1, queue: 16, waitMs: 5_000 };

/**
 * A hasher at cost N (a power of two; PASSWORD_SCRYPT_N, lower in tests). Every derivation goes
 * through one gate (work-gate.ts): at most `limits.concurrency` at once, so memory stays at
 * 128 × N × 8 bytes each (128 MiB at 2^17) however many arrive; checks (sign-ins) start before
 * waiting hashes (sign-ups, resets); a caller that cannot start within the wait is refused with
 * WorkGateBusy (the portal answers 503 with Retry-After).
 *
 * @example
 * const passwords = createPasswordHasher(2 ** 17);
 * const stored = await passwords.hash('correct horse battery staple');
 * await passwords.verify('correct horse battery staple', stored); // true
 */
export function createPasswordHasher(cost: number = DEFAULT_SCRYPT_COST, limits: WorkGateOptions = DEFAULT_HASHING_LIMITS): PasswordHasher {
  if (!Number.isInteger(Math.log2(cost)) || cost < 2) throw new Error(`The scrypt cost must be a power of two, got ${cost}.`);
  const gate = createWorkGate(limits);
  // A hash made now, checked against when the account is unknown: same parameters, same work.
  let dummy: Promise<string> | undefined;
  const hasher: PasswordHasher = {
    async hash(password) {
      const salt = randomBytes(SALT_BYTES);
      const derived = await gate.run(() => derive(password, salt, cost, BLOCK_SIZE, PARALLELISM));
      return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), derived.toString('base64')].join('$');
    },
    async verify(password, stored) {
      const parsed = parseHash(stored);
      if (!parsed) return false;
      const derived = await gate.run(() => derive(password, parsed.salt, parsed.cost, parsed.blockSize, parsed.parallelism), true);
      return derived.length === parsed.hash.length && timingSafeEqual(derived, parsed.hash);
    },
    async verifyNothing(password) {
      dummy ??= hasher.hash(randomBytes(16).toString('hex'));
      await hasher.verify(password, await dummy);
      return false;
    },
  };
  return hasher;
}

interface ParsedHash {
  cost: number;
  blockSize: number;
  parallelism: number;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [cost, blockSize, parallelism] = parts.slice(1, 4).map(Number);
  if (![cost, blockSize, parallelism].every((value) => Number.isInteger(value) && value > 0)) return undefined;
  return { cost, blockSize, parallelism, salt: Buffer.from(parts[4], 'base64'), hash: Buffer.from(parts[5], 'base64') };
}

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node refuses more than 32 MiB unless maxmem says otherwise.
  const maxmem = 128 * cost * blockSize * parallelism + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, HASH_BYTES, { N: cost, r: blockSize, p: parallelism, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}
