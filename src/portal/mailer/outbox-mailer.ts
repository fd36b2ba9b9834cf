// Without SMTP: each message becomes an .eml file in the outbox folder, and its link is logged, so the flow works on a laptop.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../../http/logger.ts';
import type { Mailer } from './mailer.ts';

/**
 * Writes messages as RFC 5322 files (open them with any mail client) to `dir`.
 *
 * The one exception to "tokens are never logged": the message's link, token included, is logged
 * at info level, because on a laptop without SMTP that line is how the developer gets it. This
 * mailer is only chosen when SMTP_URL is unset; a production server sets SMTP_URL.
 */
export function createOutboxMailer(dir: string, from: string, logger: Logger): Mailer {
  // nodemailer's stream transport composes the message (both parts, headers, encodings) without sending it; nodemailer
  // (about 3 MB of heap) is loaded with the first message, not at start.
  let composer: Promise<Transporter> | undefined;
  const compose = async (): Promise<Transporter> => {
    const nodemailer = (await import('nodemailer')).default;
    return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  };
  return {
    kind: 'outbox',
    outboxDir: dir,
    async send({ to, subject, text, html, link }) {
      composer ??= compose();
      const info = await (await composer).sendMail({ from, to, subject, text, html });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      // Written under another name, then renamed: a mail client, a test or a developer watching the
      // folder never opens a message half-written, and a process that dies mid-write leaves no .eml.
      const partial = `${file}.part`;
      try {
        await fs.writeFile(partial, info.message as Buffer, { mode: 0o600 });
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
      logger.info({ file, subject, ...(link ? { link } : {}) }, 'e-mail written to the outbox (no SMTP_URL set)');
    },
    close() {},
  };
}
