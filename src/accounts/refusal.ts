// The one error the account rules throw: a code the caller can branch on and a message it can show.

export type AccountRefusalCode =
  | 'invalid-email'
  | 'invalid-name'
  | 'reserved-email'
  | 'duplicate-email'
  | 'unknown-developer'
  | 'unverified-email'
  | 'key-limit'
  | 'unknown-key';

/**
 * A refusal by an account rule (the CLI prints the message; the portal shows it next to the form).
 *
 * @example
 * try { await accounts.createKey(developer.id, 'site') }
 * catch (error) { if (error instanceof AccountRefusal && error.code === 'key-limit') … }
 */
export class AccountRefusal extends Error {
  readonly code: AccountRefusalCode;
  constructor(code: AccountRefusalCode, message: string) {
    super(message);
    this.name = 'AccountRefusal';
    this.code = code;
  }
}
