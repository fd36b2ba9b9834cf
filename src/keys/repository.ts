// Developer accounts, their API keys and the reserved e-mail list, behind one interface.
import type { Fingerprinter } from './fingerprint.ts';

export interface Developer {
  id: number;
  name: string;
  email: string;
  /** ISO time the address was verified; null while unverified. */
  emailVerifiedAt: string | null;
  createdAt: string;
}

/** What is kept about a key: never the key, only a hint of it. */
export interface ApiKeyRecord {
  id: number;
  developerId: number;
  name: string;
  /** Last 4 characters of the key. */
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The result of creating a key: the full key, to be shown once, and what was stored. */
export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

/** An active key found by its fingerprint. */
export interface ActiveKey {
  id: number;
  developerId: number;
}

export interface NewDeveloper {
  name: string;
  email: string;
  /** Verified at creation (an identity provider vouched for it, or the operator did). */
  verified?: boolean;
}

/** A developer may hold this many active keys at once (spec, section 8). */
export const MAX_ACTIVE_KEYS = 5;
/** "Last used" is written at most once per this interval per key, so reads stay reads. */
export const LAST_USED_INTERVAL_MS = 60_000;

export type KeyRefusalCode =
  | 'invalid-email'
  | 'invalid-name'
  | 'reserved-email'
  | 'duplicate-email'
  | 'unknown-developer'
  | 'unverified-email'
  | 'key-limit'
  | 'unknown-key';

/** A refusal the caller can act on (the CLI prints it; the portal would show it). */
export class KeyRefusal extends Error {
  readonly code: KeyRefusalCode;
  constructor(code: KeyRefusalCode, message: string) {
    super(message);
    this.name = 'KeyRefusal';
    this.code = code;
  }
}

export interface KeyRepository {
  /** Creates an account; refuses reserved, duplicate or malformed addresses and empty names. */
  createDeveloper(input: NewDeveloper): Developer;
  /** Case-insensitive lookup by e-mail. */
  findDeveloperByEmail(email: string): Developer | undefined;
  /** Marks the address verified (idempotent: keeps the first verification time). */
  verifyDeveloperEmail(developerId: number, when?: Date): Developer;
  /**
   * Creates a key; the returned `key` is the only copy there will ever be.
   * Refuses an unverified address, a 6th active key and an empty name.
   */
  createKey(developerId: number, name: string, fingerprinter: Fingerprinter): CreatedKey;
  /** The developer's keys, newest first (hint, name, times; never the key). */
  listKeys(developerId: number): ApiKeyRecord[];
  /** Revokes one of the developer's keys, at once. Revoking a revoked key keeps the first time. */
  revokeKey(developerId: number, keyId: number, when?: Date): ApiKeyRecord;
  /** The active (not revoked) key with this fingerprint, if any. */
  activeKeyByFingerprint(fingerprint: string): ActiveKey | undefined;
  /** Records a use; writes at most once a minute per key. Returns whether it wrote. */
  markUsed(keyId: number, when: Date): boolean;
  /** Whether the address is on the reserved list. */
  isReservedEmail(email: string): boolean;
  /** Adds addresses to the reserved list; validates all first and writes all or none. Returns how many were new. */
  importReservedEmails(emails: readonly string[]): number;
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed address, or a KeyRefusal naming what is wrong with it. */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL_SHAPE.test(trimmed)) throw new KeyRefusal('invalid-email', `Not a valid e-mail address: "${email}".`);
  return trimmed;
}
