// The fast path answers Bible reads exactly as the Express routes do: same status, headers and bytes, one count per request, one access line.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createBibleFastPath } from '../../src/bible/fast-path.ts';
import { createBibleLimit } from '../../src/limits/bible-limit.ts';
import { type BibleFixture, buildBibleFixture } from '../helpers/bible-fixture.ts';
import { comparableHeaders, type Exchange, exchange, remainingBudget } from '../helpers/http-exchange.ts';
import { type Listening, listenOnLoopback } from '../helpers/listen.ts';
import { loggedLine } from '../helpers/log-lines.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let bible: BibleFixture;
/** The service's own server: the fast path in front of Express. */
let fast: TestServer;
/** The same app on a plain http.Server: Express answers everything. */
let plain: Listening;

beforeAll(async () => {
  bible = await buildBibleFixture();
  fast = await startTestServer({ ...bible.env, DEMO_DATA: 'false', BIBLE_RATE_LIMIT_PER_MINUTE: '1000' });
  plain = await listenOnLoopback(createApp(fast.services));
});

afterAll(async () => {
  await plain?.close();
  await fast?.close();
  bible?.remove();
});

function send(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Exchange> {
  return exchange(`${base}${path}`, { method, headers });
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
  // lang in any letter case (decisions.md), as the spec's own example writes none in capitals.
  '/John/3/16?lang=EN',
  '/books?lang=Pt',
  '/search?q=love&lang=EN',
  '/Gn/1/2',
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
  // Not the fast path's: other parameters, a trailing slash, an encoded segment.
  '/search?q=terre&key=sk_live_abc',
  '/Gn/1?lang=en&x=1',
  '/Gn/1/',
  '/G%6E/1',
];

describe('the fast path beside Express', () => {
  it.each(READS)('%s: the same status, headers and bytes', async (path) => {
    for (const headers of [
      {},
      { 'accept-encoding': 'gzip, deflate, br' },
      { 'accept-encoding': 'gzip' },
      { 'x-request-id': 'client-id.1' },
    ] as Record<string, string>[]) {
      const viaFast = await send(fast.url, `/api/v1/bible${path}`, headers);
      const viaExpress = await send(plain.url, `/api/v1/bible${path}`, headers);
      expect(viaFast.status).toBe(viaExpress.status);
      expect(comparableHeaders(viaFast.headers)).toEqual(comparableHeaders(viaExpress.headers));
      expect(viaFast.body.equals(viaExpress.body)).toBe(true);
    }
  });

  it.each(['/John/3?lang=en', '/John/3/16/17?lang=en', '/Nope/1'])('%s: HEAD and a matching If-None-Match alike', async (path) => {
    const etag = (await send(fast.url, `/api/v1/bible${path}`)).headers.etag;
    for (const [headers, method] of [
      [{}, 'HEAD'],
      [{ 'if-none-match': String(etag) }, 'GET'],
      [{ 'if-none-match': `W/${etag}, "other"` }, 'HEAD'],
    ] as const) {
      const viaFast = await send(fast.url, `/api/v1/bible${path}`, headers, method);
      const viaExpress = await send(plain.url, `/api/v1/bible${path}`, headers, method);
      expect([viaFast.status, viaFast.body.length]).toEqual([viaExpress.status, viaExpress.body.length]);
      expect(comparableHeaders(viaFast.headers)).toEqual(comparableHeaders(viaExpress.headers));
    }
  });

  it('counts each range once, in the budget the Express routes count in', async () => {
    const first = remainingBudget(await send(fast.url, '/api/v1/bible/Gn/1/1/2'));
    const second = remainingBudget(await send(plain.url, '/api/v1/bible/Gn/1/1/2'));
    const third = remainingBudget(await send(fast.url, '/api/v1/bible/Gn/1/1'));
    const fourth = remainingBudget(await send(fast.url, '/api/v1/bible/Nope/1/1'));
    expect([second, third, fourth]).toEqual([first - 1, first - 2, first - 3]);
  });

  it('writes the access line the request log writes', async () => {
    await send(fast.url, '/api/v1/bible/John/3/16?lang=en', { 'x-request-id': 'via-fast-path' });
    await send(plain.url, '/api/v1/bible/John/3/16?lang=en', { 'x-request-id': 'via-express' });
    const viaFast = await loggedLine(fast.logs, (entry) => entry.requestId === 'via-fast-path' && entry.message === 'request');
    const viaExpress = await loggedLine(fast.logs, (entry) => entry.requestId === 'via-express' && entry.message === 'request');
    expect(viaFast).toMatchObject({
      level: 'info',
      message: 'request',
      method: 'GET',
      path: '/api/v1/bible/John/3/16?lang=en',
      status: 200,
    });
    const { requestId: _a, time: _b, ms: _c, ...fastRest } = viaFast;
    const { requestId: _d, time: _e, ms: _f, ...expressRest } = viaExpress;
    expect(fastRest).toEqual(expressRest);
    expect(Object.keys(viaFast)).toEqual(Object.keys(viaExpress));
  });

  it('answers lang in capitals itself, as it answers lower case, instead of handing it to Express', async () => {
    // Only the fast path, with "not mine" where it would hand a request to Express.
    const handle = createBibleFastPath({
      bible: fast.services.bible,
      bibleLimit: createBibleLimit(fast.services),
      logger: fast.services.logger,
      publicBaseUrl: fast.services.config.publicBaseUrl,
      clientAddress: (request) => request.socket.remoteAddress,
    });
    const only = http.createServer((req, res) => {
      if (!handle(req, res)) res.writeHead(599).end('not mine');
    });
    await new Promise<void>((resolve) => only.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(only.address() as AddressInfo).port}`;
    try {
      for (const [path, same] of [
        ['/John/3/16?lang=EN', '/John/3/16?lang=en'],
        ['/John/3?lang=En', '/John/3?lang=en'],
        ['/books?lang=NL', '/books?lang=nl'],
        ['/search?q=love&lang=EN', '/search?q=love&lang=en'],
      ]) {
        const upper = await send(base, `/api/v1/bible${path}`);
        const lower = await send(base, `/api/v1/bible${same}`);
        expect(upper.status, path).toBe(200);
        expect(upper.body.equals(lower.body), path).toBe(true);
      }
      expect((await send(base, '/api/v1/bible/Gn/1?lang=EN&x=1')).status).toBe(599);
    } finally {
      only.closeAllConnections();
      only.close();
    }
  });
});
