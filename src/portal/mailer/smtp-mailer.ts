// Sends the portal's e-mail through the SMTP server of SMTP_URL, with nodemailer.
import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

/**
 * @example createSmtpMailer('smtp://user:pass@mail.example.org:587', 'API <no-reply@example.org>')
 */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html });
    },
    close() {
      transport.close();
    },
  };
}
