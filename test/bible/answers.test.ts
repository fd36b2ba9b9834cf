// Bible reads as a client receives them: status, headers and bytes of each (recorded), one count per counted read, one access line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { type Exchange, exchange, recordedAnswer, remainingBudget } from '../helpers/http-exchange.ts';
import { loggedLine } from '../helpers/log-lines.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let bible: BibleFixture;
let server: TestServer;

beforeAll(async () => {
  bible = await buildBibleFixture();
  server = await startTestServer({ ...bible.env, DEMO_DATA: 'false', BIBLE_RATE_LIMIT_PER_MINUTE: '1000' });
});

afterAll(async () => {
  await server?.close();
  bible?.remove();
});

function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Exchange> {
  return exchange(`${server.url}/api/v1/bible${path}`, { method, headers });
}

const READS = [
  '/versions',
  '/books?lang=en',
  '/books',
  '/Gn/1',
  '/JHN/3?lang=en',
  '/John/3?lang=en',
  '/Gn/1/1/2',
  '/John/3/16/17?lang=en',
  '/Gn/1/2',
  '/passage?ref=Gn%201%3A1-2',
  // Problems: unknown book, chapter outside the book, leading zero, reversed range, start past the end, unknown language.
  '/Nope/1',
  '/Gn/999',
  '/Gn/01',
  '/Gn/1/3/2',
  '/Gn/1/99/100',
  '/Gn/1?lang=xx',
  // Searches: words, a reference, filters, pages; and their problems (blank, too long a page, unknown book, repeated q).
  '/search?q=terre',
  '/search?q=love&lang=en&size=2&page=1',
  '/search?q=Gn%201%3A1-2',
  '/search?q=%22la%20terre%22&book=Gn&testament=OT',
  '/search?q=+',
  '/search?q=terre&page=-1',
  '/search?q=terre&book=Nope',
  '/search?q=a&q=b',
  '/search',
  // Other parameters (ignored, a secret-named one too), a trailing slash, encoded segments, one that cannot be decoded.
  '/search?q=terre&key=sk_live_abc',
  '/Gn/1?lang=en&x=1',
  '/Gn/1/',
  '/G%6E/1',
  '/vers%69ons',
  '/Gn/%E0%A4%A',
  '/versions/1',
];

describe('Bible reads', () => {
  it.each(READS)('%s: the status, headers and bytes recorded', async (path) => {
    const answers: unknown[] = [];
    for (const headers of [
      {},
      { 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'gzip' },
      { 'x-request-id': 'client-id.1' },
    ] as Record<string, string>[]) {
      answers.push(recordedAnswer(await send(path, headers)));
    }
    expect(answers).toMatchSnapshot();
  });

  it.each(['/John/3?lang=en', '/John/3/16/17?lang=en', '/Nope/1'])('%s: HEAD and a matching If-None-Match', async (path) => {
    const get = await send(path);
    const answers: unknown[] = [];
    for (const [headers, method] of [
      [{}, 'HEAD'],
      [{ 'if-none-match': String(get.headers.etag) }, 'GET'],
      [{ 'if-none-match': `W/${get.headers.etag}, "other"` }, 'HEAD'],
    ] as const) {
      answers.push(recordedAnswer(await send(path, headers, method)));
    }
    expect(answers).toMatchSnapshot();
  });

  it('answers lang in capitals as it answers lower case, byte for byte', async () => {
    for (const [path, same] of [
      ['/John/3/16?lang=EN', '/John/3/16?lang=en'],
      ['/John/3?lang=En', '/John/3?lang=en'],
      ['/books?lang=NL', '/books?lang=nl'],
      ['/search?q=love&lang=EN', '/search?q=love&lang=en'],
    ]) {
      for (const headers of [{}, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
        const upper = recordedAnswer(await send(path, headers));
        expect(upper.status, path).toBe(200);
        expect(upper, path).toEqual(recordedAnswer(await send(same, headers)));
      }
    }
  });

  it('counts each range, verse and search once, problems included, and no read of the tree', async () => {
    const remaining = remainingBudget;
    const first = remaining(await send('/Gn/1/1/2'));
    const counted = [
      remaining(await send('/Gn/1/1/2')),
      remaining(await send('/Gn/1/1')),
      remaining(await send('/Nope/1/1')),
      remaining(await send('/search?q=terre')),
    ];
    expect(counted).toEqual([first - 1, first - 2, first - 3, first - 4]);
    for (const path of ['/versions', '/books', '/Gn/1', '/Nope/1']) expect((await send(path)).headers.ratelimit, path).toBeUndefined();
    expect(remaining(await send('/Gn/1/2'))).toBe(first - 5);
  });

  it('writes one access line per request: its id, method, path as sent, address, status and time', async () => {
    await send('/John/3/16?lang=en', { 'x-request-id': 'one-line' });
    await send('/search?q=terre&key=sk_live_abc', { 'x-request-id': 'secret-parameter' });
    const lines: Record<string, Record<string, unknown>> = {};
    for (const id of ['one-line', 'secret-parameter']) {
      lines[id] = await loggedLine(server.logs, (entry) => entry.requestId === id);
      expect(
        server.logs.filter((text) => (JSON.parse(text) as Record<string, unknown>).requestId === id),
        id,
      ).toHaveLength(1);
    }
    const line = (id: string) => lines[id] as Record<string, unknown>;
    const { time, ms, pid, hostname, ...rest } = line('one-line');
    expect(rest).toEqual({
      level: 'info',
      requestId: 'one-line',
      method: 'GET',
      path: '/api/v1/bible/John/3/16?lang=en',
      ip: '127.0.0.1',
      status: 200,
      message: 'request',
    });
    expect([typeof time, typeof ms, typeof pid, typeof hostname]).toEqual(['string', 'number', 'number', 'string']);
    expect(Object.keys(line('one-line'))).toEqual([
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
      'message',
    ]);
    expect(line('secret-parameter').path).toBe('/api/v1/bible/search?q=terre&key=[redacted]');
  });
});
