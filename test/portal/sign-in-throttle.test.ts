// The failed-sign-in throttle on its own: only failures count, per account and per client address, a 429 page in whole minutes, open when its store fails.
import { createHash } from 'node:crypto';
import express from 'express';
import { MemoryStore, type Store } from 'express-rate-limit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/http/logger.ts';
import { createSignInThrottle, FAILED_SIGN_INS_PER_ACCOUNT, FAILED_SIGN_INS_PER_CLIENT } from '../../src/portal/sign-in-throttle.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { collectLogLines } from '../helpers/log-lines.ts';

const RIGHT_PASSWORD = 'the right one';

let signInClient: MemoryStore;
let signInAccount: MemoryStore;
let server: Listening | undefined;

beforeEach(() => {
  signInClient = new MemoryStore();
  signInAccount = new MemoryStore();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  signInClient.shutdown();
  signInAccount.shutdown();
});

/** A sign-in form behind the throttle: 303 for the right password, 401 for any other. Clients are told apart by X-Forwarded-For. */
async function startSignIn(stores: { signInClient: Store; signInAccount: Store }, logs = collectLogLines()): Promise<Listening> {
  const app = express();
  app.set('trust proxy', 'loopback');
  const throttle = createSignInThrottle({ limitStores: stores, logger: createLogger('info', logs.destination) });
  app.post('/sign-in', express.urlencoded({ extended: false }), ...throttle, (req, res) => {
    res.status(req.body.password === RIGHT_PASSWORD ? 303 : 401).end();
  });
  server = await listenOnLoopback(app);
  return server;
}

async function signIn(url: string, email: string, password: string, address = '192.0.2.1'): Promise<Response> {
  return fetch(`${url}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams({ email, password }),
  });
}

const accountKey = (email: string) => createHash('sha256').update(email).digest('hex');

describe('the failed-sign-in throttle', () => {
  it('counts failures only: a sign-in that succeeds takes its count back', async () => {
    const { url } = await startSignIn({ signInClient, signInAccount });
    for (let i = 0; i < FAILED_SIGN_INS_PER_ACCOUNT - 1; i++) expect((await signIn(url, 'ana@example.org', `guess ${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await signIn(url, 'ana@example.org', RIGHT_PASSWORD)).status).toBe(303);
    // Taken back once each response has finished.
    await vi.waitFor(async () =>
      expect((await signInAccount.get(accountKey('ana@example.org')))?.totalHits).toBe(FAILED_SIGN_INS_PER_ACCOUNT - 1),
    );
    expect((await signIn(url, 'ana@example.org', 'one more guess')).status).toBe(401);
    expect((await signIn(url, 'ana@example.org', RIGHT_PASSWORD)).status).toBe(429);
  });

  it('answers a page that says how many whole minutes to wait', async () => {
    const { url } = await startSignIn({ signInClient, signInAccount });
    for (let i = 0; i < FAILED_SIGN_INS_PER_ACCOUNT; i++) await signIn(url, 'Bo@Example.org ', `guess ${i}`);
    // The account is the address as typed, trimmed and in lower case.
    const blocked = await signIn(url, 'bo@example.org', RIGHT_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toMatch(/^text\/html/);
    expect(blocked.headers.get('ratelimit')).toBeNull();
    expect(blocked.headers.get('retry-after')).toBeNull();
    expect(await blocked.text()).toContain('Too many failed sign-ins. Try again in 15 minutes, or reset your password.');
  });

  it(`refuses an address after ${FAILED_SIGN_INS_PER_CLIENT} failures over any accounts; another address goes on`, async () => {
    const { url } = await startSignIn({ signInClient, signInAccount });
    for (let i = 0; i < FAILED_SIGN_INS_PER_CLIENT; i++) {
      expect((await signIn(url, `someone-${i}@example.org`, 'guess', '192.0.2.7')).status).toBe(401);
    }
    expect((await signIn(url, 'fresh@example.org', RIGHT_PASSWORD, '192.0.2.7')).status).toBe(429);
    // Refused by the address, before the account was counted.
    expect(await signInAccount.get(accountKey('fresh@example.org'))).toBeUndefined();
    expect((await signIn(url, 'fresh@example.org', RIGHT_PASSWORD, '192.0.2.8')).status).toBe(303);
  });

  it('lets every attempt through when its store fails, and logs the failure', async () => {
    const broken: Store = {
      increment: () => Promise.reject(new Error('store down')),
      decrement: () => Promise.reject(new Error('store down')),
      resetKey: () => Promise.reject(new Error('store down')),
    };
    const logs = collectLogLines();
    const { url } = await startSignIn({ signInClient: broken, signInAccount: broken }, logs);
    for (let i = 0; i <= FAILED_SIGN_INS_PER_ACCOUNT; i++) expect((await signIn(url, 'cy@example.org', `guess ${i}`)).status).toBe(401);
    expect(logs.lines.some((line) => line.includes('"limiter":"sign-in-client"') && line.includes('store down'))).toBe(true);
  });
});
