// The account rules, in one place for every entry point (operator CLI now, developer portal next): storage is the repository's.

import type { Fingerprinter } from '../keys/fingerprint.ts';
import { generateKey, keyHint } from '../keys/format.ts';
import {
  addressOrUndefined,
  DEFAULT_RESERVED_MATCHING,
  parseEmailAddress,
  type ReservedMatching,
  reservedMatchKey,
  reservedMatchRules,
} from './email-address.ts';
import { AccountRefusal } from './refusal.ts';
import type { AccountRepository } from './repository.ts';
import type { ApiKeyRecord, CreatedKey, DeletedDeveloper, Developer, DeveloperListing, NewDeveloper } from './types.ts';

export interface AccountServiceDependencies {
  repository: AccountRepository;
  /** Turns a new key into the fingerprint that is stored; the key itself never reaches the repository. */
  fingerprinter: Fingerprinter;
  /** The clock for created, verified and revoked times; tests inject one. */
  now?: () => Date;
  /** How local parts are read when compared with the reserved list (RESERVED_EMAIL_IGNORE); default +tags ignored, dots kept. */
  reservedMatching?: ReservedMatching;
}

/**
 * Sign-up, verification, keys and the reserved list, with every rule applied. Each method either
 * does what it says or throws an AccountRefusal whose code says why not.
 *
 * @example
 * const accounts = createAccountService({ repository, fingerprinter });
 * const developer = await accounts.createDeveloper({ name: 'Ana', email: 'ana@example.org', verified: true });
 * const { key } = await accounts.createKey(developer.id, 'parish website'); // shown once, never stored
 */
export interface AccountService {
  /**
   * Creates an account. Refuses a malformed name or address (anything but one bare address:
   * email-address.ts), a reserved address or one that only looks like it (+tag, homoglyphs; with
   * the same refusal whether or not an account already uses it, so the answer reveals no account)
   * and an address another developer has.
   */
  createDeveloper(input: NewDeveloper): Promise<Developer>;
  /** The developer with this address (compared after normalisation), if any. */
  developerByEmail(email: string): Promise<Developer | undefined>;
  developerById(id: number): Promise<Developer | undefined>;
  /** Every developer with their number of active keys, oldest first. */
  listDevelopers(): Promise<DeveloperListing[]>;
  /** Renames the developer; refuses a malformed name like createDeveloper does. */
  renameDeveloper(developerId: number, name: string): Promise<Developer>;
  /** Marks the address verified; idempotent (the first verification time is kept). */
  verifyEmail(developerId: number): Promise<Developer>;
  /** Deletes the account; its keys stop working at once, in the same transaction. */
  deleteDeveloper(developerId: number): Promise<DeletedDeveloper>;
  /**
   * Creates a key; the returned `key` is the only copy there will ever be. Refuses an unverified
   * address, a malformed name and a key beyond MAX_ACTIVE_KEYS (also when two processes race).
   */
  createKey(developerId: number, name: string): Promise<CreatedKey>;
  /** The developer's keys, newest first (hint, name, times; never the key). */
  listKeys(developerId: number): Promise<ApiKeyRecord[]>;
  /** Revokes one of the developer's keys, effective for the very next request. Revoking twice keeps the first time. */
  revokeKey(developerId: number, keyId: number): Promise<ApiKeyRecord>;
  /** Whether the address is reserved, or looks like a reserved one (reservedMatchKey); false for a malformed one. */
  isReservedEmail(email: string): Promise<boolean>;
  /** Adds addresses to the reserved list: validates every one first and writes all or none. Returns how many were new. */
  importReservedEmails(emails: readonly string[]): Promise<number>;
}

/** A developer may hold this many active keys at once (spec, section 8). */
export const MAX_ACTIVE_KEYS = 5;
/** Longest developer name, in characters. */
export const MAX_DEVELOPER_NAME_LENGTH = 200;
/** Longest key name, in characters. */
export const MAX_KEY_NAME_LENGTH = 100;

/** Control characters (tabs, newlines, escapes) would break listings and e-mail headers. */
const CONTROL_CHARACTER = /\p{Cc}/u;

export function createAccountService({
  repository,
  fingerprinter,
  now = () => new Date(),
  reservedMatching = DEFAULT_RESERVED_MATCHING,
}: AccountServiceDependencies): AccountService {
  const matchRules = reservedMatchRules(reservedMatching);
  const matchKey = (address: string) => reservedMatchKey(address, reservedMatching);
  let keyed: Promise<void> | undefined;
  /** Keys made with other rules (an older version, another RESERVED_EMAIL_IGNORE) are made again before the first comparison. */
  const reservedKeysCurrent = (): Promise<void> => {
    keyed ??= (async () => {
      const stale = await repository.reservedEmailsKeyedOtherwise(matchRules);
      const entries = stale.map((email) => {
        const address = addressOrUndefined(email);
        // An entry stored before addresses were parsed strictly keeps its text as its key: it still blocks itself.
        return { email, matchKey: address === undefined ? email.toLowerCase() : matchKey(address) };
      });
      if (entries.length > 0) await repository.setReservedMatchKeys(entries, matchRules);
    })().catch((error: unknown) => {
      keyed = undefined;
      throw error;
    });
    return keyed;
  };
  const isReserved = async (address: string): Promise<boolean> => {
    await reservedKeysCurrent();
    return repository.isReservedMatch(matchKey(address));
  };

  const existingDeveloper = async (developerId: number): Promise<Developer> => {
    const developer = await repository.developerById(developerId);
    if (!developer) throw new AccountRefusal('unknown-developer', `No developer with id ${developerId}.`);
    return developer;
  };

  return {
    async createDeveloper({ name, email, verified = false }) {
      const developerName = checkedName(name, MAX_DEVELOPER_NAME_LENGTH, 'A developer name');
      const address = parseEmailAddress(email);
      // Reserved before duplicate: a reserved address gets this answer whether or not an account has it.
      if (await isReserved(address)) {
        throw new AccountRefusal(
          'reserved-email',
          `The address ${address} is linked to another of our products and cannot be used for a developer account.`,
        );
      }
      const createdAt = now().toISOString();
      const developer = await repository.insertDeveloper({
        name: developerName,
        email: address,
        emailVerifiedAt: verified ? createdAt : null,
        createdAt,
      });
      if (!developer) throw new AccountRefusal('duplicate-email', `A developer with the address ${address} already exists.`);
      return developer;
    },

    async developerByEmail(email) {
      const address = addressOrUndefined(email);
      return address === undefined ? undefined : repository.developerByEmail(address);
    },

    async developerById(id) {
      return repository.developerById(id);
    },

    async listDevelopers() {
      return repository.listDevelopers();
    },

    async renameDeveloper(developerId, name) {
      const developerName = checkedName(name, MAX_DEVELOPER_NAME_LENGTH, 'A developer name');
      const developer = await repository.updateDeveloperName(developerId, developerName);
      if (!developer) throw new AccountRefusal('unknown-developer', `No developer with id ${developerId}.`);
      return developer;
    },

    async verifyEmail(developerId) {
      const developer = await repository.markEmailVerified(developerId, now().toISOString());
      if (!developer) throw new AccountRefusal('unknown-developer', `No developer with id ${developerId}.`);
      return developer;
    },

    async deleteDeveloper(developerId) {
      const deleted = await repository.deleteDeveloper(developerId);
      if (!deleted) throw new AccountRefusal('unknown-developer', `No developer with id ${developerId}.`);
      return deleted;
    },

    async createKey(developerId, name) {
      const keyName = checkedName(name, MAX_KEY_NAME_LENGTH, 'A key name', ' (say which site or application uses it)');
      const developer = await existingDeveloper(developerId);
      if (developer.emailVerifiedAt === null) {
        throw new AccountRefusal(
          'unverified-email',
          `The e-mail address ${developer.email} is not verified yet; a key can be created once it is.`,
        );
      }
      const key = generateKey();
      const record = await repository.insertKeyIfActiveBelow(developer.id, MAX_ACTIVE_KEYS, {
        name: keyName,
        fingerprint: fingerprinter.fingerprint(key),
        hint: keyHint(key),
        createdAt: now().toISOString(),
      });
      if (!record) {
        throw new AccountRefusal(
          'key-limit',
          `A developer may hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one before creating another.`,
        );
      }
      return { key, record };
    },

    async listKeys(developerId) {
      return repository.listKeys(developerId);
    },

    async revokeKey(developerId, keyId) {
      const record = await repository.revokeKey(developerId, keyId, now().toISOString());
      if (!record) throw new AccountRefusal('unknown-key', `The developer has no key with id ${keyId}.`);
      return record;
    },

    async isReservedEmail(email) {
      const address = addressOrUndefined(email);
      return address !== undefined && isReserved(address);
    },

    async importReservedEmails(emails) {
      const problems: string[] = [];
      const addresses: string[] = [];
      emails.forEach((email, index) => {
        try {
          addresses.push(parseEmailAddress(email));
        } catch {
          problems.push(`entry ${index + 1}: "${email}"`);
        }
      });
      if (problems.length > 0) {
        const shown = problems.slice(0, 10).join(', ');
        throw new AccountRefusal(
          'invalid-email',
          `Nothing imported: ${problems.length} invalid address(es): ${shown}${problems.length > 10 ? ', …' : ''}.`,
        );
      }
      await reservedKeysCurrent();
      const entries = [...new Set(addresses)].map((email) => ({ email, matchKey: matchKey(email) }));
      return repository.addReservedEmails(entries, matchRules, now().toISOString());
    },
  };
}

/** The trimmed name, or an 'invalid-name' refusal when it is empty, too long or holds control characters. */
function checkedName(name: string, max: number, what: string, hint = ''): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > max || CONTROL_CHARACTER.test(trimmed)) {
    throw new AccountRefusal('invalid-name', `${what} must be 1 to ${max} characters, without control characters${hint}.`);
  }
  return trimmed;
}
