// One-time tokens for e-mail links: random, stored only as a SHA-256 hash, single use, with a lifetime per purpose.
import { createHash, randomBytes } from 'node:crypto';
import type { TokenInsert, TokenPurpose, TokenRepository } from './storage/token-repository.ts';

/** Verification links live 24 hours, reset links 1 hour (issue 13). */
export const TOKEN_LIFETIME_MS: Readonly<Record<TokenPurpose, number>> = {
  'verify-email': 24 * 60 * 60 * 1000,
  'reset-password': 60 * 60 * 1000,
};

export interface OneTimeTokens {
  /** A new token for the developer; older tokens of the same purpose stop working. Returns the token for the link. */
  issue(developerId: number, purpose: TokenPurpose): Promise<string>;
  /** The developer the token was issued to, if it is still usable; does not use it. */
  peek(token: string, purpose: TokenPurpose): Promise<number | undefined>;
  /** Uses the token: its developer the first time, undefined after that, after expiry, or for any other string. */
  consume(token: string, purpose: TokenPurpose): Promise<number | undefined>;
}

/** Tokens are 32 random bytes in base64url: 43 characters, safe in a URL. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * @example
 * const tokens = createOneTimeTokens(repository);
 * const token = await tokens.issue(developer.id, 'verify-email'); // goes into the e-mail's link
 * await tokens.consume(token, 'verify-email'); // developer.id, once
 */
export function createOneTimeTokens(repository: TokenRepository, now: () => Date = () => new Date()): OneTimeTokens {
  return {
    async issue(developerId, purpose) {
      const { token, row } = newToken(developerId, purpose, now());
      await repository.deleteForDeveloper(developerId, purpose);
      await repository.insert(row);
      return token;
    },
    async peek(token, purpose) {
      if (!TOKEN_SHAPE.test(token)) return undefined;
      return repository.peek(hashToken(token), purpose, now().toISOString());
    },
    async consume(token, purpose) {
      if (!TOKEN_SHAPE.test(token)) return undefined;
      return repository.consume(hashToken(token), purpose, now().toISOString());
    },
  };
}

/**
 * A new token for the link, and the row that stores its hash, made at `created`: for a caller that
 * writes the row in a transaction of its own (the mail sender writes it with the message).
 */
export function newToken(developerId: number, purpose: TokenPurpose, created: Date): { token: string; row: TokenInsert } {
  const token = randomBytes(32).toString('base64url');
  const row = {
    tokenHash: hashToken(token),
    purpose,
    developerId,
    createdAt: created.toISOString(),
    expiresAt: new Date(created.getTime() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
  };
  return { token, row };
}

/** SHA-256, lowercase hex: what the repository stores and looks tokens up by. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
