// Storage of developer accounts, API key fingerprints and the reserved e-mail list: store and fetch, no rules.
import type { ActiveKey, ApiKeyRecord, DeletedDeveloper, Developer, DeveloperListing } from './types.ts';

/** A developer row to write; the address arrives normalised, the times as ISO strings. */
export interface DeveloperInsert {
  name: string;
  email: string;
  emailVerifiedAt: string | null;
  createdAt: string;
}

/** A key row to write: its fingerprint and hint, never the key. */
export interface KeyInsert {
  name: string;
  /** Lowercase hex HMAC-SHA-256 of the key (see src/keys/fingerprint.ts). */
  fingerprint: string;
  hint: string;
  createdAt: string;
}

/** "Last used" is written at most once per this interval per key, so reads stay reads. */
export const LAST_USED_INTERVAL_MS = 60_000;

/**
 * What the account service (src/accounts/service.ts) needs from storage. Implementations decide
 * nothing: every rule (limits, reserved and verified addresses, names, normalisation) is the
 * service's. Where a rule must hold across processes, the repository offers an atomic primitive
 * and the service supplies the number or the decision (`insertKeyIfActiveBelow`).
 * Addresses are compared as given: the service normalises them before every call.
 * The contract is test/accounts/repository-contract.test.ts; a second backend must pass it.
 *
 * @example
 * const key = await repository.insertKeyIfActiveBelow(developer.id, 5, { name, fingerprint, hint, createdAt });
 * if (!key) … // the developer already has 5 active keys
 */
export interface AccountRepository {
  /**
   * Writes a developer; undefined when a developer with this address already exists. The unique
   * address is the store's guarantee, so two sign-ups racing for one address cannot both succeed.
   */
  insertDeveloper(developer: DeveloperInsert): Promise<Developer | undefined>;
  developerById(id: number): Promise<Developer | undefined>;
  developerByEmail(email: string): Promise<Developer | undefined>;
  /** Sets the developer's name; undefined for an unknown developer. */
  updateDeveloperName(developerId: number, name: string): Promise<Developer | undefined>;
  /** Every developer with their count of active keys, oldest account first. */
  listDevelopers(): Promise<DeveloperListing[]>;
  /** Sets the verification time unless one is set already (the first one is kept); undefined for an unknown developer. */
  markEmailVerified(developerId: number, verifiedAt: string): Promise<Developer | undefined>;
  /**
   * Deletes the developer and their keys in one transaction, so none of the keys authenticates
   * once this resolves; undefined for an unknown developer.
   */
  deleteDeveloper(developerId: number): Promise<DeletedDeveloper | undefined>;

  /**
   * Writes the key only if the developer has fewer than `limit` active keys, atomically: two
   * processes creating keys at once cannot both pass the count. Returns the stored record, or
   * undefined when the developer is at the limit.
   * SQLite: count and insert in one BEGIN IMMEDIATE transaction (the write lock is taken before
   * counting). PostgreSQL: in one transaction, lock the developer row (`SELECT … FOR UPDATE`)
   * before counting, so concurrent inserts for one developer queue behind each other.
   */
  insertKeyIfActiveBelow(developerId: number, limit: number, key: KeyInsert): Promise<ApiKeyRecord | undefined>;
  /** The developer's keys, active and revoked, newest first. */
  listKeys(developerId: number): Promise<ApiKeyRecord[]>;
  /**
   * Sets the revocation time of one of the developer's keys unless it is revoked already (the
   * first time is kept); from then on activeKeyByFingerprint no longer finds it. Undefined when the
   * developer has no key with this id.
   */
  revokeKey(developerId: number, keyId: number, revokedAt: string): Promise<ApiKeyRecord | undefined>;
  /** The key with this fingerprint if it is not revoked. */
  activeKeyByFingerprint(fingerprint: string): Promise<ActiveKey | undefined>;
  /**
   * Records a use at `when`, writing at most once per LAST_USED_INTERVAL_MS per key, also across
   * processes sharing the store. Returns whether it wrote.
   */
  markUsed(keyId: number, when: Date): Promise<boolean>;

  /** Whether a reserved address has this comparison key (reservedMatchKey in email-address.ts). */
  isReservedMatch(matchKey: string): Promise<boolean>;
  /** Adds addresses with their keys in one transaction (all or none); returns how many were not on the list yet. */
  addReservedEmails(entries: readonly ReservedEmailInsert[], matchRules: string, importedAt: string): Promise<number>;
  /** The reserved addresses whose key was made with other rules than `matchRules` (or none yet): to be keyed again. */
  reservedEmailsKeyedOtherwise(matchRules: string): Promise<string[]>;
  /** Stores new keys of listed addresses, made with `matchRules`, in one transaction. */
  setReservedMatchKeys(entries: readonly ReservedEmailInsert[], matchRules: string): Promise<void>;
}

/** A reserved address and the key it is compared by. */
export interface ReservedEmailInsert {
  email: string;
  matchKey: string;
}
