// What the portal is built from, as types only (like AppServices): storage, the mailer, the optional identity provider.

import type { IdentityProvider } from './identity-provider.ts';
import type { MailQueue } from './mailer/mail-sender.ts';
import type { Mailer } from './mailer/mailer.ts';
import type { CredentialRepository } from './storage/credential-repository.ts';
import type { SessionRepository } from './storage/session-repository.ts';
import type { TokenRepository } from './storage/token-repository.ts';

export interface PortalServices {
  sessions: SessionRepository;
  tokens: TokenRepository;
  credentials: CredentialRepository;
  /** The transport (SMTP pool or outbox folder); the portal names its outbox folder on its pages. */
  mailer: Mailer;
  /** Where requests queue the e-mail they cause; a background sender delivers it through `mailer`. */
  mail: MailQueue;
  /** Undefined when no OIDC provider is configured. */
  identityProvider?: IdentityProvider;
}
