// A mail server that accepts and never answers costs the service its SMTP pool's few sockets and nothing else; queued mail survives a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { loadConfig } from '../../src/config.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';
import { openStorage, type Storage } from '../../src/storage.ts';
import { type InstanceProcess, startInstance } from '../e2e/instance-process.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { connectionsTo, openFileDescriptors, type SmtpTarpit, startSmtpTarpit } from '../helpers/smtp-tarpit.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server.ts';
import { PortalClient } from '../portal/portal-client.ts';

const SECRET = 't'.repeat(64);
const SMTP_MAX_CONNECTIONS = 2;
/** Resets asked for in the flood, each for another account, from this many clients at once. */
const FLOOD = 60;
const FLOOD_CONCURRENCY = 10;
/** Ten minutes: while the test runs, the tarpit is never given up on, so a request that waited for it would never answer. */
const SMTP_TIMEOUT_MS = 600_000;
/** How long a condition may take to come true on a loaded machine. */
const POLL = { timeout: 60_000, interval: 50 };

interface Backend {
  env: Record<string, string>;
  /** Descriptors the backend itself may open under load (PostgreSQL's pool grows up to DATABASE_POOL_MAX). */
  poolConnections: number;
  open(): Promise<Storage>;
}

/** The settings of every instance here: the backend's, a fixed secret, limits out of the way of the flood (tested elsewhere). */
function instanceEnv(backend: Backend, smtpUrl: string, dir: string): Record<string, string> {
  return {
    ...backend.env,
    KEY_FINGERPRINT_SECRET: SECRET,
    SMTP_URL: smtpUrl,
    SMTP_MAX_CONNECTIONS: String(SMTP_MAX_CONNECTIONS),
    SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT_MS),
    MAIL_POLL_INTERVAL_MS: '100',
    MAIL_RETRY_BASE_MS: '100',
    MAIL_PER_CLIENT_PER_HOUR: '100000',
    PASSWORD_SCRYPT_N: '1024',
    READYZ_BIBLE: 'false',
    BIBLE_PUBLIC_DIR: path.join(dir, 'public'),
    BIBLE_DB_PATH: path.join(dir, 'bible.sqlite'),
  };
}

/** Asks for a password reset through the form, as a browser does; fails if no answer comes within 30 s. */
async function requestReset(base: string, email: string): Promise<number> {
  const client = new PortalClient(base);
  const answer = (async () => {
    await client.get('/portal/forgot-password');
    return client.post('/portal/forgot-password', { email });
  })();
  const deadline = new Promise<never>((_resolve, reject) =>
    setTimeout(() => reject(new Error(`no answer for ${email} within 30 s`)), 30_000),
  );
  return (await Promise.race([answer, deadline])).status;
}

async function medianMs(samples: number, request: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await request();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(samples / 2)];
}

function describeTarpit(name: string, backend: () => Backend): void {
  describe(`with an SMTP server that accepts and never answers (${name})`, () => {
    let dir: string;
    let smtp: SmtpTestServer;
    let storage: Storage;
    const emails = Array.from({ length: FLOOD }, (_, i) => `flood-${i}@example.org`);
    const instances: InstanceProcess[] = [];
    const tarpits: SmtpTarpit[] = [];

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-tarpit-'));
      smtp = await startSmtpTestServer();
      storage = await backend().open();
      const accounts = createAccountService({ repository: storage.accounts, fingerprinter: createFingerprinter(SECRET) });
      for (const email of [...emails, 'restart-0@example.org', 'restart-1@example.org', 'restart-2@example.org']) {
        await accounts.createDeveloper({ name: 'Flood', email, verified: true });
      }
    }, 120_000);
    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
      await Promise.all(tarpits.map((tarpit) => tarpit.stop()));
      await storage?.close();
      await smtp?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const start = async (smtpUrl: string) => {
      const instance = await startInstance(instanceEnv(backend(), smtpUrl, dir));
      instances.push(instance);
      return instance;
    };
    const tarpit = async () => {
      const started = await startSmtpTarpit();
      tarpits.push(started);
      return started;
    };

    it(`answers ${FLOOD} resets while the server says nothing, holding at most ${SMTP_MAX_CONNECTIONS} sockets to it, and delivers each once when it answers`, async () => {
      const silent = await tarpit();
      const instance = await start(silent.url);
      const health = () => fetch(`${instance.url}/healthz`).then((response) => response.text());
      // Warm up with the flood's own number of clients, so their connections are counted in the baseline.
      await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, () => requestReset(instance.url, 'nobody@example.org')));
      const fdsBefore = openFileDescriptors(instance.pid);
      const healthBefore = await medianMs(20, health);

      const statuses: number[] = [];
      for (let next = 0; next < FLOOD; next += FLOOD_CONCURRENCY) {
        const batch = emails.slice(next, next + FLOOD_CONCURRENCY);
        statuses.push(...(await Promise.all(batch.map((email) => requestReset(instance.url, email)))));
      }
      // Every request was answered while the server had answered nothing at all: none of them waited for it.
      expect(statuses).toEqual(emails.map(() => 200));
      expect(silent.bytesAnswered).toBe(0);
      await expect.poll(() => connectionsTo(instance.pid, silent.port), POLL).toBe(SMTP_MAX_CONNECTIONS);
      const healthDuring = await medianMs(20, health);
      const fdsDuring = openFileDescriptors(instance.pid);
      const smtpSockets = connectionsTo(instance.pid, silent.port);
      console.info(
        `[${name}] tarpit: fds ${fdsBefore} before, ${fdsDuring} during (${smtpSockets} to the SMTP server, ${silent.accepted} accepted in all); ` +
          `/healthz median ${healthBefore.toFixed(1)} ms before, ${healthDuring.toFixed(1)} ms during`,
      );
      // The pool's sockets and nothing else: one socket per queued message would be sixty more.
      expect(smtpSockets).toBe(SMTP_MAX_CONNECTIONS);
      expect(silent.maxOpen).toBeLessThanOrEqual(SMTP_MAX_CONNECTIONS);
      // Besides the SMTP pool, only the flood's own client connections and the database pool may grow (each capped).
      expect(fdsDuring - fdsBefore).toBeLessThanOrEqual(SMTP_MAX_CONNECTIONS + FLOOD_CONCURRENCY + backend().poolConnections);

      silent.release(smtp.port);
      for (const email of emails) await smtp.nextMail(email, POLL.timeout);
      await expect.poll(async () => (await storage.mail.counts()).pending, POLL).toBe(0);
      const sent = smtp.received.filter((mail) => mail.to.startsWith('flood-'));
      expect(sent.map((mail) => mail.to).sort()).toEqual([...emails].sort());
      expect(sent.every((mail) => mail.subject === 'Reset your password')).toBe(true);
      console.info(`[${name}] tarpit: ${sent.length} mails sent once it answered, over ${silent.accepted} connections`);
      await instance.stop();
    }, 240_000);

    it('keeps what was queued across a restart: the next instance sends it, once', async () => {
      const pendingBefore = (await storage.mail.counts()).pending;
      const silent = await tarpit();
      const first = await start(silent.url);
      const restartEmails = ['restart-0@example.org', 'restart-1@example.org', 'restart-2@example.org'];
      for (const email of restartEmails) expect(await requestReset(first.url, email)).toBe(200);
      await expect.poll(() => connectionsTo(first.pid, silent.port), POLL).toBe(SMTP_MAX_CONNECTIONS);
      await first.stop();
      // Stopped while the first two were being sent: released, nothing lost, nothing recorded as sent.
      expect((await storage.mail.counts()).pending).toBe(pendingBefore + 3);
      expect(smtp.received.filter((mail) => mail.to.startsWith('restart-'))).toEqual([]);

      await start(smtp.url);
      for (const email of restartEmails) await smtp.nextMail(email, POLL.timeout);
      await expect.poll(async () => (await storage.mail.counts()).pending, POLL).toBe(pendingBefore);
      expect(
        smtp.received
          .filter((mail) => mail.to.startsWith('restart-'))
          .map((mail) => mail.to)
          .sort(),
      ).toEqual(restartEmails);
    }, 240_000);
  });
}

const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-tarpit-sqlite-'));
afterAll(() => fs.rmSync(sqliteDir, { recursive: true, force: true }));

describeTarpit('SQLite', () => {
  const file = path.join(sqliteDir, 'church.sqlite');
  return {
    env: { DATABASE_PATH: file },
    poolConnections: 0,
    open: () => openStorage(loadConfig({ DATABASE_PATH: file, KEY_FINGERPRINT_SECRET: SECRET })),
  };
});

describeWith(['postgres'], 'the SMTP tarpit on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  let url = '';
  beforeAll(async () => {
    url = (await databases.migrated()).url;
  });
  describeTarpit('PostgreSQL', () => ({
    env: { DATABASE_URL: url, DATABASE_POOL_MAX: '4' },
    poolConnections: 4,
    open: () => openStorage(loadConfig({ DATABASE_URL: url, KEY_FINGERPRINT_SECRET: SECRET })),
  }));
});
