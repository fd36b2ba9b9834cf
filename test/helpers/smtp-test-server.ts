// Test helper: a real SMTP server on a loopback port (smtp-server), parsing what it receives with mailparser.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The first portal link of the text part. */
  link?: string;
}

export interface SmtpTestServer {
  /** SMTP_URL for the service under test. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** The next message to `to` (already received or still to come); fails after `timeoutMs`. */
  nextMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/** STARTTLS is off: smtp-server's built-in certificate has expired, and nodemailer would upgrade to it. */
export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed: ParsedMail) => {
          const text = parsed.text ?? '';
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            link: /https?:\/\/\S+\/portal\/\S+/.exec(text)?.[0],
          });
          for (const wake of waiting.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const take = (to: string) => {
    const mail = received.find((candidate) => !taken.has(candidate) && candidate.to === to);
    if (mail) taken.add(mail);
    return mail;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    async nextMail(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = take(to);
        if (mail) return mail;
        if (Date.now() > deadline)
          throw new Error(`No e-mail to ${to} within ${timeoutMs} ms (received: ${received.map((m) => m.to).join(', ') || 'none'})`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
