// The service logger: JSON lines operators can read, secret fields redacted, keys scrubbed from any string.
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessLine } from '../../src/http/access-log.ts';
import { ACCESS_LINE_FIELDS, createLogger, LOG_BATCH_BYTES, REDACTED_FIELDS, stdoutWriter } from '../../src/http/logger.ts';
import { generateKey } from '../../src/keys/format.ts';
import { collectLogLines } from '../helpers/log-lines.ts';

describe('the service logger', () => {
  it('writes one JSON object per line with an ISO time, a level label and a message', () => {
    const { lines, destination } = collectLogLines();
    createLogger('info', destination).info({ buildHash: 'abc' }, 'bible build opened');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', message: 'bible build opened', buildHash: 'abc' });
    expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
  });

  it('writes every line to its file whole and in order, whatever its characters, across many batches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logger-'));
    try {
      const destination = stdoutWriter(openSync(join(dir, 'out.log'), 'w'));
      const logger = createLogger('info', destination);
      const messages = Array.from({ length: 2000 }, (_, i) => `line ${i} é ü 😀 ${'ø'.repeat(i % 97)}`);
      for (const message of messages) logger.info(message);
      expect(Buffer.byteLength(messages.join(''))).toBeGreaterThan(4 * LOG_BATCH_BYTES);
      await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
      const written = readFileSync(join(dir, 'out.log'), 'utf8').trimEnd().split('\n');
      expect(written.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(messages);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes nothing below its level, and nothing at all when silent', () => {
    const { lines, destination } = collectLogLines();
    const logger = createLogger('warn', destination);
    logger.info('not this');
    logger.warn('this');
    const silent = createLogger('silent', destination);
    silent.error('nor this');
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(['this']);
  });

  it('redacts the Authorization header, cookies, passwords, tokens and secrets wherever they sit', () => {
    const { lines, destination } = collectLogLines();
    createLogger('info', destination).info(
      {
        req: { headers: { authorization: 'Bearer hunter2-header', cookie: 'session=hunter2-cookie' } },
        headers: { authorization: 'Basic hunter2-basic' },
        password: 'hunter2-password',
        account: { token: 'hunter2-token', secret: 'hunter2-secret' },
      },
      'something happened',
    );
    expect(lines[0]).not.toContain('hunter2');
    expect(JSON.parse(lines[0])).toMatchObject({ req: { headers: { authorization: '[redacted]' } }, password: '[redacted]' });
  });

  it('scrubs a key from any string: message, field, error, in plain or percent-encoded form', () => {
    const key = generateKey();
    const randomPart = key.slice(8);
    const { lines, destination } = collectLogLines();
    const logger = createLogger('info', destination);
    logger.info({ path: `/x?q=${key.replaceAll('_', '%5F')}` }, `saw ${key}`);
    logger.info({ path: `/x/${key.replace('sk_live_', 'sk_live%5f')}` }, 'request');
    logger.error({ err: new Error(`bad key ${key}`) }, 'failed');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(randomPart);
      expect(line).toContain('sk_live_[redacted]');
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('writes access lines with the same format and key scrubbing, and their fields hold no redacted name', () => {
    const key = generateKey();
    const { lines, destination } = collectLogLines();
    accessLine(createLogger('info', destination))(
      { requestId: key, method: 'GET', url: `/x/${key.replaceAll('_', '%5F')}?q=${key}`, ip: '::1', started: performance.now() },
      200,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(key.slice(8));
    expect(lines[0]).not.toContain(key.slice(8).replaceAll('_', '%5F'));
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', message: 'request', method: 'GET' });
    const redacted = REDACTED_FIELDS.map((field) => field.toLowerCase());
    for (const field of ACCESS_LINE_FIELDS) expect(redacted).not.toContain(field.toLowerCase());
  });

  it('keeps the level of its logger for access lines', () => {
    const { lines, destination } = collectLogLines();
    accessLine(createLogger('warn', destination))({ requestId: 'r', method: 'GET', url: '/', ip: '::1', started: 0 }, 200);
    expect(lines).toHaveLength(0);
  });
});
