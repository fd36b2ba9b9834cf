// The mail sender on a real queue (SQLite) with a transport the test controls: composed once, retried with doubling backoff, failures recorded.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';
import { createMailComposer } from '../../src/portal/mailer/mail-composer.ts';
import { createMailSender, type MailSender } from '../../src/portal/mailer/mail-sender.ts';
import type { Mailer, MailMessage } from '../../src/portal/mailer/mailer.ts';
import { createSealer } from '../../src/portal/sealing.ts';
import { createSqliteMailRepository } from '../../src/portal/storage/sqlite-mail-repository.ts';
import { collectLogLines } from '../helpers/log-lines.ts';

const BASE_MS = 1_000;
const POLL = { timeout: 30_000, interval: 5 };

interface Row {
  status: string;
  attempts: number;
  next_attempt_at: string;
  sealed_message: string | null;
  last_error: string | null;
}

describe('the mail sender', () => {
  let db: Db;
  let sender: MailSender;
  let clock: number;
  let failuresLeft: number;
  let sent: MailMessage[];
  let attempts: number;
  let logs: string[];
  const row = () => db.prepare<[], Row>('SELECT status, attempts, next_attempt_at, sealed_message, last_error FROM outgoing_mail').get();
  const at = (ms: number) => new Date(Date.UTC(2026, 2, 1, 10) + ms).toISOString();

  beforeEach(async () => {
    db = openDatabase(':memory:');
    clock = 0;
    failuresLeft = 0;
    sent = [];
    attempts = 0;
    const fingerprinter = createFingerprinter('s'.repeat(64));
    const accounts = createAccountService({ repository: createSqliteAccountRepository(db), fingerprinter });
    await accounts.createDeveloper({ name: 'Ana', email: 'ana@example.org', verified: true });
    const mailer: Mailer = {
      kind: 'smtp',
      async send(message) {
        attempts += 1;
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('451 4.3.0 try again later');
        }
        sent.push(message);
      },
      close() {},
    };
    const collected = collectLogLines();
    logs = collected.lines;
    sender = createMailSender({
      repository: createSqliteMailRepository(db),
      mailer,
      composer: createMailComposer(accounts, 'https://api.example.org/portal'),
      sealer: createSealer(fingerprinter, 'outgoing mail v1'),
      concurrency: 1,
      maxAttempts: 3,
      retryBaseMs: BASE_MS,
      pollIntervalMs: 10,
      attemptTimeoutMs: 60_000,
      logger: createLogger('info', collected.destination),
      now: () => new Date(Date.UTC(2026, 2, 1, 10) + clock),
    });
  });
  afterEach(async () => {
    await sender.close();
    db.close();
  });

  it('retries after the base delay, then twice that, and sends the message composed the first time', async () => {
    failuresLeft = 2;
    await sender.enqueue('reset-password', 'ana@example.org');
    sender.start();
    await expect.poll(() => attempts, POLL).toBe(1);
    await expect.poll(() => row()?.next_attempt_at, POLL).toBe(at(BASE_MS));
    expect(row()).toMatchObject({ status: 'pending', attempts: 1, last_error: '451 4.3.0 try again later' });
    expect(row()?.sealed_message).not.toContain('reset-password');

    clock = BASE_MS;
    await expect.poll(() => row()?.next_attempt_at, POLL).toBe(at(BASE_MS + 2 * BASE_MS));
    expect(attempts).toBe(2);

    clock = 3 * BASE_MS;
    await expect.poll(() => row()?.status, POLL).toBe('sent');
    expect(attempts).toBe(3);
    expect(row()).toMatchObject({ attempts: 3, sealed_message: null, last_error: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'ana@example.org', subject: 'Reset your password' });
    expect(sent[0].link).toMatch(/^https:\/\/api\.example\.org\/portal\/reset-password\?token=[\w-]{43}$/);
    // The token of that link is the one stored: composed once, not once per attempt.
    expect(db.prepare('SELECT count(*) FROM one_time_tokens').pluck().get()).toBe(1);
  });

  it('records a message as failed, with the reason, after its last attempt, and logs it', async () => {
    failuresLeft = 100;
    await sender.enqueue('account-exists', 'ana@example.org');
    sender.start();
    await expect.poll(() => row()?.attempts, POLL).toBe(1);
    clock = BASE_MS;
    await expect.poll(() => row()?.attempts, POLL).toBe(2);
    clock = 3 * BASE_MS;
    await expect.poll(() => row()?.status, POLL).toBe('failed');
    expect(row()).toMatchObject({ attempts: 3, sealed_message: null, last_error: '451 4.3.0 try again later' });
    expect(sent).toEqual([]);
    expect(logs.some((line) => line.includes('could not be sent; given up'))).toBe(true);
  });

  it('gives up on a message whose link has expired, and sends nothing for an address without an account', async () => {
    await sender.enqueue('reset-password', 'nobody@example.org');
    sender.start();
    await expect.poll(() => db.prepare('SELECT count(*) FROM outgoing_mail').pluck().get(), POLL).toBe(0);
    await sender.enqueue('reset-password', 'ana@example.org');
    // An hour later: the reset link would no longer work.
    clock = 60 * 60 * 1000 + 1;
    await expect.poll(() => row()?.status, POLL).toBe('failed');
    expect(row()?.last_error).toMatch(/^expired/);
    expect(attempts).toBe(0);
    expect(db.prepare('SELECT count(*) FROM one_time_tokens').pluck().get()).toBe(0);
  });
});
