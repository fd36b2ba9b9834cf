// The access line: its fields in order, the path as sent with the values of secret-named parameters left out, debug for a quiet success.
import { describe, expect, it } from 'vitest';
import { accessLine, milliseconds } from '../../src/http/access-log.ts';
import { createLogger } from '../../src/http/logger.ts';
import { generateKey } from '../../src/keys/format.ts';
import { collectLogLines } from '../helpers/log-lines.ts';

function lineFor(url: string, status = 200, extra: { apiKeyId?: number; quiet?: boolean } = {}): Record<string, unknown> | undefined {
  const { lines, destination } = collectLogLines();
  accessLine(createLogger('debug', destination))(
    { requestId: 'id-1', method: 'GET', url, ip: '203.0.113.7', started: performance.now(), ...extra },
    status,
  );
  return lines.length === 1 ? (JSON.parse(lines[0] as string) as Record<string, unknown>) : undefined;
}

describe('the access line', () => {
  it('holds the request id, method, path, address, status, time and key id, in that order', () => {
    const line = lineFor('/api/public/v1/churches/grace-paris', 404, { apiKeyId: 7 });
    const { time: _time, pid: _pid, hostname: _hostname, ms, ...fields } = line ?? {};
    expect(fields).toEqual({
      level: 'info',
      requestId: 'id-1',
      method: 'GET',
      path: '/api/public/v1/churches/grace-paris',
      ip: '203.0.113.7',
      status: 404,
      apiKeyId: 7,
      message: 'request',
    });
    expect(typeof ms).toBe('number');
    expect(Object.keys(line ?? {}).slice(4)).toEqual(['requestId', 'method', 'path', 'ip', 'status', 'ms', 'apiKeyId', 'message']);
  });

  it.each([
    ['/search?q=terre&key=abc', '/search?q=terre&key=[redacted]'],
    ['/search?API%5FKEY=abc&q=x', '/search?API%5FKEY=[redacted]&q=x'],
    ['/search?access-token=abc', '/search?access-token=[redacted]'],
    ['/x?password=1&secret=2&token', '/x?password=[redacted]&secret=[redacted]&token'],
    ['/search?q=monkey&turkey=1', '/search?q=monkey&turkey=1'],
    ['/search?q=%22la%20terre%22', '/search?q=%22la%20terre%22'],
    ['/search?q=terre&lang=en', '/search?q=terre&lang=en'],
  ])('logs %s as %s', (url, logged) => {
    expect(lineFor(url)?.path).toBe(logged);
  });

  it('writes the line pino writes for the same fields, byte for byte but the time taken', () => {
    const { lines, destination } = collectLogLines();
    const logger = createLogger('info', destination);
    const record = {
      requestId: 'id-2',
      method: 'GET',
      url: '/api/public/v1/churches/grace-paris?q="é"\\',
      ip: '::ffff:127.0.0.1',
      started: 0,
    };
    accessLine(logger)({ ...record, apiKeyId: 3 }, 200);
    accessLine(logger)({ ...record, method: undefined, ip: undefined }, 500);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    logger.info({ requestId: 'id-2', method: 'GET', path: record.url, ip: record.ip, status: 200, ms: first?.ms, apiKeyId: 3 }, 'request');
    logger.info({ requestId: 'id-2', path: record.url, status: 500, ms: second?.ms }, 'request');
    const withoutTime = (line: string | undefined) => line?.replace(/"time":"[^"]+"/, '');
    expect(withoutTime(lines[0])).toBe(withoutTime(lines[2]));
    expect(withoutTime(lines[1])).toBe(withoutTime(lines[3]));
  });

  it('never holds a key, in the path, the query or the request id', () => {
    const key = generateKey();
    const { lines, destination } = collectLogLines();
    accessLine(createLogger('info', destination))(
      { requestId: key, method: 'GET', url: `/x/${key}?q=${key.replace('sk_', 'sk%5F')}`, ip: '::1', started: 0, apiKeyId: 1 },
      401,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(key.slice('sk_live_'.length));
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      requestId: 'sk_live_[redacted]',
      path: '/x/sk_live_[redacted]?q=sk_live_[redacted]',
    });
  });

  it('escapes a path as pino would: quotes, backslashes, control characters, lone surrogates, a key among them', () => {
    const { lines, destination } = collectLogLines();
    const logger = createLogger('info', destination);
    const key = generateKey();
    for (const url of ['/a\u0001b\tc', '/x/\ud800?q=\udfff"', `/x\\${key}"\u001f`, '/é/😀/\u2028']) {
      accessLine(logger)({ requestId: 'id-3', method: 'GET', url, ip: '::1', started: 0 }, 200);
      const ms = (JSON.parse(lines.at(-1) as string) as { ms: number }).ms;
      logger.info({ requestId: 'id-3', method: 'GET', path: url, ip: '::1', status: 200, ms }, 'request');
    }
    const withoutTime = (line: string | undefined) => line?.replace(/"time":"[^"]+"/, '');
    for (let i = 0; i < lines.length; i += 2) expect(withoutTime(lines[i])).toBe(withoutTime(lines[i + 1]));
    expect(lines.join('')).not.toContain(key.slice('sk_live_'.length));
  });

  it('writes the time taken as the number JSON would, in whole microseconds', () => {
    const asNumber = (elapsed: number) => String(Math.trunc(elapsed * 1000) / 1000);
    const samples = [0, 0.0004, 0.001, 0.035, 0.1, 0.12, 1, 1.5, 2.25, 10, 12.3456, 999.999, 1000, 10581.963, 86_400_000.5, -1.5];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      samples.push((seed / 2 ** 31) * 10 ** (i % 8));
    }
    for (const elapsed of samples) expect(milliseconds(elapsed), String(elapsed)).toBe(asNumber(elapsed));
  });

  it('logs a quiet request at debug when it succeeds, at info when it fails', () => {
    expect(lineFor('/healthz', 200, { quiet: true })?.level).toBe('debug');
    expect(lineFor('/readyz', 503, { quiet: true })?.level).toBe('info');
  });
});
