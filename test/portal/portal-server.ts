// Test helper: the whole service with the portal, sending its e-mail to a real SMTP server on loopback.

import { freePort } from '../helpers/redis-server.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { PortalClient, type PortalResponse } from './portal-client.ts';

export interface PortalTestServer extends TestServer {
  smtp: SmtpTestServer;
}

/** A cheap scrypt cost: the tests check behaviour, not the production cost (which takes ~0.4 s per hash). */
export const TEST_SCRYPT_N = '1024';

export interface PortalTestServerOptions {
  /**
   * Send one message at a time over one SMTP connection (SMTP_MAX_CONNECTIONS=1): messages then
   * arrive in the order they were queued, which lets a test prove that nothing was sent before a
   * message it waits for.
   */
  mailInOrder?: boolean;
}

/**
 * The service on a port chosen first, so PORTAL_URL is its real address: the links in e-mails and
 * the identity provider's redirect lead back to it, in a browser too.
 */
export async function startPortalTestServer(
  env: Record<string, string> = {},
  port?: number,
  options: PortalTestServerOptions = {},
): Promise<PortalTestServer> {
  const smtp = await startSmtpTestServer();
  const listenPort = port ?? (await freePort());
  const server = await startTestServer({
    SMTP_URL: smtp.url,
    ...(options.mailInOrder ? { SMTP_MAX_CONNECTIONS: '1' } : {}),
    PASSWORD_SCRYPT_N: TEST_SCRYPT_N,
    // Every test signs up from 127.0.0.1: the per-client limits are the business of the tests that check them.
    SIGN_UPS_PER_CLIENT_PER_HOUR: '1000',
    MAIL_PER_CLIENT_PER_HOUR: '1000',
    // Mail goes out at the sender's next look at the queue: soon, so tests wait little.
    MAIL_POLL_INTERVAL_MS: '50',
    PORT: String(listenPort),
    PORTAL_URL: `http://127.0.0.1:${listenPort}/portal`,
    ...env,
  });
  return {
    ...server,
    smtp,
    async close() {
      await server.close();
      await smtp.stop();
    },
  };
}

/** A password that passes the policy. */
export const GOOD_PASSWORD = 'plum orchard 47 lanterns';

/**
 * Signs up through the forms, verifies through the e-mailed link, and leaves the client signed in.
 *
 * @example const client = await signUpVerified(server, 'ana@example.org');
 */
export async function signUpVerified(
  server: PortalTestServer,
  email: string,
  password = GOOD_PASSWORD,
  client = new PortalClient(server.url),
): Promise<PortalClient> {
  await client.get('/portal/sign-up');
  expectStatus(await client.post('/portal/sign-up', { name: 'Test Developer', email, password }), 200);
  const mail = await server.smtp.nextMail(email);
  const verifyPage = await client.get(portalPath(mail.link!));
  expectStatus(verifyPage, 200);
  const token = /name="token" value="([^"]+)"/.exec(verifyPage.body)![1];
  expectStatus(await client.post('/portal/verify-email', { token }), 200);
  await signIn(client, email, password);
  return client;
}

export async function signIn(client: PortalClient, email: string, password = GOOD_PASSWORD): Promise<void> {
  await client.get('/portal/sign-in');
  const response = await client.post('/portal/sign-in', { email, password });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
}

/** The path and query of a link from an e-mail (its host is PORTAL_URL's, the server's is the test's). */
export function portalPath(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

function expectStatus(response: PortalResponse, status: number): void {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.body.slice(0, 500)}`);
}
