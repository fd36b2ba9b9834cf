// How developers get into the portal: sign-up, verification, sign-in, password reset and change, provider sign-in.

import { parseEmailAddress } from '../accounts/email-address.ts';
import { AccountRefusal } from '../accounts/refusal.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Developer } from '../accounts/types.ts';
import { FormError } from './form-error.ts';
import type { ProviderIdentity } from './identity-provider.ts';
import type { MailQueue } from './mailer/mail-sender.ts';
import { passwordRefusal } from './password-policy.ts';
import type { PasswordHasher } from './passwords.ts';
import type { PortalLimits } from './portal-limits.ts';
import type { CredentialRepository } from './storage/credential-repository.ts';
import type { SessionRepository } from './storage/session-repository.ts';
import type { OneTimeTokens } from './tokens.ts';

export interface PortalAuthDependencies {
  /** Every account rule (names, addresses, reserved list, keys) is this service's. */
  accounts: AccountService;
  credentials: CredentialRepository;
  sessions: SessionRepository;
  tokens: OneTimeTokens;
  passwords: PasswordHasher;
  /** Where e-mail is queued; a background sender composes (links, tokens) and sends it. */
  mail: MailQueue;
  /** E-mail per address and per client, accounts per client. */
  limits: PortalLimits;
  now?: () => Date;
}

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
}

/**
 * The portal's sign-in rules. Answers never tell a known address from an unknown one (sign-up,
 * sign-in, reset): the same result, the same password hashing work, and e-mail only queued (a
 * background sender composes and sends it), so neither its work nor its delay shows. Refusals are
 * FormError (password, links), AccountRefusal (the account rules), LimitRefusal (too many e-mails
 * or accounts: 429) and WorkGateBusy (too many password hashes waiting: 503). `client` is the
 * client address (req.ip) the limits count by.
 *
 * @example
 * await auth.signUp({ name, email, password }, req.ip); // then "check your inbox", whoever had the address
 * const developer = await auth.signIn(email, password); // undefined: wrong address or password
 */
export interface PortalAuthService {
  /** Creates an unverified account and queues its link; for a known address, a note to its owner instead. Returns the normalised address. */
  signUp(input: SignUpInput, client: string | undefined): Promise<string>;
  /** Queues a new verification link for a signed-in developer whose address is not verified. */
  resendVerification(developerId: number, client: string | undefined): Promise<void>;
  /** Whether a verification link is still usable (for the page that asks for the click). */
  verificationLinkUsable(token: string): Promise<boolean>;
  /** Uses a verification link; undefined when it is unknown, used or expired. */
  verifyEmail(token: string): Promise<Developer | undefined>;
  /** The developer when address and password match, else undefined (after the same hashing work). */
  signIn(email: string, password: string): Promise<Developer | undefined>;
  /**
   * Queues a reset for the address, whether or not an account has it: the request does the same
   * work either way (one row queued), and the sender finds out in the background. Returns the
   * normalised address.
   */
  requestPasswordReset(email: string, client: string | undefined): Promise<string>;
  resetLinkUsable(token: string): Promise<boolean>;
  /** Sets the new password through a reset link, ends every session of the developer, and returns them. */
  resetPassword(token: string, password: string): Promise<Developer>;
  hasPassword(developerId: number): Promise<boolean>;
  /** Checks the current password (when there is one), sets the new one, and ends the developer's other sessions. */
  changePassword(developerId: number, current: string, next: string, keepSessionIdHash: string): Promise<void>;
  /** The developer a provider identity signs in as: linked, or found by verified address and linked, or created verified. */
  signInWithProvider(identity: ProviderIdentity): Promise<Developer>;
}

export function createPortalAuthService(deps: PortalAuthDependencies): PortalAuthService {
  const { accounts, credentials, sessions, tokens, passwords, mail, limits, now = () => new Date() } = deps;

  const checkedNewPassword = (password: string, email: string): void => {
    const refusal = passwordRefusal(password, { email });
    if (refusal) throw new FormError('password', refusal);
  };

  return {
    async signUp({ name, email, password }, client) {
      // What costs nothing first: the address and the password; then the limits; then the hashing.
      const address = parseEmailAddress(email);
      checkedNewPassword(password, address);
      await limits.signUp(client);
      // Counted whether or not the address has an account, so the limit reveals none.
      await limits.mail('verification', address, client);
      // Hashed before anything is looked up: a known address costs the same time as a new one.
      const passwordHash = await passwords.hash(password);
      try {
        const developer = await accounts.createDeveloper({ name, email: address });
        await credentials.setPasswordHash(developer.id, passwordHash, now().toISOString());
        await mail.enqueue('verify-email', developer.email);
      } catch (error) {
        if (!(error instanceof AccountRefusal) || error.code !== 'duplicate-email') throw error;
        await mail.enqueue('account-exists', address);
      }
      return address;
    },

    async resendVerification(developerId, client) {
      const developer = await accounts.developerById(developerId);
      if (!developer || developer.emailVerifiedAt !== null) return;
      await limits.mail('verification', developer.email, client);
      await mail.enqueue('verify-email', developer.email);
    },

    async verificationLinkUsable(token) {
      return (await tokens.peek(token, 'verify-email')) !== undefined;
    },

    async verifyEmail(token) {
      const developerId = await tokens.consume(token, 'verify-email');
      if (developerId === undefined) return undefined;
      return accounts.verifyEmail(developerId);
    },

    async signIn(email, password) {
      const developer = await accounts.developerByEmail(email);
      const stored = developer && (await credentials.passwordHash(developer.id));
      if (!developer || stored === undefined) return passwords.verifyNothing(password).then(() => undefined);
      return (await passwords.verify(password, stored)) ? developer : undefined;
    },

    async requestPasswordReset(email, client) {
      const address = parseEmailAddress(email);
      await limits.mail('password-reset', address, client);
      // Nothing is looked up here: the sender finds the account, or finds none and sends nothing.
      await mail.enqueue('reset-password', address);
      return address;
    },

    async resetLinkUsable(token) {
      return (await tokens.peek(token, 'reset-password')) !== undefined;
    },

    async resetPassword(token, password) {
      const holder = await tokens.peek(token, 'reset-password');
      const developer = holder === undefined ? undefined : await accounts.developerById(holder);
      if (!developer) throw new FormError('token', 'This link no longer works.');
      checkedNewPassword(password, developer.email);
      const passwordHash = await passwords.hash(password);
      // Used only now, so a refused password leaves the link usable for another try.
      if ((await tokens.consume(token, 'reset-password')) !== developer.id) throw new FormError('token', 'This link no longer works.');
      await credentials.setPasswordHash(developer.id, passwordHash, now().toISOString());
      // Whoever knew the old password is signed out everywhere.
      await sessions.deleteForDeveloper(developer.id);
      return developer;
    },

    async hasPassword(developerId) {
      return (await credentials.passwordHash(developerId)) !== undefined;
    },

    async changePassword(developerId, current, next, keepSessionIdHash) {
      const developer = await accounts.developerById(developerId);
      if (!developer) throw new AccountRefusal('unknown-developer', `No developer with id ${developerId}.`);
      const stored = await credentials.passwordHash(developerId);
      if (stored !== undefined && !(await passwords.verify(current, stored))) {
        throw new FormError('currentPassword', 'The current password is wrong.');
      }
      const refusal = passwordRefusal(next, { email: developer.email });
      if (refusal) throw new FormError('newPassword', refusal);
      await credentials.setPasswordHash(developerId, await passwords.hash(next), now().toISOString());
      await sessions.deleteForDeveloper(developerId, keepSessionIdHash);
    },

    async signInWithProvider(identity) {
      const linked = await credentials.developerIdByIdentity(identity.issuer, identity.subject);
      if (linked !== undefined) {
        const developer = await accounts.developerById(linked);
        if (developer) return developer;
      }
      if (identity.email === undefined || !identity.emailVerified) {
        throw new FormError(
          'form',
          'Your provider did not confirm an e-mail address, so no account can be linked to it. Sign up with your e-mail address instead.',
        );
      }
      const newDeveloper = { name: providerName(identity), email: identity.email, verified: true };
      // Reserved first, whatever accounts exist, so the answer does not tell whether one has this address;
      // createDeveloper refuses a reserved address before anything else it checks about it.
      if (await accounts.isReservedEmail(identity.email)) await accounts.createDeveloper(newDeveloper);
      const existing = await accounts.developerByEmail(identity.email);
      // The provider vouches for the address: an existing account with it is linked and counts as verified.
      const developer = existing ? await accounts.verifyEmail(existing.id) : await accounts.createDeveloper(newDeveloper);
      await credentials.linkIdentity({
        issuer: identity.issuer,
        subject: identity.subject,
        developerId: developer.id,
        linkedAt: now().toISOString(),
      });
      return developer;
    },
  };
}

/** The provider's name for the developer, made fit for the account's name rules, or the address's local part. */
function providerName(identity: ProviderIdentity): string {
  const name = identity.name
    ?.replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, 200);
  return name || (identity.email ?? '').split('@')[0].slice(0, 200) || 'Developer';
}
