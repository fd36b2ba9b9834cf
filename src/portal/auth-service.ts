// How developers get into the portal: sign-up, verification, sign-in, password reset and change, provider sign-in.

import { AccountRefusal } from '../accounts/refusal.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Developer } from '../accounts/types.ts';
import type { Logger } from '../http/logger.ts';
import { FormError } from './form-error.ts';
import type { ProviderIdentity } from './identity-provider.ts';
import type { Mailer, MailMessage } from './mailer/mailer.ts';
import { passwordRefusal } from './password-policy.ts';
import type { PasswordHasher } from './passwords.ts';
import type { CredentialRepository } from './storage/credential-repository.ts';
import type { SessionRepository } from './storage/session-repository.ts';
import type { OneTimeTokens } from './tokens.ts';
import { existingAccountMail, passwordResetMail, verificationMail } from './views/mails.ts';

export interface PortalAuthDependencies {
  /** Every account rule (names, addresses, reserved list, keys) is this service's. */
  accounts: AccountService;
  credentials: CredentialRepository;
  sessions: SessionRepository;
  tokens: OneTimeTokens;
  passwords: PasswordHasher;
  mailer: Mailer;
  /** The portal's public address, for the links in e-mails. */
  portalUrl: string;
  logger: Logger;
  now?: () => Date;
}

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
}

/**
 * The portal's sign-in rules. Answers never tell a known address from an unknown one (sign-up,
 * sign-in, reset): the same result, the same password hashing work, and e-mail sent in the
 * background so its delay does not show either. Refusals are FormError (password, links) or
 * AccountRefusal (the account rules).
 *
 * @example
 * await auth.signUp({ name, email, password }); // then "check your inbox", whoever had the address
 * const developer = await auth.signIn(email, password); // undefined: wrong address or password
 */
export interface PortalAuthService {
  /** Creates an unverified account and mails its link; for a known address, mails its owner instead. Returns the normalised address. */
  signUp(input: SignUpInput): Promise<string>;
  /** Mails a new verification link to a signed-in developer whose address is not verified. */
  resendVerification(developerId: number): Promise<void>;
  /** Whether a verification link is still usable (for the page that asks for the click). */
  verificationLinkUsable(token: string): Promise<boolean>;
  /** Uses a verification link; undefined when it is unknown, used or expired. */
  verifyEmail(token: string): Promise<Developer | undefined>;
  /** The developer when address and password match, else undefined (after the same hashing work). */
  signIn(email: string, password: string): Promise<Developer | undefined>;
  /** Mails a reset link if an account has the address; does the same visible work if not. */
  requestPasswordReset(email: string): Promise<void>;
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
  const { accounts, credentials, sessions, tokens, passwords, portalUrl, logger, now = () => new Date() } = deps;

  /** Sends without making the request wait: the answer's timing must not depend on whether a message went out. */
  const dispatch = (message: MailMessage): void => {
    deps.mailer.send(message).catch((error: unknown) => {
      logger.error({ subject: message.subject, error: errorText(error) }, 'sending a portal e-mail failed');
    });
  };

  const sendVerification = async (developer: Developer): Promise<void> => {
    const token = await tokens.issue(developer.id, 'verify-email');
    const link = `${portalUrl}/verify-email?token=${token}`;
    dispatch({ to: developer.email, ...verificationMail(developer.name, link), link });
  };

  const checkedNewPassword = (password: string, email: string): void => {
    const refusal = passwordRefusal(password, { email });
    if (refusal) throw new FormError('password', refusal);
  };

  return {
    async signUp({ name, email, password }) {
      checkedNewPassword(password, email);
      // Hashed before anything is looked up: a known address costs the same time as a new one.
      const passwordHash = await passwords.hash(password);
      try {
        const developer = await accounts.createDeveloper({ name, email });
        await credentials.setPasswordHash(developer.id, passwordHash, now().toISOString());
        await sendVerification(developer);
        return developer.email;
      } catch (error) {
        if (!(error instanceof AccountRefusal) || error.code !== 'duplicate-email') throw error;
        const existing = await accounts.developerByEmail(email);
        if (existing) {
          const signIn = `${portalUrl}/sign-in`;
          dispatch({ to: existing.email, ...existingAccountMail(existing.name, signIn, `${portalUrl}/forgot-password`), link: signIn });
        }
        return existing?.email ?? email.trim().toLowerCase();
      }
    },

    async resendVerification(developerId) {
      const developer = await accounts.developerById(developerId);
      if (!developer || developer.emailVerifiedAt !== null) return;
      await sendVerification(developer);
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

    async requestPasswordReset(email) {
      const developer = await accounts.developerByEmail(email);
      if (!developer) return;
      const token = await tokens.issue(developer.id, 'reset-password');
      const link = `${portalUrl}/reset-password?token=${token}`;
      dispatch({ to: developer.email, ...passwordResetMail(developer.name, link), link });
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
