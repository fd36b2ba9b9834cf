// The church fast path answers exactly as the Express path does: same status, headers and bytes, the same key auth, counts, problems and access line.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { createApp } from '../../src/app.ts';
import { StorageUnavailableError } from '../../src/db/storage-unavailable.ts';
import { createHttpServer } from '../../src/http/http-server.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { comparableHeaders, type Exchange, exchange, remainingBudget } from '../helpers/http-exchange.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { loggedLine } from '../helpers/log-lines.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCHES = '/api/public/v1/churches';

/** A server with the fast path in front of Express, and the same app (same services and stores) on a plain http.Server. */
interface Pair {
  fast: TestServer;
  plain: Listening;
}

async function startPair(env: Record<string, string>): Promise<Pair> {
  const fast = await startTestServer({ TRUST_PROXY: 'loopback', ...env });
  return { fast, plain: await listenOnLoopback(createApp(fast.services)) };
}

/** The paths of READS the fast path takes; the rest go to Express. */
const TAKEN = 18;

async function closePair(pair: Pair | undefined): Promise<void> {
  await pair?.plain.close();
  await pair?.fast.close();
}

function send(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Exchange> {
  return exchange(`${base}${path}`, { method, headers });
}

/** The same request to both servers, in turn; the answers compared whole (a problem body's `instance`, if any, is the path). */
async function expectSame(pair: Pair, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Exchange> {
  const viaFast = await send(pair.fast.url, path, headers, method);
  const viaExpress = await send(pair.plain.url, path, headers, method);
  expect(viaFast.status, path).toBe(viaExpress.status);
  expect(comparableHeaders(viaFast.headers), path).toEqual(comparableHeaders(viaExpress.headers));
  expect(viaFast.body.toString(), path).toBe(viaExpress.body.toString());
  return viaFast;
}

const READS = [
  'grace-paris',
  'grace-paris/events',
  'grace-paris/posts',
  'grace-paris/posts?page=1&size=2',
  'grace-paris/live',
  'grace-paris/library',
  'grace-paris/library?type=book&size=1',
  'grace-paris/store',
  'grace-paris/gallery',
  'grace-paris/gallery/paques-2026/photos',
  'harbour-light-auckland/gallery/empty-album/photos',
  // Problems: unknown church, unknown album, bad paging, an unknown library type, a repeated parameter.
  'no-such-church',
  'no-such-church/events',
  'grace-paris/gallery/no-such-album/photos',
  'grace-paris/posts?size=0',
  'grace-paris/posts?page=-1',
  'grace-paris/posts?page=1&page=2',
  'grace-paris/library?type=nope',
  // Not the fast path's: other parameters, a trailing slash, an encoded segment, an unknown sub-resource, an album without /photos.
  'grace-paris?x=1',
  'grace-paris/events?key=sk_live_abc',
  'grace-paris/',
  'gr%61ce-paris',
  'grace-paris/unknown',
  'grace-paris/gallery/paques-2026',
];

describe('the church fast path beside Express', () => {
  let pair: Pair;
  let key: string;
  beforeAll(async () => {
    pair = await startPair({ KEY_RATE_LIMIT_PER_MINUTE: '100000', INVALID_KEY_LIMIT_PER_MINUTE: '100000' });
    key = await createTestKey(pair.fast.services);
  });
  afterAll(() => closePair(pair));

  it('takes the reads it can answer whole and leaves the others to Express, untouched', async () => {
    const app = createApp(pair.fast.services);
    // Express's own entry (app(req, res) calls app.handle): not in its typings.
    const handle = vi.spyOn(app as unknown as { handle: (...args: unknown[]) => void }, 'handle');
    const server = createHttpServer(app, pair.fast.services.config);
    const listening = await listenOnLoopback(app, 0, server);
    try {
      const reachedExpress: string[] = [];
      for (const path of READS) {
        const before = handle.mock.calls.length;
        await send(listening.url, `${CHURCHES}/${path}`, { authorization: `Bearer ${key}` });
        if (handle.mock.calls.length > before) reachedExpress.push(path);
      }
      expect(reachedExpress).toEqual(READS.slice(TAKEN));
      await send(listening.url, `${CHURCHES}/grace-paris`, {}, 'DELETE');
      expect(handle).toHaveBeenCalledTimes(READS.length - TAKEN + 1);
    } finally {
      await listening.close();
    }
  });

  it.each(READS)('%s: the same status, headers and bytes', async (path) => {
    for (const headers of [{}, { 'x-request-id': 'client-id.1' }, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      await expectSame(pair, `${CHURCHES}/${path}`, { authorization: `Bearer ${key}`, ...headers });
    }
  });

  it.each(['grace-paris', 'grace-paris/events', 'grace-paris/posts?size=1', 'no-such-church'])(
    '%s: HEAD and a matching If-None-Match alike',
    async (path) => {
      const authorization = `Bearer ${key}`;
      const etag = (await send(pair.fast.url, `${CHURCHES}/${path}`, { authorization })).headers.etag;
      for (const [headers, method] of [
        [{ authorization }, 'HEAD'],
        [{ authorization, 'if-none-match': String(etag) }, 'GET'],
        [{ authorization, 'if-none-match': `W/${etag}, "other"` }, 'HEAD'],
        [{ authorization, 'if-none-match': '"other"' }, 'GET'],
      ] as const) {
        await expectSame(pair, `${CHURCHES}/${path}`, headers, method);
      }
    },
  );

  it('refuses missing, malformed, unknown and revoked keys with the same problems', async () => {
    const accounts = createAccountService({
      repository: pair.fast.services.accountRepository,
      fingerprinter: pair.fast.services.fingerprinter,
    });
    const email = 'fast-path-revoked@example.org';
    const revoked = await createTestKey(pair.fast.services, { email });
    const developer = await accounts.developerByEmail(email);
    if (!developer) throw new Error('no developer');
    await accounts.revokeKey(developer.id, (await accounts.listKeys(developer.id))[0].id);
    // A key whose checksum fails (malformed) beside the revoked one (unknown or revoked).
    const typo = `${key.slice(0, -8)}${key.slice(-8) === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA'}`;
    for (const authorization of [
      undefined,
      '',
      'Basic abc',
      `Bearer ${key}x`,
      'Bearer sk_live_short',
      `Bearer ${revoked}`,
      `Bearer ${typo}`,
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await expectSame(pair, `${CHURCHES}/grace-paris`, authorization === undefined ? {} : { authorization }, method);
        expect(answer.status, String(authorization)).toBe(401);
      }
    }
  });

  it('counts each request once, in the budget the Express path counts in, and records the last use', async () => {
    const fresh = await createTestKey(pair.fast.services);
    const authorization = `Bearer ${fresh}`;
    const first = remainingBudget(await send(pair.fast.url, `${CHURCHES}/grace-paris`, { authorization }));
    const second = remainingBudget(await send(pair.plain.url, `${CHURCHES}/grace-paris`, { authorization }));
    const third = remainingBudget(await send(pair.fast.url, `${CHURCHES}/grace-paris/events`, { authorization }));
    const fourth = remainingBudget(await send(pair.fast.url, `${CHURCHES}/no-such-church`, { authorization }));
    expect([second, third, fourth]).toEqual([first - 1, first - 2, first - 3]);
    // "Last used" is written after the answer (setImmediate, then the store): wait for it rather than sleep.
    const accounts = createAccountService({
      repository: pair.fast.services.accountRepository,
      fingerprinter: pair.fast.services.fingerprinter,
    });
    const developerId = (await pair.fast.services.accountRepository.activeKeyByFingerprint(
      pair.fast.services.fingerprinter.fingerprint(fresh),
    ))!.developerId;
    await expect.poll(async () => (await accounts.listKeys(developerId))[0].lastUsedAt, { timeout: 30_000, interval: 5 }).not.toBeNull();
  });

  it('writes the access line the request log writes, with the key id', async () => {
    const authorization = `Bearer ${key}`;
    for (const [path, extra] of [
      ['grace-paris/events', {}],
      ['no-such-church', {}],
      ['grace-paris', { authorization: 'Bearer nope' }],
    ] as const) {
      const id = `line-${path.replace(/[^a-z]/g, '')}-${'authorization' in extra ? 'bad' : 'ok'}`;
      await send(pair.fast.url, `${CHURCHES}/${path}`, { authorization, ...extra, 'x-request-id': `${id}-fast` });
      await send(pair.plain.url, `${CHURCHES}/${path}`, { authorization, ...extra, 'x-request-id': `${id}-express` });
      const viaFast = await loggedLine(pair.fast.logs, (entry) => entry.requestId === `${id}-fast` && entry.message === 'request');
      const viaExpress = await loggedLine(pair.fast.logs, (entry) => entry.requestId === `${id}-express` && entry.message === 'request');
      expect(viaFast, path).toMatchObject({ level: 'info', message: 'request', method: 'GET', path: `${CHURCHES}/${path}` });
      const { requestId: _a, time: _b, ms: _c, ...fastRest } = viaFast;
      const { requestId: _d, time: _e, ms: _f, ...expressRest } = viaExpress;
      expect(fastRest, path).toEqual(expressRest);
      expect(Object.keys(viaFast), path).toEqual(Object.keys(viaExpress));
    }
  });

  it('answers a database outage with the same 503, logged alike', async () => {
    const lookup = vi
      .spyOn(pair.fast.services.churches, 'publicChurchBySlug')
      .mockRejectedValue(new StorageUnavailableError('the database cannot answer now'));
    try {
      const answer = await expectSame(pair, `${CHURCHES}/grace-paris`, { authorization: `Bearer ${key}`, 'x-request-id': 'outage' });
      expect(answer.status).toBe(503);
    } finally {
      lookup.mockRestore();
    }
    // The warning is written before the answer, its access line after: once both access lines are
    // there, so is every warning of these two requests.
    const entries = () => pair.fast.logs.map((text) => JSON.parse(text) as Record<string, unknown>);
    const accessLines = () => entries().filter((entry) => entry.requestId === 'outage' && entry.message === 'request');
    await expect.poll(() => accessLines().length, { timeout: 30_000, interval: 5 }).toBe(2);
    const warnings = entries().filter((entry) => entry.message === 'database unavailable');
    expect(warnings).toHaveLength(2);
    const [first, second] = warnings.map(({ time: _time, ...rest }) => rest);
    expect(first).toEqual(second);
  });
});

describe('the church fast path past the limits', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ KEY_RATE_LIMIT_PER_MINUTE: '3', INVALID_KEY_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => closePair(pair));

  it('answers the key limit 429 alike, counted once per request', async () => {
    const key = await createTestKey(pair.fast.services);
    const authorization = `Bearer ${key}`;
    const statuses: number[] = [];
    // Requests 1-3 are within the limit, 4-6 past it: each pair of the same request compares one fast answer with one Express answer.
    for (const path of ['grace-paris', 'grace-paris/events', 'grace-paris']) {
      statuses.push((await send(pair.fast.url, `${CHURCHES}/${path}`, { authorization })).status);
    }
    for (const path of ['grace-paris', 'grace-paris/events', 'no-such-church']) {
      const answer = await expectSame(pair, `${CHURCHES}/${path}`, { authorization, 'x-request-id': 'limited' });
      statuses.push(answer.status);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('answers the invalid-key throttle 429 alike per address, and still serves a valid key from it', async () => {
    const address = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    for (const base of [pair.fast.url, pair.plain.url]) {
      statuses.push((await send(base, `${CHURCHES}/grace-paris`, { ...address, authorization: 'Bearer sk_live_nope' })).status);
    }
    const throttled = await expectSame(pair, `${CHURCHES}/grace-paris`, { ...address, authorization: 'Bearer sk_live_nope' });
    statuses.push(throttled.status);
    const valid = await send(pair.fast.url, `${CHURCHES}/grace-paris`, {
      ...address,
      authorization: `Bearer ${await createTestKey(pair.fast.services)}`,
    });
    statuses.push(valid.status);
    expect(statuses).toEqual([401, 401, 429, 200]);
  });
});
