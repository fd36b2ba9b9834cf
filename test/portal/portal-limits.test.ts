// Limits on what costs us or a third party: mail per address and per client, accounts per client.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openStorage, type Storage } from '../../src/storage.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { PortalClient, type PortalResponse } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, startPortalTestServer } from './portal-server.ts';

/** How long the queue may take to empty on a loaded machine. */
const POLL = { timeout: 60_000, interval: 50 };

async function postForm(server: PortalTestServer, page: string, fields: Record<string, string>): Promise<PortalResponse> {
  const client = new PortalClient(server.url);
  await client.get(page);
  return client.post(page, fields);
}

/** The service's database as another process sees it: its own connection, the queue read through the repository. */
async function openQueue(server: PortalTestServer, env: Record<string, string>): Promise<Storage> {
  return openStorage(loadConfig({ DATABASE_PATH: path.join(server.dir, 'church.sqlite'), ...env }));
}

/** Waits until the sender has finished every queued message (sent, failed, or dropped for want of an account). */
async function queueDrained(storage: Storage): Promise<void> {
  await expect.poll(async () => (await storage.mail.counts()).pending, POLL).toBe(0);
}

function describeLimits(name: string, env: () => Record<string, string>): void {
  describe(`the portal's limits (${name})`, () => {
    let server: PortalTestServer;
    let storage: Storage;
    beforeAll(async () => {
      server = await startPortalTestServer(env());
      storage = await openQueue(server, env());
      await server.services.accountService.createDeveloper({ name: 'Target', email: 'target@example.org', verified: true });
    });
    afterAll(async () => {
      await storage?.close();
      await server?.close();
    });

    it('sends at most 3 reset mails an hour to one address, however many are asked for; the rest answer 429', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const answer = await postForm(server, '/portal/forgot-password', { email: 'target@example.org' });
        statuses.push(answer.status);
        if (answer.status === 429) {
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(answer.body).toContain('3 password reset e-mails in the last hour');
        }
      }
      expect(statuses).toEqual([200, 200, 200, ...Array(17).fill(429)]);
      await queueDrained(storage);
      expect(server.smtp.received.filter((mail) => mail.to === 'target@example.org').map((mail) => mail.subject)).toEqual(
        Array(3).fill('Reset your password'),
      );
      // An address without an account answers exactly alike: the limit tells nobody which addresses have one.
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) unknown.push((await postForm(server, '/portal/forgot-password', { email: 'nobody@example.org' })).status);
      expect(unknown).toEqual([200, 200, 200, 429, 429]);
    });

    it('counts verification mails apart from resets: sign-ups with one address stop at 3 mails to it', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await postForm(server, '/portal/sign-up', { name: 'Someone', email: 'victim@example.org', password: GOOD_PASSWORD })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      await queueDrained(storage);
      // One verification (the account made by the first) and two "you already have an account" notes.
      expect(server.smtp.received.filter((mail) => mail.to === 'victim@example.org')).toHaveLength(3);
    });
  });
}

describeLimits('SQLite', () => ({}));

describeWith(['postgres'], 'the portal limits on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  let url = '';
  beforeAll(async () => {
    url = (await databases.migrated()).url;
  });
  describeLimits('PostgreSQL', () => ({ DATABASE_URL: url }));
});

describe('the per-client limits', () => {
  let server: PortalTestServer;
  beforeAll(async () => {
    // The service's defaults for clients (the test server raises them for the other tests).
    server = await startPortalTestServer({ SIGN_UPS_PER_CLIENT_PER_HOUR: '10', MAIL_PER_CLIENT_PER_HOUR: '10' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('let one client create 10 accounts an hour: of 30 sign-ups the 11th and later answer 429 and create nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push(
        (await postForm(server, '/portal/sign-up', { name: 'Bot', email: `bot-${i}@example.org`, password: GOOD_PASSWORD })).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    const created = (await server.services.accountService.listDevelopers()).filter((developer) => developer.email.startsWith('bot-'));
    expect(created).toHaveLength(10);
  });

  it('let one client cause 10 mails an hour, to any addresses', async () => {
    const other = await startPortalTestServer({ MAIL_PER_CLIENT_PER_HOUR: '10' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await postForm(other, '/portal/forgot-password', { email: `spread-${i}@example.org` })).status);
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    } finally {
      await other.close();
    }
  });
});
