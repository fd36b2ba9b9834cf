import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logger.ts';
import { createFingerprinter, loadOrCreateSecret } from '../../src/keys/fingerprint.ts';
import { generateKey } from '../../src/keys/format.ts';
import { collectLogLines } from '../helpers/log-lines.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-secret-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('key fingerprints', () => {
  it('are HMAC-SHA-256 hex, stable for one secret and different for another', () => {
    const key = generateKey();
    const a = createFingerprinter('a'.repeat(64));
    expect(a.fingerprint(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(a.fingerprint(key)).toBe(a.fingerprint(key));
    expect(createFingerprinter('b'.repeat(64)).fingerprint(key)).not.toBe(a.fingerprint(key));
  });

  it("are the HMAC of the secret's UTF-8 bytes, whatever characters it holds: fingerprints stored before stay valid", () => {
    const key = generateKey();
    for (const secret of ['0123456789abcdef'.repeat(4), 'sécrét-clé-été-'.repeat(3)]) {
      expect(createFingerprinter(secret).fingerprint(key)).toBe(createHmac('sha256', secret).update(key, 'utf8').digest('hex'));
    }
  });

  it('creates the secret file once, readable by the owner only, and logs that it did without the value', () => {
    const dir = tempDir();
    const file = path.join(dir, 'nested', 'key.secret');
    const { lines: logs, destination } = collectLogLines();
    const logger = createLogger('info', destination);
    const secret = loadOrCreateSecret({ keySecretFile: file }, logger);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('created the key fingerprint secret');
    expect(logs[0]).not.toContain(secret);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['key.secret']);

    expect(loadOrCreateSecret({ keySecretFile: file }, logger)).toBe(secret);
    expect(logs).toHaveLength(1);
  });

  it('prefers the configured secret and refuses a truncated secret file', () => {
    const dir = tempDir();
    const logger = createLogger('silent');
    const configured = 'c'.repeat(40);
    expect(loadOrCreateSecret({ keyFingerprintSecret: configured, keySecretFile: path.join(dir, 'unused') }, logger)).toBe(configured);
    expect(fs.existsSync(path.join(dir, 'unused'))).toBe(false);

    fs.writeFileSync(path.join(dir, 'short'), 'abc\n');
    expect(() => loadOrCreateSecret({ keySecretFile: path.join(dir, 'short') }, logger)).toThrow(/shorter than 32/);
  });
});
