// What each queued mail says, composed when the sender takes it: the developer looked up, the link's token made.
import type { AccountService } from '../../accounts/service.ts';
import type { MailKind } from '../storage/mail-repository.ts';
import type { TokenInsert } from '../storage/token-repository.ts';
import { newToken, TOKEN_LIFETIME_MS } from '../tokens.ts';
import { existingAccountMail, passwordResetMail, verificationMail } from '../views/mails.ts';
import type { MailMessage } from './mailer.ts';

/** A message ready to send, and the row of its link's token (written with it, in one transaction). */
export interface ComposedMail {
  message: Omit<MailMessage, 'to'>;
  token?: TokenInsert;
}

export interface MailComposer {
  /** The message for a queued row, or undefined when there is nothing to send (no account has the address, or it is verified already). */
  compose(kind: MailKind, recipient: string, now: Date): Promise<ComposedMail | undefined>;
}

/** How long a queued message is worth sending: its link's lifetime (an "account exists" note, a day). */
export const MAIL_LIFETIME_MS: Readonly<Record<MailKind, number>> = {
  'verify-email': TOKEN_LIFETIME_MS['verify-email'],
  'reset-password': TOKEN_LIFETIME_MS['reset-password'],
  'account-exists': 24 * 60 * 60 * 1000,
};

/**
 * The developer is looked up by address here, in the background, not on the request: a password
 * reset for an unknown address costs the request exactly what a known one costs (one row queued).
 *
 * @example const composed = await composer.compose('reset-password', 'ana@example.org', new Date());
 */
export function createMailComposer(accounts: Pick<AccountService, 'developerByEmail'>, portalUrl: string): MailComposer {
  return {
    async compose(kind, recipient, now) {
      const developer = await accounts.developerByEmail(recipient);
      if (!developer) return undefined;
      if (kind === 'account-exists') {
        const signIn = `${portalUrl}/sign-in`;
        return { message: { ...existingAccountMail(developer.name, signIn, `${portalUrl}/forgot-password`), link: signIn } };
      }
      if (kind === 'verify-email') {
        if (developer.emailVerifiedAt !== null) return undefined;
        const { token, row } = newToken(developer.id, 'verify-email', now);
        const link = `${portalUrl}/verify-email?token=${token}`;
        return { message: { ...verificationMail(developer.name, link), link }, token: row };
      }
      const { token, row } = newToken(developer.id, 'reset-password', now);
      const link = `${portalUrl}/reset-password?token=${token}`;
      return { message: { ...passwordResetMail(developer.name, link), link }, token: row };
    },
  };
}
