// Sends the portal's e-mail through the SMTP server of SMTP_URL: one pooled nodemailer transport, its connections capped, every wait bounded.
import type { Transporter } from 'nodemailer';
import type { Mailer } from './mailer.ts';

export interface SmtpMailerOptions {
  /** Connections open at once (SMTP_MAX_CONNECTIONS): the most sockets a dead or slow server can hold. */
  maxConnections: number;
  /** Connection, greeting and socket timeouts (SMTP_TIMEOUT_MS): a server silent this long fails the attempt. */
  timeoutMs: number;
}

/**
 * One transport for the process (nodemailer's pool): messages reuse its connections instead of
 * opening one each, so a server that accepts and never answers holds `maxConnections` sockets
 * until `timeoutMs`, however many messages wait. SMTP_URL may not set these options itself
 * (config.ts refuses them).
 *
 * @example createSmtpMailer('smtp://user:pass@mail.example.org:587', 'API <no-reply@example.org>', { maxConnections: 2, timeoutMs: 20_000 })
 */
export function createSmtpMailer(smtpUrl: string, from: string, { maxConnections, timeoutMs }: SmtpMailerOptions): Mailer {
  // nodemailer (about 3 MB of heap) is loaded with the first message, not at start: most instances send few or none.
  // One promise, so messages sent at once share the one pool (and its cap on connections).
  let transport: Promise<Transporter> | undefined;
  const createTransport = async (): Promise<Transporter> => {
    const nodemailer = (await import('nodemailer')).default;
    return nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections,
      // A connection is replaced after this many messages, as nodemailer's default; the cap on sockets stays.
      maxMessages: 100,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // Messages are the service's own text: nothing in them may make the transport read a file or a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  };
  return {
    kind: 'smtp',
    async send({ to, subject, text, html }) {
      transport ??= createTransport();
      await (await transport).sendMail({ from, to, subject, text, html });
    },
    close() {
      void transport?.then((opened) => opened.close());
    },
  };
}
