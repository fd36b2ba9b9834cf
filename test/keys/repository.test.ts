import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';
import { KeyRefusal, MAX_ACTIVE_KEYS, type KeyRepository } from '../../src/keys/repository.ts';
import { createSqliteKeyRepository } from '../../src/keys/sqlite-repository.ts';
import { openDatabase, type Db } from '../../src/db/open.ts';

const fingerprinter = createFingerprinter('f'.repeat(64));
let dir: string;
let db: Db;
let keys: KeyRepository;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-keyrepo-'));
  db = openDatabase(path.join(dir, 'church.sqlite'));
  keys = createSqliteKeyRepository(db);
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function refusalCode(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof KeyRefusal) return error.code;
    throw error;
  }
  return undefined;
}

function verifiedDeveloper(email = 'dev@example.org') {
  return keys.createDeveloper({ name: 'Dev', email, verified: true });
}

describe('developer accounts', () => {
  it('refuses an address on the reserved list, whatever its case', () => {
    expect(keys.importReservedEmails(['Pastor@Other-Product.example', 'admin@other-product.example'])).toBe(2);
    expect(refusalCode(() => keys.createDeveloper({ name: 'P', email: 'pastor@other-product.EXAMPLE' }))).toBe('reserved-email');
    expect(keys.findDeveloperByEmail('pastor@other-product.example')).toBeUndefined();
  });

  it('refuses a second account with the same address in another case, a malformed address and an empty name', () => {
    verifiedDeveloper('dev@example.org');
    expect(refusalCode(() => keys.createDeveloper({ name: 'Again', email: 'DEV@example.org' }))).toBe('duplicate-email');
    expect(refusalCode(() => keys.createDeveloper({ name: 'X', email: 'not-an-address' }))).toBe('invalid-email');
    expect(refusalCode(() => keys.createDeveloper({ name: '  ', email: 'x@example.org' }))).toBe('invalid-name');
  });

  it('imports reserved addresses all or nothing', () => {
    expect(refusalCode(() => keys.importReservedEmails(['ok@example.org', 'broken', 'also-ok@example.org']))).toBe('invalid-email');
    expect(keys.isReservedEmail('ok@example.org')).toBe(false);
    expect(keys.importReservedEmails(['ok@example.org', 'OK@example.org'])).toBe(1);
    expect(keys.importReservedEmails(['ok@example.org', 'new@example.org'])).toBe(1);
  });
});

describe('API keys', () => {
  it('cannot be created with an unverified address, and can once it is verified', () => {
    const developer = keys.createDeveloper({ name: 'Dev', email: 'dev@example.org' });
    expect(refusalCode(() => keys.createKey(developer.id, 'site', fingerprinter))).toBe('unverified-email');
    keys.verifyDeveloperEmail(developer.id);
    expect(keys.createKey(developer.id, 'site', fingerprinter).key).toMatch(/^sk_live_/);
  });

  it('need a name', () => {
    const developer = verifiedDeveloper();
    expect(refusalCode(() => keys.createKey(developer.id, '   ', fingerprinter))).toBe('invalid-name');
  });

  it('are limited to 5 active per developer; revoking one frees a place', () => {
    const developer = verifiedDeveloper();
    const created = Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => keys.createKey(developer.id, `site ${i}`, fingerprinter));
    expect(refusalCode(() => keys.createKey(developer.id, 'sixth', fingerprinter))).toBe('key-limit');
    expect(keys.createKey(verifiedDeveloper('other@example.org').id, 'other', fingerprinter).key).toMatch(/^sk_live_/);
    keys.revokeKey(developer.id, created[0].record.id);
    expect(keys.createKey(developer.id, 'sixth', fingerprinter).record.name).toBe('sixth');
    expect(keys.listKeys(developer.id)).toHaveLength(MAX_ACTIVE_KEYS + 1);
  });

  it('are found by fingerprint while active, and no longer once revoked', () => {
    const developer = verifiedDeveloper();
    const { key, record } = keys.createKey(developer.id, 'site', fingerprinter);
    expect(keys.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toEqual({ id: record.id, developerId: developer.id });
    const revoked = keys.revokeKey(developer.id, record.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect(keys.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toBeUndefined();
  });

  it('can only be revoked by their owner', () => {
    const owner = verifiedDeveloper();
    const stranger = verifiedDeveloper('stranger@example.org');
    const { key, record } = keys.createKey(owner.id, 'site', fingerprinter);
    expect(refusalCode(() => keys.revokeKey(stranger.id, record.id))).toBe('unknown-key');
    expect(keys.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toBeDefined();
  });

  it('are listed with name and hint, never the key', () => {
    const developer = verifiedDeveloper();
    const { key } = keys.createKey(developer.id, 'My site', fingerprinter);
    const [listed] = keys.listKeys(developer.id);
    expect(listed).toMatchObject({ name: 'My site', hint: key.slice(-4), lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(keys.listKeys(developer.id))).not.toContain(key.slice(8, 40));
  });

  it('are never stored in clear: the database file holds no trace of the key', () => {
    const developer = verifiedDeveloper();
    const created = Array.from({ length: 3 }, (_, i) => keys.createKey(developer.id, `site ${i}`, fingerprinter).key);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = Buffer.concat(
      fs.readdirSync(dir).map((file) => fs.readFileSync(path.join(dir, file))),
    );
    expect(bytes.length).toBeGreaterThan(0);
    for (const key of created) {
      // Neither the key nor its random part, and not in hex either.
      expect(bytes.includes(Buffer.from(key))).toBe(false);
      expect(bytes.includes(Buffer.from(key.slice(8, 41)))).toBe(false);
      expect(bytes.includes(Buffer.from(Buffer.from(key).toString('hex')))).toBe(false);
      expect(bytes.includes(Buffer.from(fingerprinter.fingerprint(key)))).toBe(true);
    }
  });

  it('record "last used" at most once a minute', () => {
    const developer = verifiedDeveloper();
    const { record } = keys.createKey(developer.id, 'site', fingerprinter);
    let writes = 0;
    const countWrites = () => (writes = db.prepare('SELECT total_changes()').pluck().get() as number);
    const t0 = new Date('2026-01-01T10:00:00Z');
    countWrites();
    const before = writes;
    expect(keys.markUsed(record.id, t0)).toBe(true);
    for (let second = 1; second < 60; second++) expect(keys.markUsed(record.id, new Date(t0.getTime() + second * 1000))).toBe(false);
    countWrites();
    expect(writes - before).toBe(1);
    expect(keys.listKeys(developer.id)[0].lastUsedAt).toBe(t0.toISOString());
    const t1 = new Date(t0.getTime() + 60_000);
    expect(keys.markUsed(record.id, t1)).toBe(true);
    expect(keys.listKeys(developer.id)[0].lastUsedAt).toBe(t1.toISOString());
  });

  it('"last used" holds its once-a-minute rule across two processes sharing the file', () => {
    const developer = verifiedDeveloper();
    const { record } = keys.createKey(developer.id, 'site', fingerprinter);
    const other = createSqliteKeyRepository(db);
    const t0 = new Date('2026-01-01T10:00:00Z');
    expect(keys.markUsed(record.id, t0)).toBe(true);
    expect(other.markUsed(record.id, new Date(t0.getTime() + 5_000))).toBe(false);
    expect(keys.listKeys(developer.id)[0].lastUsedAt).toBe(t0.toISOString());
  });
});
