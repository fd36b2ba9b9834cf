// The portal's security as a client meets it: CSRF, cookie flags, headers, no enumeration, throttling, nothing secret stored or logged.

import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_COOKIE } from '../../src/portal/csrf.ts';
import { FAILED_SIGN_INS_PER_ACCOUNT } from '../../src/portal/sign-in-throttle.ts';
import { PortalClient } from './portal-client.ts';
import { GOOD_PASSWORD, type PortalTestServer, signIn, signUpVerified, startPortalTestServer } from './portal-server.ts';

let server: PortalTestServer;
let key: string;
let signedIn: PortalClient;

beforeAll(async () => {
  server = await startPortalTestServer();
  signedIn = await signUpVerified(server, 'known@example.org');
  await signedIn.get('/portal/keys');
  const created = await signedIn.follow(await signedIn.post('/portal/keys', { name: 'site' }));
  key = /value="(sk_live_[^"]+)"/.exec(created.body)![1];
});
afterAll(async () => {
  await server?.close();
});

/** A page with what legitimately differs between two answers (token, typed address) taken out. */
const comparable = (body: string, email: string) => body.replace(/name="_csrf" value="[^"]+"/g, '').replaceAll(email, '<email>');

describe('CSRF protection', () => {
  it('refuses a form post without a token or with a wrong one, and does nothing', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-up');
    const fields = { name: 'Mallory', email: 'mallory@example.org', password: GOOD_PASSWORD };
    const without = await client.post('/portal/sign-up', { ...fields, _csrf: undefined });
    expect(without.status).toBe(403);
    expect(without.headers.get('content-type')).toContain('text/html');
    const wrong = await client.post('/portal/sign-up', { ...fields, _csrf: 'f'.repeat(64) });
    expect(wrong.status).toBe(403);
    // Another session's token is a wrong token too, and so is another visitor's form token with this visitor's cookie.
    const foreign = await client.post('/portal/sign-up', { ...fields, _csrf: signedIn.csrfToken });
    expect(foreign.status).toBe(403);
    const other = new PortalClient(server.url);
    await other.get('/portal/sign-up');
    expect((await client.post('/portal/sign-up', { ...fields, _csrf: other.csrfToken })).status).toBe(403);
    // The right token without its cookie (a post from another site, whose request carries no cookie of ours).
    const cookieless = new PortalClient(server.url);
    expect((await cookieless.post('/portal/sign-up', { ...fields, _csrf: client.csrfToken })).status).toBe(403);
    expect(await server.services.accountService.developerByEmail('mallory@example.org')).toBeUndefined();
  });

  it('protects signed-in actions: no key is created or revoked by a forged post', async () => {
    const developer = (await server.services.accountService.developerByEmail('known@example.org'))!;
    const before = await server.services.accountService.listKeys(developer.id);
    const token = signedIn.csrfToken;
    signedIn.csrfToken = 'forged';
    expect((await signedIn.post('/portal/keys', { name: 'forged' })).status).toBe(403);
    expect((await signedIn.post(`/portal/keys/${before[0].id}/revoke`)).status).toBe(403);
    signedIn.csrfToken = token;
    expect(await server.services.accountService.listKeys(developer.id)).toEqual(before);
  });
});

describe('the session cookie', () => {
  it('has its own name, HttpOnly, SameSite=Lax and the portal path; no Secure over plain HTTP', async () => {
    const client = new PortalClient(server.url);
    await signIn(client, 'known@example.org');
    const cookie = client.setCookies.find((line) => line.startsWith('portal_sid='))!;
    expect(cookie).toMatch(/; Path=\/portal(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it('is Secure when the request came over TLS through a trusted proxy, as is the anonymous form cookie', async () => {
    const proxied = await startPortalTestServer({ TRUST_PROXY: '1' });
    try {
      const client = new PortalClient(proxied.url, { 'x-forwarded-proto': 'https' });
      await signIn(client, 'known-nowhere@example.org').catch(() => undefined);
      expect(client.setCookies.find((line) => line.startsWith(`${FORM_COOKIE}=`))).toMatch(/; Secure(;|$)/);
      await signUpVerified(proxied, 'tls@example.org', GOOD_PASSWORD, client);
      expect(client.setCookies.find((line) => line.startsWith('portal_sid='))).toMatch(/; Secure(;|$)/);
    } finally {
      await proxied.close();
    }
  });

  it('is set by signing in, never by reading a page: anonymous form pages store no session', async () => {
    const rows = () => {
      const db = new Database(path.join(server.dir, 'church.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM portal_sessions').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    const before = rows();
    const visitor = new PortalClient(server.url);
    for (const page of ['/portal/', '/portal/sign-up', '/portal/sign-in', '/portal/forgot-password', '/portal/guide', '/portal/keys']) {
      for (let i = 0; i < 5; i++) await visitor.get(page);
      await new PortalClient(server.url).get(page);
    }
    expect(visitor.setCookies.filter((line) => line.startsWith('portal_sid='))).toEqual([]);
    // One form cookie for the visitor, kept across the pages (a stateless value, nothing stored).
    expect(visitor.setCookies.filter((line) => line.startsWith(`${FORM_COOKIE}=`))).toHaveLength(1);
    expect(rows()).toBe(before);
    await signIn(visitor, 'known@example.org');
    expect(rows()).toBe(before + 1);
  });

  it('gets a new session id at every sign-in, and the old one is no longer signed in', async () => {
    const client = new PortalClient(server.url);
    await signIn(client, 'known@example.org');
    const before = client.sessionCookie!;
    // Signed in, the sign-in page sends to the keys; a sign-in posted from there (its token) still gets a new id.
    await client.get('/portal/keys');
    expect((await client.post('/portal/sign-in', { email: 'known@example.org', password: GOOD_PASSWORD })).status).toBe(303);
    expect(client.sessionCookie).not.toBe(before);
    const planted = new PortalClient(server.url);
    planted.cookies.set('portal_sid', before);
    expect((await planted.get('/portal/keys')).status).toBe(303);
  });

  it('is ended by signing out', async () => {
    const client = await signUpVerified(server, 'leaving@example.org');
    const cookie = client.sessionCookie!;
    await client.get('/portal/keys');
    expect((await client.post('/portal/sign-out')).status).toBe(303);
    const replay = new PortalClient(server.url);
    replay.cookies.set('portal_sid', cookie);
    expect((await replay.get('/portal/keys')).status).toBe(303);
  });
});

describe('security headers', () => {
  it('set a strict Content Security Policy with no other host, and forbid framing', async () => {
    const response = await fetch(`${server.url}/portal/sign-in`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('leave the API as it was: its errors stay problem+json, the portal has HTML ones', async () => {
    expect((await fetch(`${server.url}/api/public/v1/churches/grace-paris`)).headers.get('content-type')).toContain(
      'application/problem+json',
    );
    expect((await fetch(`${server.url}/api/v1/bible/versions`, { method: 'POST' })).status).toBe(405);
    const postToAsset = await fetch(`${server.url}/portal/assets/portal.css`, { method: 'POST' });
    expect(postToAsset.status).toBe(405);
    expect(postToAsset.headers.get('allow')).toBe('GET, HEAD');
    const missing = await fetch(`${server.url}/portal/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('text/html');
  });
});

describe('no account enumeration', () => {
  it('sign-up answers the same for a known and an unknown address', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-up');
    const known = await client.post('/portal/sign-up', { name: 'X', email: 'known@example.org', password: GOOD_PASSWORD });
    const unknown = await client.post('/portal/sign-up', { name: 'X', email: 'fresh@example.org', password: GOOD_PASSWORD });
    expect(known.status).toBe(unknown.status);
    expect(comparable(known.body, 'known@example.org')).toBe(comparable(unknown.body, 'fresh@example.org'));
    // The owner of the known address is told by e-mail, not the person at the form.
    expect((await server.smtp.nextMail('known@example.org')).subject).toBe('You already have an account');
  });

  it('sign-in answers the same for a wrong password and an unknown address', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-in');
    const known = await client.post('/portal/sign-in', { email: 'known@example.org', password: 'wrong password 123' });
    const unknown = await client.post('/portal/sign-in', { email: 'nobody@example.org', password: 'wrong password 123' });
    expect(known.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(comparable(known.body, 'known@example.org')).toBe(comparable(unknown.body, 'nobody@example.org'));
  });

  it('a reset request answers the same for a known and an unknown address', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/forgot-password');
    const known = await client.post('/portal/forgot-password', { email: 'known@example.org' });
    const unknown = await client.post('/portal/forgot-password', { email: 'nobody@example.org' });
    expect(known.status).toBe(unknown.status);
    expect(comparable(known.body, 'known@example.org')).toBe(comparable(unknown.body, 'nobody@example.org'));
    await server.smtp.nextMail('known@example.org');
  });
});

describe('failed sign-ins', () => {
  it(`are throttled per account after ${FAILED_SIGN_INS_PER_ACCOUNT}, for known and unknown addresses alike; then even the right password waits`, async () => {
    await signUpVerified(server, 'target@example.org');
    for (const email of ['target@example.org', 'ghost@example.org']) {
      const client = new PortalClient(server.url);
      await client.get('/portal/sign-in');
      for (let attempt = 0; attempt < FAILED_SIGN_INS_PER_ACCOUNT; attempt += 1) {
        expect((await client.post('/portal/sign-in', { email, password: `guess number ${attempt}` })).status).toBe(401);
      }
      const blocked = await client.post('/portal/sign-in', { email, password: GOOD_PASSWORD });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toContain('Too many failed sign-ins');
    }
    // Another account from the same client is not blocked by them.
    const other = new PortalClient(server.url);
    await other.get('/portal/sign-in');
    expect((await other.post('/portal/sign-in', { email: 'known@example.org', password: GOOD_PASSWORD })).status).toBe(303);
  });
});

describe('what is stored and logged', () => {
  it('the database holds no password, key, session id or link token in clear', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/forgot-password');
    await client.post('/portal/forgot-password', { email: 'known@example.org' });
    const resetToken = new URL((await server.smtp.nextMail('known@example.org')).link!).searchParams.get('token')!;
    const sessionId = decodeURIComponent(signedIn.sessionCookie!).slice(2).split('.')[0];

    const db = new Database(path.join(server.dir, 'church.sqlite'), { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    const everything = JSON.stringify(tables.map((table) => db.prepare(`SELECT * FROM "${table}"`).all()));
    db.close();
    expect(everything).toContain('known@example.org');
    for (const secret of [GOOD_PASSWORD, key, key.slice(8), sessionId, resetToken]) expect(everything).not.toContain(secret);
    expect(everything).not.toContain('sk_live_');
  });

  it('the logs hold no password, key, session id or token', () => {
    const logs = server.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [GOOD_PASSWORD, key, 'portal_sid', '_csrf']) expect(logs).not.toContain(secret);
    // Link tokens in logged paths are replaced (the request log redacts query values).
    expect(logs).toContain('verify-email?token=[redacted]');
    expect(logs).not.toMatch(/token=(?!\[redacted\])/);
    for (const mail of server.smtp.received) expect(logs).not.toContain(new URL(mail.link!).searchParams.get('token') ?? 'no token');
  });
});

describe('the service', () => {
  it('links to the portal from / and from /docs', async () => {
    expect(await (await fetch(`${server.url}/`)).json()).toMatchObject({ portal: '/portal/' });
    expect(await (await fetch(`${server.url}/docs`)).text()).toContain('href="/portal/"');
  });
});
