// The developer portal on two instances sharing one PostgreSQL: each step of sign-up, sign-in, keys and sign-out on the other instance than the last.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server.ts';
import { PortalClient, type PortalResponse } from '../portal/portal-client.ts';
import { GOOD_PASSWORD, portalPath, TEST_SCRYPT_N } from '../portal/portal-server.ts';
import { type InstanceProcess, startInstance } from './instance-process.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';

describeWith(['postgres'], 'the portal on two instances sharing one PostgreSQL', () => {
  const databases = usePostgresDatabases();
  let smtp: SmtpTestServer;
  const instances: InstanceProcess[] = [];
  /** One browser: its cookies and last CSRF token go with it from one instance to the other. */
  let browser: { on: (instance: InstanceProcess) => PortalClient };

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    const database = await databases.empty();
    const env = {
      DATABASE_URL: database.url,
      KEY_FINGERPRINT_SECRET: 'f'.repeat(64),
      SMTP_URL: smtp.url,
      PASSWORD_SCRYPT_N: TEST_SCRYPT_N,
      PORTAL_URL: 'http://portal.test/portal',
    };
    instances.push(await startInstance({ ...env, DEMO_DATA: 'true' }));
    instances.push(await startInstance({ ...env, DEMO_DATA: 'false' }));
    let current: PortalClient | undefined;
    browser = {
      on(instance) {
        const next = new PortalClient(instance.url);
        for (const [name, value] of current?.cookies ?? []) next.cookies.set(name, value);
        next.csrfToken = current?.csrfToken ?? '';
        current = next;
        return next;
      },
    };
  });
  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    await smtp?.stop();
  });

  const expectStatus = (response: PortalResponse, status: number) => expect(response.status, response.body.slice(0, 300)).toBe(status);
  const callChurch = (instance: InstanceProcess, key: string) =>
    fetch(instance.url + CHURCH, { headers: { authorization: `Bearer ${key}` } }).then((response) => response.status);

  it('signs up, verifies, signs in, makes and revokes a key and signs out, each step served by the other instance', async () => {
    const [a, b] = instances;
    const email = 'two-instances@example.org';

    // The form's CSRF token, kept in the session, is made on one instance and checked on the other.
    expectStatus(await browser.on(a).get('/portal/sign-up'), 200);
    expectStatus(await browser.on(b).post('/portal/sign-up', { name: 'Ana', email, password: GOOD_PASSWORD }), 200);
    const mail = await smtp.nextMail(email);
    const verifyPage = await browser.on(a).get(portalPath(mail.link!));
    expectStatus(verifyPage, 200);
    const token = /name="token" value="([^"]+)"/.exec(verifyPage.body)![1];
    expectStatus(await browser.on(b).post('/portal/verify-email', { token }), 200);

    expectStatus(await browser.on(a).get('/portal/sign-in'), 200);
    expectStatus(await browser.on(b).post('/portal/sign-in', { email, password: GOOD_PASSWORD }), 303);

    // Signed in on b, so on a too: the session is in the shared database.
    expectStatus(await browser.on(a).get('/portal/keys'), 200);
    // Made on b, shown on a: the key waits for its page sealed in the shared session.
    const posted = await browser.on(b).post('/portal/keys', { name: 'parish website' });
    expectStatus(posted, 303);
    const created = await browser.on(a).get(posted.location!);
    expectStatus(created, 200);
    const key = /id="new-key"[^>]* value="(sk_live_[^"]+)"/.exec(created.body)?.[1];
    expect(key).toMatch(/^sk_live_/);
    expect(await callChurch(a, key!)).toBe(200);
    expect(await callChurch(b, key!)).toBe(200);

    const dashboard = await browser.on(a).get('/portal/keys');
    const id = /\/portal\/keys\/(\d+)\/revoke/.exec(dashboard.body)?.[1];
    expect(id, dashboard.body.slice(0, 500)).toBeDefined();
    expectStatus(await browser.on(b).get(`/portal/keys/${id}/revoke`), 200);
    expectStatus(await browser.on(a).post(`/portal/keys/${id}/revoke`), 303);
    expect(await callChurch(b, key!)).toBe(401);
    expect(await callChurch(a, key!)).toBe(401);

    // Signed out on one instance is signed out everywhere.
    expectStatus(await browser.on(b).post('/portal/sign-out'), 303);
    const afterSignOut = await browser.on(a).get('/portal/keys');
    expectStatus(afterSignOut, 303);
    expect(afterSignOut.location).toContain('/portal/sign-in');
  });
});
