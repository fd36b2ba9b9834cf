// The one interface every way of sending the portal's e-mail implements (SMTP, or an outbox folder on a laptop).

/** A message with both parts, as the issue asks: plain text and HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The message's action link (verification, reset). Only the outbox mailer uses it: it logs it,
   * so the flow works on a laptop without a mail server.
   */
  link?: string;
}

/**
 * Sends the portal's messages. Implementations: smtp-mailer.ts (SMTP_URL set) and
 * outbox-mailer.ts (an .eml file per message in MAIL_OUTBOX_DIR); create-mailer.ts picks one.
 *
 * @example await mailer.send({ to, subject: 'Verify your address', text, html, link });
 */
export interface Mailer {
  kind: 'smtp' | 'outbox';
  /**
   * The folder messages are written to instead of being sent (the outbox mailer's); undefined when
   * they are sent. The portal's "check your inbox" pages name it, so a developer on a laptop knows
   * where to look.
   */
  outboxDir?: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}
