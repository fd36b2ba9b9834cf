// The response writer's JSON answers over real HTTP: ETag, Cache-Control, 304 on If-None-Match, HEAD without a body.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifNoneMatchMatches, prepareJson, prepareText, strongEtag } from '../../src/http/cache.ts';
import { writeAnswer } from '../../src/http/respond.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/thing')
      writeAnswer(req, res, prepareJson({ hello: 'wörld' }), [], { cacheControl: 'private, max-age=60', etag: true });
    else
      writeAnswer(req, res, prepareJson([1, 2]), ['Access-Control-Allow-Origin', '*'], {
        cacheControl: 'public, max-age=86400',
        etag: true,
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
});

describe('writeAnswer with a JSON body', () => {
  it('answers JSON with a strong ETag that is the SHA-256 of the body, and the given Cache-Control', async () => {
    const response = await fetch(`${url}/thing`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, max-age=60');
    expect(response.headers.get('etag')).toBe(strongEtag(text));
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(JSON.parse(text)).toEqual({ hello: 'wörld' });
  });

  it('answers 304 without a body when If-None-Match matches, also in a list or as a weak tag', async () => {
    const first = await fetch(`${url}/thing`);
    const tag = first.headers.get('etag')!;
    for (const header of [tag, `"other", ${tag}`, `W/${tag}`, '*']) {
      const again = await fetch(`${url}/thing`, { headers: { 'If-None-Match': header } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('cache-control')).toBe('private, max-age=60');
      expect(await again.text()).toBe('');
    }
    const stale = await fetch(`${url}/thing`, { headers: { 'If-None-Match': '"stale"' } });
    expect(stale.status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await fetch(`${url}/thing`);
    const head = await fetch(`${url}/thing`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('sets extra headers on both 200 and 304', async () => {
    const first = await fetch(`${url}/cors`);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const again = await fetch(`${url}/cors`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('prepareJson', () => {
  it('holds the UTF-8 bytes of the JSON, past Latin-1 too, with their length and tag', () => {
    const prepared = prepareJson({ name: 'Sœurs de l’Église' });
    const json = JSON.stringify({ name: 'Sœurs de l’Église' });
    expect(prepared.json.toString('utf8')).toBe(json);
    expect(prepared.length).toBe(String(Buffer.byteLength(json)));
    expect(prepared.etag).toBe(strongEtag(json));
  });

  it('keeps a small body in a buffer of its own, not in a slice of the 8 kB slab Node shares between small buffers', () => {
    // A kept answer cut from the shared slab would hold all of it for as long as it is kept.
    const prepared = prepareJson({ ok: true });
    expect(prepared.json.buffer.byteLength).toBe(prepared.json.length);
    const calendar = prepareText('BEGIN:VCALENDAR\r\nX-WR-CALNAME:Sœurs\r\nEND:VCALENDAR\r\n', 'text/calendar; charset=utf-8');
    expect(calendar.text.buffer.byteLength).toBe(calendar.text.length);
    expect(calendar.text.toString('utf8')).toContain('Sœurs');
    expect(calendar.length).toBe(String(calendar.text.length));
  });
});

describe('ifNoneMatchMatches', () => {
  it('refuses a missing header and different tags', () => {
    expect(ifNoneMatchMatches(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchMatches('"b"', '"a"')).toBe(false);
    expect(ifNoneMatchMatches('"a"', '"a"')).toBe(true);
  });
});
