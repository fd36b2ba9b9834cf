// The header lines of a keyed church answer, by name and in order: what the dispatcher's precomputed heads must keep writing.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHURCHES, type ChurchApi, startChurchApi } from './church-api.ts';

let api: ChurchApi;
beforeAll(async () => {
  api = await startChurchApi();
});
afterAll(async () => {
  await api.close();
});

/** The raw header lines (name, value…) of a GET, as the client reads them off the socket. */
function rawHeaders(path: string, headers: Record<string, string> = {}): Promise<{ status: number; raw: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.server.url}${path}`, { headers: { Authorization: `Bearer ${api.key}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the headers of a keyed church answer', () => {
  it.each(['/grace-paris', '/grace-paris/events'])('%s: every header line, named and in order', async (sub) => {
    const { status, raw } = await rawHeaders(`${CHURCHES}${sub}`);
    expect(status).toBe(200);
    const names = raw.filter((_, i) => i % 2 === 0);
    const value = (name: string) => raw[raw.indexOf(name) + 1];
    expect(names).toEqual([
      'X-Request-Id',
      'RateLimit',
      'RateLimit-Policy',
      'Vary',
      'Cache-Control',
      'ETag',
      'Content-Type',
      'Content-Length',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);
    expect(value('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(value('RateLimit')).toMatch(/^"100000-per-minute-per-key"; r=\d+; t=\d+$/);
    expect(value('RateLimit-Policy')).toMatch(/^"100000-per-minute-per-key"; q=100000; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    expect(value('Vary')).toBe('Accept');
    expect(value('Cache-Control')).toBe('private, max-age=60');
    expect(value('ETag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(value('Content-Type')).toBe('application/json; charset=utf-8');
    expect(value('Content-Length')).toMatch(/^[1-9]\d*$/);
  });

  it('a 304 on If-None-Match: the same lines without the body ones', async () => {
    const first = await rawHeaders(`${CHURCHES}/grace-paris`);
    const etag = first.raw[first.raw.indexOf('ETag') + 1] as string;
    const { status, raw } = await rawHeaders(`${CHURCHES}/grace-paris`, { 'If-None-Match': etag });
    expect(status).toBe(304);
    expect(raw.filter((_, i) => i % 2 === 0)).toEqual([
      'X-Request-Id',
      'RateLimit',
      'RateLimit-Policy',
      'Vary',
      'Cache-Control',
      'ETag',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);
    expect(raw[raw.indexOf('ETag') + 1]).toBe(etag);
  });
});
