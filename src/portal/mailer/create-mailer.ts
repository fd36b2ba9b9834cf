// Picks the mailer from the config: SMTP when SMTP_URL is set, else the outbox folder.
import type { Config } from '../../config.ts';
import type { Logger } from '../../http/logger.ts';
import type { Mailer } from './mailer.ts';
import { createOutboxMailer } from './outbox-mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'mailOutboxDir' | 'smtpMaxConnections' | 'smtpTimeoutMs'>,
  logger: Logger,
): Mailer {
  if (config.smtpUrl !== undefined) {
    return createSmtpMailer(config.smtpUrl, config.mailFrom, {
      maxConnections: config.smtpMaxConnections,
      timeoutMs: config.smtpTimeoutMs,
    });
  }
  logger.info({ dir: config.mailOutboxDir }, 'no SMTP_URL: portal e-mail goes to the outbox folder, and its links to this log');
  return createOutboxMailer(config.mailOutboxDir, config.mailFrom, logger);
}
