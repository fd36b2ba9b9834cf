// Key authentication on the church endpoints of the real app: the three 401s, last use, revocation, logs, the invalid-key throttle.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { getWithKey } from '../helpers/api-client.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { problemType } from '../helpers/problem.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCH = '/api/public/v1/churches/grace-paris';
/** The client address comes from X-Forwarded-For (the throttle tests send several), as behind a proxy on this machine. */
const BEHIND_LOCAL_PROXY = { TRUST_PROXY: 'loopback' };

/** The three 401s: no Bearer key, a key of the wrong shape, a key that is not active. */
const MISSING = { wwwAuthenticate: 'Bearer', type: problemType('api-key-missing'), title: 'Missing API key' };
const MALFORMED = { wwwAuthenticate: 'Bearer error="invalid_token"', type: problemType('api-key-malformed'), title: 'Malformed API key' };
const UNKNOWN = {
  wwwAuthenticate: 'Bearer error="invalid_token"',
  type: problemType('api-key-unknown'),
  title: 'Unknown or revoked API key',
};

async function expectUnauthorized(
  response: Response,
  expected: { wwwAuthenticate: string; type: string; title: string },
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(expected.wwwAuthenticate);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status: 401, title: expected.title, type: expected.type });
  expect(body.detail).toEqual(expect.any(String));
  return body;
}

describe('church endpoints authenticate by API key', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer({ ...BEHIND_LOCAL_PROXY, INVALID_KEY_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(() => app.close());

  it('answer 401 with WWW-Authenticate: Bearer and a problem body when the header is missing', async () => {
    const body = await expectUnauthorized(await getWithKey(app.url + CHURCH), MISSING);
    expect(body.detail).toContain('Authorization: Bearer sk_live_');
  });

  it('answer 401 for another scheme than Bearer', async () => {
    const key = await createTestKey(app.services);
    await expectUnauthorized(await getWithKey(app.url + CHURCH, undefined, { Authorization: `Basic ${key}` }), MISSING);
  });

  it('refuse a key with a one-character typo without touching the database', async () => {
    const key = await createTestKey(app.services);
    const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
    const lookup = vi.spyOn(app.services.accountRepository, 'activeKeyByFingerprint');
    const fingerprint = vi.spyOn(app.services.fingerprinter, 'fingerprint');
    try {
      const body = await expectUnauthorized(await getWithKey(app.url + CHURCH, typo), MALFORMED);
      expect(body.detail).toContain('malformed');
      expect(lookup).not.toHaveBeenCalled();
      expect(fingerprint).not.toHaveBeenCalled();
      expect((await getWithKey(app.url + CHURCH, key)).status).toBe(200);
      expect(lookup).toHaveBeenCalledTimes(1);
    } finally {
      lookup.mockRestore();
      fingerprint.mockRestore();
    }
  });

  it('answer 401 for a well-formed key that was never issued', async () => {
    const { generateKey } = await import('../../src/keys/format.ts');
    await expectUnauthorized(await getWithKey(app.url + CHURCH, generateKey()), UNKNOWN);
  });

  it('accept an active key, accept the scheme in any case, and record its last use', async () => {
    const email = 'last-used@example.org';
    const key = await createTestKey(app.services, { email });
    const before = app.logs.length;
    const response = await getWithKey(app.url + CHURCH, undefined, { Authorization: `bearer ${key}` });
    expect(response.status).toBe(200);
    const developer = await app.services.accountRepository.developerByEmail(email);
    expect(developer).toBeDefined();
    expect(((await response.json()) as { slug: string }).slug).toBe('grace-paris');
    // "Last used" is bookkeeping handed over after the answer's turn of the event loop: it shows soon after.
    const record = await vi.waitFor(async () => {
      const [written] = await app.services.accountRepository.listKeys(developer!.id);
      expect(written?.lastUsedAt).not.toBeNull();
      return written!;
    });
    // The request was authenticated as this very key: its access log line names the key id.
    const requests = app.logs.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(requests.filter((entry) => entry.message === 'request').map((entry) => entry.apiKeyId)).toEqual([record.id]);
  });

  it('refuse a revoked key on the very next request', async () => {
    const email = 'revoker@example.org';
    const key = await createTestKey(app.services, { email });
    expect((await getWithKey(app.url + CHURCH, key)).status).toBe(200);
    const accounts = createAccountService({ repository: app.services.accountRepository, fingerprinter: app.services.fingerprinter });
    const developer = (await accounts.developerByEmail(email))!;
    await accounts.revokeKey(developer.id, (await accounts.listKeys(developer.id))[0].id);
    const body = await expectUnauthorized(await getWithKey(app.url + CHURCH, key), UNKNOWN);
    expect(body.detail).toContain('revoked');
  });

  it('check the key before the church lookup: an unknown church without a key is 401, with a key 404', async () => {
    await expectUnauthorized(await getWithKey(`${app.url}/api/public/v1/churches/unknown`), MISSING);
    const response = await getWithKey(`${app.url}/api/public/v1/churches/unknown`, await createTestKey(app.services));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, type: problemType('church-not-found') });
  });

  it('never write the key to the logs', async () => {
    const key = await createTestKey(app.services);
    await getWithKey(app.url + CHURCH, key);
    await getWithKey(`${app.url + CHURCH}?x=${key}`, key);
    await getWithKey(app.url + CHURCH, key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'));
    await getWithKey(`${app.url}/api/public/v1/churches/${key}`, key);
    expect(app.logs.length).toBeGreaterThan(0);
    const randomPart = key.slice(8, 41);
    for (const line of app.logs) expect(line).not.toContain(randomPart);
  });
});

describe('requests with invalid keys are throttled per client address', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestServer({ ...BEHIND_LOCAL_PROXY, INVALID_KEY_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => app.close());

  it('answer 429 with Retry-After after 5 failures from one address, while another address and valid keys are unaffected', async () => {
    const attacker = { 'X-Forwarded-For': '203.0.113.7' };
    const neighbour = { 'X-Forwarded-For': '203.0.113.8' };
    const valid = await createTestKey(app.services);
    const invalid = valid.slice(0, -1) + (valid.endsWith('a') ? 'b' : 'a');

    // Valid requests from the address count for nothing.
    for (let i = 0; i < 10; i++) expect((await getWithKey(app.url + CHURCH, valid, attacker)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await getWithKey(app.url + CHURCH, invalid, attacker)).status).toBe(401);

    const throttled = await getWithKey(app.url + CHURCH, invalid, attacker);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await throttled.json()).toMatchObject({
      status: 429,
      title: 'Too many invalid API keys',
      type: problemType('too-many-invalid-keys'),
    });
    // Once throttled, the address's missing and invalid keys get 429; a valid key from it is still served (decisions.md).
    expect((await getWithKey(app.url + CHURCH, undefined, attacker)).status).toBe(429);
    expect((await getWithKey(app.url + CHURCH, 'sk_live_short', attacker)).status).toBe(429);
    expect((await getWithKey(app.url + CHURCH, valid, attacker)).status).toBe(200);

    expect((await getWithKey(app.url + CHURCH, invalid, neighbour)).status).toBe(401);
    expect((await getWithKey(app.url + CHURCH, valid, neighbour)).status).toBe(200);
  });

  it('serve every valid key from an address whose invalid keys are being refused, even sent at the same time', async () => {
    const shared = { 'X-Forwarded-For': '203.0.113.20' };
    const valid = await createTestKey(app.services);
    for (let i = 0; i < 6; i++) await getWithKey(app.url + CHURCH, 'sk_live_short', shared);
    const mixed = await Promise.all(
      Array.from({ length: 40 }, (_, i) => getWithKey(app.url + CHURCH, i % 2 === 0 ? valid : 'sk_live_short', shared)),
    );
    const statuses = mixed.map((response) => response.status);
    expect(statuses.filter((_, i) => i % 2 === 0)).toEqual(Array(20).fill(200));
    expect(statuses.filter((_, i) => i % 2 === 1)).toEqual(Array(20).fill(429));
  });
});
