// Sign-up with a verified e-mail (through a real SMTP server), then keys: created once, used, revoked, limited to five.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../src/portal/session-store.ts';
import { PortalClient } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, portalPath, signIn, signUpVerified, startPortalTestServer } from './portal-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
let server: PortalTestServer;

beforeAll(async () => {
  // Mail in the order it is dispatched: a message that arrives proves every earlier one has arrived.
  server = await startPortalTestServer({}, undefined, { mailInOrder: true });
});
afterAll(async () => {
  await server?.close();
});

const callChurch = (key: string) => fetch(server.url + CHURCH, { headers: { authorization: `Bearer ${key}` } });
/** Creates a key through the form and, when it is made, follows the redirect to the page that shows it. */
const createKey = async (client: PortalClient, name: string) => {
  await client.get('/portal/keys');
  const posted = await client.post('/portal/keys', { name });
  if (posted.status !== 303) return posted;
  expect(posted.location).toBe('/portal/keys/new');
  return client.follow(posted);
};
const keyOnPage = (body: string) => /id="new-key"[^>]* value="(sk_live_[^"]+)"/.exec(body)?.[1];

describe('signing up', () => {
  it('sends a verification e-mail with a text and an HTML part whose link verifies the address once', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-up');
    const answer = await client.post('/portal/sign-up', { name: 'Ana Lima', email: 'Ana@Example.org', password: GOOD_PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Check your inbox');

    const mail = await server.smtp.nextMail('ana@example.org');
    expect(mail.subject).toBe('Verify your e-mail address');
    expect(mail.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/portal\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="${mail.link}"`);

    // Until verified: signed in, the dashboard says so and refuses keys.
    await signIn(client, 'ana@example.org');
    const dashboard = await client.get('/portal/keys');
    expect(dashboard.body).toContain('is not verified yet');
    const refused = await client.post('/portal/keys', { name: 'site' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('not verified yet');

    // Opening the link changes nothing (a mail scanner may open it); the button does.
    const page = await client.get(portalPath(mail.link!));
    expect(page.status).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(page.body)![1];
    const verified = await client.post('/portal/verify-email', { token });
    expect(verified.status).toBe(303);
    expect((await client.follow(verified)).body).toContain('Your address is verified');
    expect((await server.services.accountService.developerByEmail('ana@example.org'))?.emailVerifiedAt).not.toBeNull();

    const again = await client.get(portalPath(mail.link!));
    expect(again.status).toBe(400);
    expect(again.body).toContain('This link no longer works');
  });

  it('sends the link again on request, and the older link stops working', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-up');
    await client.post('/portal/sign-up', { name: 'Bo', email: 'bo@example.org', password: GOOD_PASSWORD });
    const first = await server.smtp.nextMail('bo@example.org');
    await signIn(client, 'bo@example.org');
    await client.get('/portal/keys');
    const resent = await client.post('/portal/verify-email/resend');
    expect(resent.status).toBe(303);
    expect((await client.follow(resent)).body).toContain('We sent a new verification link');
    const second = await server.smtp.nextMail('bo@example.org');
    expect(second.link).not.toBe(first.link);
    expect((await client.get(portalPath(first.link!))).status).toBe(400);
    expect((await client.get(portalPath(second.link!))).status).toBe(200);
  });

  it('refuses a weak password, a malformed address and an empty name, naming the input', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-up');
    const short = await client.post('/portal/sign-up', { name: 'Cy', email: 'cy@example.org', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toMatch(/id="field-password-error">Use at least 12 characters/);
    const common = await client.post('/portal/sign-up', { name: 'Cy', email: 'cy@example.org', password: 'Password1234' });
    expect(common.body).toContain('one of the most common');
    const address = await client.post('/portal/sign-up', { name: 'Cy', email: 'not an address', password: GOOD_PASSWORD });
    expect(address.body).toMatch(/id="field-email-error"/);
    const name = await client.post('/portal/sign-up', { name: ' ', email: 'cy@example.org', password: GOOD_PASSWORD });
    expect(name.body).toMatch(/id="field-name-error"/);
    expect(await server.services.accountService.developerByEmail('cy@example.org')).toBeUndefined();
  });

  it('refuses a reserved address with a clear message, the same whether or not an account has it', async () => {
    // pastor@ has an account before its address is reserved; deacon@ has none.
    await signUpVerified(server, 'pastor@example.org');
    const before = (await server.services.accountService.developerByEmail('pastor@example.org'))!;
    await server.services.accountService.importReservedEmails(['pastor@example.org', 'deacon@example.org']);
    const mailsBefore = server.smtp.received.length;
    const signUp = async (email: string) => {
      const client = new PortalClient(server.url);
      await client.get('/portal/sign-up');
      return client.post('/portal/sign-up', { name: 'Pastor', email, password: GOOD_PASSWORD });
    };
    const withAccount = await signUp('pastor@example.org');
    const withoutAccount = await signUp('deacon@example.org');
    expect(withAccount.status).toBe(400);
    expect(withAccount.body).toContain('is linked to another of our products');
    const comparable = (body: string, email: string) => body.replace(/name="_csrf" value="[^"]+"/g, '').replaceAll(email, '<email>');
    expect(comparable(withAccount.body, 'pastor@example.org')).toBe(comparable(withoutAccount.body, 'deacon@example.org'));
    expect(await server.services.accountService.developerByEmail('pastor@example.org')).toEqual(before);
    expect(await server.services.accountService.developerByEmail('deacon@example.org')).toBeUndefined();
    // No "you already have an account" mail to the holder either (it would tell the address is in use).
    await signUpVerified(server, 'after-pastor@example.org');
    expect(server.smtp.received.slice(mailsBefore).map((mail) => mail.to)).toEqual(['after-pastor@example.org']);
  });
});

describe('API keys in the dashboard', () => {
  it('are shown once in full, work at once, and stop working on the very next request once revoked', async () => {
    const client = await signUpVerified(server, 'keys@example.org');
    const created = await createKey(client, 'parish website');
    expect(created.status).toBe(200);
    expect(created.body).toContain('it is shown only this once');
    const key = keyOnPage(created.body)!;
    expect(key).toMatch(/^sk_live_/);
    expect(created.headers.get('cache-control')).toBe('no-store');

    expect((await callChurch(key)).status).toBe(200);

    const dashboard = await client.get('/portal/keys');
    expect(dashboard.body).toContain('parish website');
    expect(dashboard.body).toContain(`…${key.slice(-4)}`);
    expect(dashboard.body).not.toContain(key);
    expect(dashboard.body).toMatch(
      /<td><time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time><\/td>\n<td><span class="status active">/,
    );

    const { id } = (
      await server.services.accountService.listKeys((await server.services.accountService.developerByEmail('keys@example.org'))!.id)
    )[0];
    const confirm = await client.get(`/portal/keys/${id}/revoke`);
    expect(confirm.body).toContain('stops working at once');
    const revoked = await client.post(`/portal/keys/${id}/revoke`);
    expect(revoked.status).toBe(303);
    expect((await client.follow(revoked)).body).toContain('is revoked');
    expect((await callChurch(key)).status).toBe(401);
  });

  it('are made once per post: the page that shows the key is reached by a redirect, and reloading it shows the list', async () => {
    const client = await signUpVerified(server, 'reload@example.org');
    const developerId = (await server.services.accountService.developerByEmail('reload@example.org'))!.id;
    await client.get('/portal/keys');
    const posted = await client.post('/portal/keys', { name: 'reloaded' });
    expect(posted.status).toBe(303);
    expect(posted.body).not.toContain('sk_live_');
    const shown = await client.follow(posted);
    const key = keyOnPage(shown.body)!;
    expect(key).toMatch(/^sk_live_/);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    // A reload (twice, as an impatient developer does) shows the list; it neither shows the key again nor makes another.
    for (let reload = 0; reload < 2; reload++) {
      const again = await client.get('/portal/keys/new');
      expect(again.status).toBe(303);
      expect(again.location).toBe('/portal/keys');
      const list = await client.follow(again);
      expect(list.body).toContain('reloaded');
      expect(list.body).not.toContain(key);
    }
    expect(await server.services.accountService.listKeys(developerId)).toHaveLength(1);
    // Between the post and the page the key was in the session row, sealed: never in clear.
    const sessions = server.services.portal.sessions;
    expect(
      JSON.stringify(
        await sessions.find(hashSessionId(decodeURIComponent(client.sessionCookie!).slice(2).split('.')[0]), new Date().toISOString()),
      ),
    ).not.toContain(key);
  });

  it('are refused past five active ones with a clear message', async () => {
    const client = await signUpVerified(server, 'many@example.org');
    for (let index = 1; index <= 5; index += 1) expect((await createKey(client, `key ${index}`)).status).toBe(200);
    const sixth = await createKey(client, 'key 6');
    expect(sixth.status).toBe(409);
    expect(sixth.body).toContain('at most 5 active keys');
    expect(keyOnPage(sixth.body)).toBeUndefined();
  });

  it('cannot be revoked by another developer, nor through a malformed id', async () => {
    const owner = await signUpVerified(server, 'owner@example.org');
    await createKey(owner, 'mine');
    const ownerId = (await server.services.accountService.developerByEmail('owner@example.org'))!.id;
    const { id } = (await server.services.accountService.listKeys(ownerId))[0];
    const other = await signUpVerified(server, 'other@example.org');
    expect((await other.get(`/portal/keys/${id}/revoke`)).status).toBe(404);
    await other.get('/portal/keys');
    expect((await other.post(`/portal/keys/${id}/revoke`)).status).toBe(404);
    expect((await other.get('/portal/keys/1e3/revoke')).status).toBe(404);
    expect((await server.services.accountService.listKeys(ownerId))[0].revokedAt).toBeNull();
  });

  it('need a signed-in developer: signed out, the pages send you to sign in', async () => {
    const client = new PortalClient(server.url);
    const keys = await client.get('/portal/keys');
    expect(keys.status).toBe(303);
    expect(keys.location).toBe('/portal/sign-in');
  });

  it('come with a guide showing curl and server-side JavaScript, and why a key never goes into browser code', async () => {
    const guide = await new PortalClient(server.url).get('/portal/guide');
    expect(guide.body).toContain('curl -H "Authorization: Bearer $CHURCH_API_KEY"');
    expect(guide.body).toContain('process.env.CHURCH_API_KEY');
    expect(guide.body).toContain('Why a key never goes into browser code');
  });
});
