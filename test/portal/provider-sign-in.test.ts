// Sign-in through a real OpenID Connect provider on loopback (oidc-provider), with openid-client, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcTestProvider, startOidcTestProvider, TEST_PROVIDER_NAME } from '../helpers/oidc-test-provider.ts';
import { freePort } from '../helpers/redis-server.ts';
import { PortalClient, type PortalResponse } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, signIn, startPortalTestServer } from './portal-server.ts';

let server: PortalTestServer;
let provider: OidcTestProvider;

beforeAll(async () => {
  const port = await freePort();
  provider = await startOidcTestProvider(`http://127.0.0.1:${port}/portal`);
  server = await startPortalTestServer(provider.env, port);
});
afterAll(async () => {
  await server?.close();
  await provider?.stop();
});

/**
 * Goes from the portal's provider button through the provider's login and consent forms and back,
 * like a browser: returns the portal's answer to the callback.
 */
async function signInThroughProvider(portal: PortalClient, login: string): Promise<PortalResponse> {
  const browser = new PortalClient(provider.issuer);
  let response = await portal.get('/portal/sign-in/provider');
  for (let step = 0; step < 20; step += 1) {
    if (response.location) {
      const target = new URL(response.location, provider.issuer);
      if (target.origin === new URL(server.url).origin) return portal.get(target.pathname + target.search);
      response = await browser.get(target.href);
      continue;
    }
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[\s\S]*?<\/form>/.exec(response.body);
    if (!form) throw new Error(`provider page without a form (${response.status}): ${response.body.slice(0, 300)}`);
    const fields: Record<string, string | undefined> = { _csrf: undefined };
    for (const hidden of form[0].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[hidden[1]] = hidden[2];
    if (form[0].includes('name="login"')) Object.assign(fields, { login, password: 'anything' });
    response = await browser.post(new URL(form[1], provider.issuer).href, fields);
  }
  throw new Error('the provider flow did not come back to the portal');
}

describe('sign-in through an OpenID Connect provider', () => {
  it('is offered on the sign-in page under the configured name', async () => {
    const page = await new PortalClient(server.url).get('/portal/sign-in');
    expect(page.body).toContain(`Sign in with ${TEST_PROVIDER_NAME}`);
    expect(page.body).toContain('href="/portal/sign-in/provider"');
  });

  it('creates a verified account at the first sign-in, and signs the same account in the next time', async () => {
    provider.identities.set('new-dev', { email: 'New.Dev@Example.org', emailVerified: true, name: 'New Dev' });
    const portal = new PortalClient(server.url);
    const back = await signInThroughProvider(portal, 'new-dev');
    expect(back.status).toBe(303);
    expect(back.location).toBe('/portal/keys');
    const dashboard = await portal.follow(back);
    expect(dashboard.body).not.toContain('not verified yet');
    const developer = (await server.services.accountService.developerByEmail('new.dev@example.org'))!;
    expect(developer).toMatchObject({ name: 'New Dev', emailVerifiedAt: expect.any(String) });
    // Keys can be created at once.
    expect((await portal.post('/portal/keys', { name: 'from provider' })).status).toBe(303);

    const again = new PortalClient(server.url);
    expect((await signInThroughProvider(again, 'new-dev')).location).toBe('/portal/keys');
    expect((await server.services.accountService.listDevelopers()).filter((d) => d.email === 'new.dev@example.org')).toHaveLength(1);
  });

  it('links an existing e-mail account instead of making a second one, and verifies its address', async () => {
    const existing = new PortalClient(server.url);
    await existing.get('/portal/sign-up');
    await existing.post('/portal/sign-up', { name: 'Has Password', email: 'linked@example.org', password: GOOD_PASSWORD });
    await server.smtp.nextMail('linked@example.org');
    const before = (await server.services.accountService.developerByEmail('linked@example.org'))!;
    expect(before.emailVerifiedAt).toBeNull();

    provider.identities.set('linker', { email: 'linked@example.org', emailVerified: true, name: 'Other Name' });
    const portal = new PortalClient(server.url);
    expect((await signInThroughProvider(portal, 'linker')).location).toBe('/portal/keys');
    const after = (await server.services.accountService.developerByEmail('linked@example.org'))!;
    expect(after.id).toBe(before.id);
    expect(after.name).toBe('Has Password');
    expect(after.emailVerifiedAt).not.toBeNull();
    expect((await server.services.accountService.listDevelopers()).filter((d) => d.email === 'linked@example.org')).toHaveLength(1);
    // The password still works too.
    await signIn(new PortalClient(server.url), 'linked@example.org');
  });

  it('refuses a reserved address with the same answer whether or not an account has it, creating and linking nothing', async () => {
    // staff@ has an account (signed up, not yet verified) before its address is reserved; staff2@ has none.
    const holder = new PortalClient(server.url);
    await holder.get('/portal/sign-up');
    await holder.post('/portal/sign-up', { name: 'Staff Member', email: 'staff@example.org', password: GOOD_PASSWORD });
    await server.smtp.nextMail('staff@example.org');
    const before = (await server.services.accountService.developerByEmail('staff@example.org'))!;
    expect(before.emailVerifiedAt).toBeNull();
    await server.services.accountService.importReservedEmails(['staff@example.org', 'staff2@example.org']);

    provider.identities.set('staff', { email: 'staff@example.org', emailVerified: true });
    provider.identities.set('staff2', { email: 'staff2@example.org', emailVerified: true });
    const withAccount = await signInThroughProvider(new PortalClient(server.url), 'staff');
    const withoutAccount = await signInThroughProvider(new PortalClient(server.url), 'staff2');
    expect(withAccount.status).toBe(403);
    expect(withAccount.body).toContain('is linked to another of our products');
    const comparable = (body: string, email: string) => body.replace(/name="_csrf" value="[^"]+"/g, '').replaceAll(email, '<email>');
    expect(comparable(withAccount.body, 'staff@example.org')).toBe(comparable(withoutAccount.body, 'staff2@example.org'));
    // The existing account was neither linked nor verified by the provider; no account was made for the other address.
    expect(await server.services.accountService.developerByEmail('staff@example.org')).toEqual(before);
    expect(await server.services.accountService.developerByEmail('staff2@example.org')).toBeUndefined();
    const again = await signInThroughProvider(new PortalClient(server.url), 'staff');
    expect(again.status).toBe(403);
  });

  it('refuses an address the provider has not verified, creating and linking nothing', async () => {
    provider.identities.set('unverified', { email: 'unverified@example.org', emailVerified: false });
    const answer = await signInThroughProvider(new PortalClient(server.url), 'unverified');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('did not confirm an e-mail address');
    expect(await server.services.accountService.developerByEmail('unverified@example.org')).toBeUndefined();
  });

  it('refuses a callback that was not started from this session (state and PKCE are checked)', async () => {
    const forged = await new PortalClient(server.url).get('/portal/sign-in/provider/callback?code=abc&state=xyz');
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('was not started here');
  });
});
