// The account page: change of name and password, sign-out, and deleting the account (its keys stop at once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalClient } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, signIn, signUpVerified, startPortalTestServer } from './portal-server.ts';

let server: PortalTestServer;

beforeAll(async () => {
  server = await startPortalTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the account page', () => {
  it('changes the name, refusing an empty one', async () => {
    const client = await signUpVerified(server, 'name@example.org');
    await client.get('/portal/account');
    expect((await client.post('/portal/account/name', { name: '  ' })).status).toBe(400);
    const saved = await client.post('/portal/account/name', { name: 'Ana <Lima>' });
    expect(saved.status).toBe(303);
    const page = await client.follow(saved);
    expect(page.body).toContain('Your name is saved.');
    expect(page.body).toContain('value="Ana &lt;Lima&gt;"');
    expect(page.body).not.toContain('<Lima>');
  });

  it('changes the password after checking the current one, and signs other sessions out', async () => {
    const client = await signUpVerified(server, 'password@example.org');
    const other = new PortalClient(server.url);
    await signIn(other, 'password@example.org');
    await client.get('/portal/account');
    const wrong = await client.post('/portal/account/password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new passphrase',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('The current password is wrong.');
    const weak = await client.post('/portal/account/password', { currentPassword: GOOD_PASSWORD, newPassword: 'password1234' });
    expect(weak.body).toContain('most common');
    const changed = await client.post('/portal/account/password', {
      currentPassword: GOOD_PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(changed.status).toBe(303);
    expect((await client.get('/portal/keys')).status).toBe(200);
    expect((await other.get('/portal/keys')).status).toBe(303);
    await signIn(new PortalClient(server.url), 'password@example.org', 'a brand new passphrase');
  });

  it('deletes the account after a confirmation: its keys answer 401 on the very next request', async () => {
    const client = await signUpVerified(server, 'gone@example.org');
    await client.get('/portal/keys');
    const key = /value="(sk_live_[^"]+)"/.exec((await client.follow(await client.post('/portal/keys', { name: 'site' }))).body)![1];
    const call = () => fetch(`${server.url}/api/public/v1/churches/grace-paris`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call()).status).toBe(200);

    const confirm = await client.get('/portal/account/delete');
    expect(confirm.body).toContain('1 active key stops working');
    expect((await client.post('/portal/account/delete', {})).status).toBe(400);
    const deleted = await client.post('/portal/account/delete', { confirm: 'yes' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toContain('Your account is deleted');
    expect((await call()).status).toBe(401);
    expect(await server.services.accountService.developerByEmail('gone@example.org')).toBeUndefined();
    expect((await client.get('/portal/keys')).status).toBe(303);
  });
});
