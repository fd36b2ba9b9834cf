// Church reads as a client receives them: status, headers and bytes of each (recorded), key refusals, one count per request, the access line, 503 and 429.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccountService } from '../../src/accounts/service.ts';
import { StorageUnavailableError } from '../../src/db/storage-unavailable.ts';
import { createTestKey } from '../helpers/api-key.ts';
import { fixedClock } from '../helpers/clock.ts';
import { type Exchange, exchange, recordedAnswer, remainingBudget } from '../helpers/http-exchange.ts';
import { loggedLine } from '../helpers/log-lines.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

const CHURCHES = '/api/public/v1/churches';

/** The demo data's relative event times are read at this instant, so the events answered are the same on every run. */
const NOW = new Date('2026-06-15T10:30:00Z');

function start(env: Record<string, string>): Promise<TestServer> {
  return startTestServer({ TRUST_PROXY: 'loopback', ...env }, { clock: fixedClock(NOW) });
}

function send(server: TestServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Exchange> {
  return exchange(`${server.url}${CHURCHES}/${path}`, { method, headers });
}

const parsedLines = (server: TestServer) => server.logs.map((text) => JSON.parse(text) as Record<string, unknown>);

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
  // Problems: unknown church, a hidden one, unknown album, bad paging, an unknown library type, a repeated parameter.
  'no-such-church',
  'stille-kapel-utrecht',
  'no-such-church/events',
  'grace-paris/gallery/no-such-album/photos',
  'grace-paris/posts?size=0',
  'grace-paris/posts?page=-1',
  'grace-paris/posts?page=1&page=2',
  'grace-paris/library?type=nope',
  // Other parameters (ignored, a secret-named one too), a trailing slash, encoded segments, unknown sub-resources.
  'grace-paris?x=1',
  'grace-paris/events?key=sk_live_abc',
  'grace-paris/',
  'gr%61ce-paris',
  'grace-paris/ev%65nts',
  'grace-paris/gallery/%E0%A4%A/photos',
  'grace-paris/unknown',
  'grace-paris/gallery/paques-2026',
];

describe('church reads', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await start({ KEY_RATE_LIMIT_PER_MINUTE: '100000', INVALID_KEY_LIMIT_PER_MINUTE: '100000' });
    key = await createTestKey(server.services);
  });
  afterAll(() => server?.close());

  it.each(READS)('%s: the status, headers and bytes recorded', async (path) => {
    const answers: unknown[] = [];
    for (const headers of [{}, { 'x-request-id': 'client-id.1' }, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      answers.push(recordedAnswer(await send(server, path, { authorization: `Bearer ${key}`, ...headers })));
    }
    expect(answers).toMatchSnapshot();
  });

  it.each(['grace-paris', 'grace-paris/events', 'grace-paris/posts?size=1', 'no-such-church'])(
    '%s: HEAD and a matching If-None-Match',
    async (path) => {
      const authorization = `Bearer ${key}`;
      const etag = (await send(server, path, { authorization })).headers.etag;
      const answers: unknown[] = [];
      for (const [headers, method] of [
        [{ authorization }, 'HEAD'],
        [{ authorization, 'if-none-match': String(etag) }, 'GET'],
        [{ authorization, 'if-none-match': `W/${etag}, "other"` }, 'HEAD'],
        [{ authorization, 'if-none-match': '"other"' }, 'GET'],
      ] as const) {
        answers.push(recordedAnswer(await send(server, path, headers, method)));
      }
      expect(answers).toMatchSnapshot();
    },
  );

  it('refuses missing, malformed, unknown and revoked keys with the problems recorded', async () => {
    const accounts = createAccountService({ repository: server.services.accountRepository, fingerprinter: server.services.fingerprinter });
    const email = 'answers-revoked@example.org';
    const revoked = await createTestKey(server.services, { email });
    const developer = await accounts.developerByEmail(email);
    if (!developer) throw new Error('no developer');
    await accounts.revokeKey(developer.id, (await accounts.listKeys(developer.id))[0].id);
    // A key whose checksum fails (malformed) beside the revoked one (unknown or revoked).
    const typo = `${key.slice(0, -8)}${key.slice(-8) === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA'}`;
    const answers: unknown[] = [];
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
        const answer = await send(server, 'grace-paris', authorization === undefined ? {} : { authorization }, method);
        expect(answer.status, String(authorization)).toBe(401);
        answers.push(recordedAnswer(answer));
      }
    }
    expect(answers).toMatchSnapshot();
  });

  it('counts each request once, problems included, and records the last use', async () => {
    const fresh = await createTestKey(server.services);
    const remaining = remainingBudget;
    const authorization = `Bearer ${fresh}`;
    const first = remaining(await send(server, 'grace-paris', { authorization }));
    const counted = [
      remaining(await send(server, 'grace-paris', { authorization })),
      remaining(await send(server, 'grace-paris/events', { authorization })),
      remaining(await send(server, 'no-such-church', { authorization })),
      remaining(await send(server, 'grace-paris/unknown', { authorization })),
    ];
    expect(counted).toEqual([first - 1, first - 2, first - 3, first - 4]);
    const accounts = createAccountService({ repository: server.services.accountRepository, fingerprinter: server.services.fingerprinter });
    const active = await server.services.accountRepository.activeKeyByFingerprint(server.services.fingerprinter.fingerprint(fresh));
    // Recorded after the answer, never waited for: wait for it rather than sleep.
    await expect.poll(async () => (await accounts.listKeys(active!.developerId))[0].lastUsedAt).not.toBeNull();
  });

  it('writes one access line per request, with the key id once the key is known', async () => {
    const authorization = `Bearer ${key}`;
    const active = await server.services.accountRepository.activeKeyByFingerprint(server.services.fingerprinter.fingerprint(key));
    for (const [path, extra, status, apiKeyId] of [
      ['grace-paris/events', {}, 200, active!.id],
      ['no-such-church', {}, 404, active!.id],
      ['grace-paris?key=sk_live_abc', { authorization: 'Bearer nope' }, 401, undefined],
    ] as const) {
      const id = `line-${path.replace(/[^a-z]/g, '')}`;
      await send(server, path, { authorization, ...extra, 'x-request-id': id });
      await loggedLine(server.logs, (entry) => entry.requestId === id);
      const lines = parsedLines(server).filter((entry) => entry.requestId === id);
      expect(lines, path).toHaveLength(1);
      const { time, ms, pid, hostname, ...rest } = lines[0];
      expect(rest, path).toEqual({
        level: 'info',
        requestId: id,
        method: 'GET',
        path: `${CHURCHES}/${path.replace('sk_live_abc', '[redacted]')}`,
        ip: '127.0.0.1',
        status,
        ...(apiKeyId === undefined ? {} : { apiKeyId }),
        message: 'request',
      });
      expect([typeof time, typeof ms, typeof pid, typeof hostname]).toEqual(['string', 'number', 'number', 'string']);
      expect(Object.keys(lines[0]), path).toEqual([
        'level',
        'time',
        'pid',
        'hostname',
        'requestId',
        'method',
        'path',
        'ip',
        'status',
        'ms',
        ...(apiKeyId === undefined ? [] : ['apiKeyId']),
        'message',
      ]);
    }
  });

  it('answers a database outage 503 with Retry-After, logged once as a warning', async () => {
    const lookup = vi
      .spyOn(server.services.churches, 'publicChurchBySlug')
      .mockRejectedValue(new StorageUnavailableError('the database cannot answer now'));
    let answer: Exchange;
    try {
      answer = await send(server, 'grace-paris', { authorization: `Bearer ${key}`, 'x-request-id': 'outage' });
    } finally {
      lookup.mockRestore();
    }
    expect(answer.status).toBe(503);
    expect(recordedAnswer(answer)).toMatchSnapshot();
    await loggedLine(server.logs, (entry) => entry.message === 'database unavailable');
    const warnings = parsedLines(server).filter((entry) => entry.message === 'database unavailable');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 'warn',
      requestId: 'outage',
      path: `${CHURCHES}/grace-paris`,
      err: { type: 'StorageUnavailableError', message: 'the database cannot answer now' },
    });
  });
});

describe('church reads past the limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start({ KEY_RATE_LIMIT_PER_MINUTE: '3', INVALID_KEY_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => server?.close());

  it('answers the key limit 429 with Retry-After, each request counted once', async () => {
    const authorization = `Bearer ${await createTestKey(server.services)}`;
    const statuses: number[] = [];
    const refusals: unknown[] = [];
    for (const path of ['grace-paris', 'grace-paris/events', 'grace-paris', 'grace-paris', 'grace-paris/events', 'no-such-church']) {
      const answer = await send(server, path, { authorization, 'x-request-id': 'limited' });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        refusals.push(recordedAnswer(answer));
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(refusals).toMatchSnapshot();
  });

  it('answers the invalid-key throttle 429 per address, and still serves a valid key from it', async () => {
    const address = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      statuses.push((await send(server, 'grace-paris', { ...address, authorization: 'Bearer sk_live_nope' })).status);
    }
    const throttled = await send(server, 'grace-paris', { ...address, authorization: 'Bearer sk_live_nope' });
    statuses.push(throttled.status);
    const valid = await send(server, 'grace-paris', { ...address, authorization: `Bearer ${await createTestKey(server.services)}` });
    statuses.push(valid.status);
    expect(statuses).toEqual([401, 401, 429, 200]);
    expect(recordedAnswer(throttled)).toMatchSnapshot();
  });
});
