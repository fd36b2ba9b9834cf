// Storage of one-time e-mail tokens (verification, password reset), kept as hashes: store and fetch, no rules.

export type TokenPurpose = 'verify-email' | 'reset-password';

export interface TokenInsert {
  /** SHA-256 of the token, lowercase hex; the token itself is only in the e-mail. */
  tokenHash: string;
  purpose: TokenPurpose;
  developerId: number;
  createdAt: string;
  expiresAt: string;
}

/**
 * What the one-time tokens (src/portal/tokens.ts) need. Single use is the store's guarantee:
 * `consume` marks and returns in one step, so two requests with one link cannot both succeed.
 * The contract is test/portal/storage/token-repository-contract.test.ts.
 *
 * @example
 * const developerId = await tokens.consume(hash, 'reset-password', new Date().toISOString());
 * if (developerId === undefined) … // unknown, used, expired, or for another purpose
 */
export interface TokenRepository {
  insert(token: TokenInsert): Promise<void>;
  /** The developer of an unused, unexpired token of this purpose, without using it. */
  peek(tokenHash: string, purpose: TokenPurpose, now: string): Promise<number | undefined>;
  /** Marks an unused, unexpired token of this purpose used and returns its developer; undefined otherwise. */
  consume(tokenHash: string, purpose: TokenPurpose, now: string): Promise<number | undefined>;
  /** Removes the developer's tokens of this purpose (a newer link, or a finished reset, makes older ones void). */
  deleteForDeveloper(developerId: number, purpose: TokenPurpose): Promise<number>;
  /** Removes tokens expired at `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
}
