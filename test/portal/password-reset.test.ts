// Password reset through a link e-mailed to a real SMTP server: one hour, single use, every session ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalClient } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, portalPath, signIn, signUpVerified, startPortalTestServer } from './portal-server.ts';

const NEW_PASSWORD = 'seven quiet harbours at dawn';
let server: PortalTestServer;

beforeAll(async () => {
  // Mail in the order it is dispatched: a message that arrives proves every earlier one has arrived.
  server = await startPortalTestServer({}, undefined, { mailInOrder: true });
});
afterAll(async () => {
  await server?.close();
});

async function requestReset(email: string): Promise<string> {
  const client = new PortalClient(server.url);
  await client.get('/portal/forgot-password');
  const answer = await client.post('/portal/forgot-password', { email });
  expect(answer.body).toContain('If an account uses');
  const mail = await server.smtp.nextMail(email);
  expect(mail.subject).toBe('Reset your password');
  expect(mail.text).toContain(mail.link);
  expect(mail.html).toContain(`href="${mail.link}"`);
  return mail.link!;
}

describe('a password reset', () => {
  it('sets a new password through the e-mailed link, once, and signs the developer out everywhere', async () => {
    const elsewhere = await signUpVerified(server, 'reset@example.org');
    expect((await elsewhere.get('/portal/keys')).status).toBe(200);

    const link = await requestReset('reset@example.org');
    const browser = new PortalClient(server.url);
    const form = await browser.get(portalPath(link));
    expect(form.status).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(form.body)![1];

    // A refused password leaves the link usable.
    const weak = await browser.post('/portal/reset-password', { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body).toContain('Use at least 12 characters');
    const done = await browser.post('/portal/reset-password', { token, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Your password is changed');

    expect((await elsewhere.get('/portal/keys')).status).toBe(303);
    expect((await browser.get(portalPath(link))).status).toBe(400);
    await browser.get('/portal/forgot-password');
    expect((await browser.post('/portal/reset-password', { token, password: 'another fine passphrase' })).status).toBe(400);

    const old = new PortalClient(server.url);
    await old.get('/portal/sign-in');
    expect((await old.post('/portal/sign-in', { email: 'reset@example.org', password: GOOD_PASSWORD })).status).toBe(401);
    await signIn(old, 'reset@example.org', NEW_PASSWORD);
  });

  it('sends nothing for an unknown address', async () => {
    await signUpVerified(server, 'known-after@example.org');
    const before = server.smtp.received.length;
    const client = new PortalClient(server.url);
    await client.get('/portal/forgot-password');
    await client.post('/portal/forgot-password', { email: 'nobody@example.org' });
    // A reset for a known address afterwards: its mail is dispatched after anything the first
    // request dispatched, and on the one pooled connection it cannot overtake it. Once it has
    // arrived, a message to the unknown address would have arrived as well; no sleep involved.
    await requestReset('known-after@example.org');
    const sinceThen = server.smtp.received.slice(before).map((mail) => mail.to);
    expect(sinceThen).toEqual(['known-after@example.org']);
  });

  it('makes an older reset link void when a newer one is sent', async () => {
    await signUpVerified(server, 'twice@example.org');
    const first = await requestReset('twice@example.org');
    const second = await requestReset('twice@example.org');
    const client = new PortalClient(server.url);
    expect((await client.get(portalPath(first))).status).toBe(400);
    expect((await client.get(portalPath(second))).status).toBe(200);
  });
});
