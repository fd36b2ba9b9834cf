// The API key format: `sk_live_` + 33 random base62 characters + a 6-character base62 CRC32 checksum.
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every key starts with this, so leaked keys are easy to scan for. */
export const KEY_PREFIX = 'sk_live_';
/** 33 base62 characters carry 33 × log2(62) ≈ 196.5 bits of randomness (the contract asks for at least 192). */
export const KEY_RANDOM_LENGTH = 33;
/** CRC32 of the random part in base62, zero-padded (62^6 > 2^32). */
export const KEY_CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH;
/** Characters of the key shown to its owner after creation, for telling keys apart. */
export const KEY_HINT_LENGTH = 4;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH}}$`);

/**
 * A new key from the system's cryptographic random source.
 *
 * @example generateKey() // 'sk_live_8fK…Q2x0aZ1b'
 */
export function generateKey(): string {
  const random = randomBase62(KEY_RANDOM_LENGTH);
  return KEY_PREFIX + random + checksumOf(random);
}

/**
 * Whether `value` has the prefix, charset, length and a matching checksum: a cheap test
 * that refuses typos and garbage before any database work.
 *
 * @example isWellFormedKey(generateKey()) // true
 */
export function isWellFormedKey(value: string): boolean {
  if (value.length !== KEY_LENGTH || !KEY_SHAPE.test(value)) return false;
  const random = value.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_RANDOM_LENGTH);
  return value.slice(KEY_PREFIX.length + KEY_RANDOM_LENGTH) === checksumOf(random);
}

/** The non-secret hint stored and shown for a key: its last characters. */
export function keyHint(key: string): string {
  return key.slice(-KEY_HINT_LENGTH);
}

function checksumOf(random: string): string {
  let value = crc32(random);
  let out = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Rejection sampling: only bytes below 248 (= 4 × 62) are used, so every character is equally likely. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
