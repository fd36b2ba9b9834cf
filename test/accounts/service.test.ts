// The account rules, one by one, through the service the CLI and the portal share (over real SQLite).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountRefusal, type AccountRefusalCode } from '../../src/accounts/refusal.ts';
import type { AccountRepository } from '../../src/accounts/repository.ts';
import { type AccountService, createAccountService, MAX_ACTIVE_KEYS } from '../../src/accounts/service.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { createFingerprinter } from '../../src/keys/fingerprint.ts';

const fingerprinter = createFingerprinter('f'.repeat(64));
let dir: string;
let databases: Db[];
let repository: AccountRepository;
let accounts: AccountService;
let clock: Date;

/** Another connection to the same database file, as a second process would have. */
function openAnotherConnection(): AccountRepository {
  const db = openDatabase(path.join(dir, 'church.sqlite'));
  databases.push(db);
  return createSqliteAccountRepository(db);
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-accounts-'));
  databases = [];
  repository = openAnotherConnection();
  clock = new Date('2026-03-01T10:00:00Z');
  accounts = createAccountService({ repository, fingerprinter, now: () => clock });
});
afterEach(() => {
  for (const db of databases) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function refusal(action: Promise<unknown>): Promise<AccountRefusal> {
  try {
    await action;
  } catch (error) {
    if (error instanceof AccountRefusal) return error;
    throw error;
  }
  throw new Error('expected an AccountRefusal, but the action succeeded');
}

async function refusalCode(action: Promise<unknown>): Promise<AccountRefusalCode> {
  return (await refusal(action)).code;
}

function verifiedDeveloper(email = 'dev@example.org') {
  return accounts.createDeveloper({ name: 'Dev', email, verified: true });
}

describe('developer accounts', () => {
  it('store the address normalised (trimmed, lower case) and find it in any case', async () => {
    const developer = await accounts.createDeveloper({ name: '  Ana  ', email: '  Ana@Example.ORG ' });
    expect(developer).toMatchObject({ name: 'Ana', email: 'ana@example.org', emailVerifiedAt: null, createdAt: clock.toISOString() });
    expect((await accounts.developerByEmail('ANA@example.org'))?.id).toBe(developer.id);
    expect(await accounts.developerByEmail('not an address')).toBeUndefined();
  });

  it('refuse a malformed or over-long address', async () => {
    for (const email of ['not-an-address', 'a@b', 'two words@example.org', '', `${'x'.repeat(250)}@example.org`]) {
      expect(await refusalCode(accounts.createDeveloper({ name: 'X', email })), email).toBe('invalid-email');
    }
  });

  it('refuse an empty, over-long or control-character name; 200 characters are fine', async () => {
    for (const name of ['', '   ', 'x'.repeat(201), 'Line\nbreak', 'Tab\there']) {
      expect(await refusalCode(accounts.createDeveloper({ name, email: 'x@example.org' })), JSON.stringify(name)).toBe('invalid-name');
    }
    expect((await accounts.createDeveloper({ name: 'x'.repeat(200), email: 'x@example.org' })).name).toHaveLength(200);
  });

  it('refuse a second account with the same address in another case', async () => {
    await verifiedDeveloper('dev@example.org');
    expect(await refusalCode(accounts.createDeveloper({ name: 'Again', email: ' DEV@example.org' }))).toBe('duplicate-email');
    expect(await accounts.listDevelopers()).toHaveLength(1);
  });

  it('refuse an address on the reserved list, whatever its case, and create nothing', async () => {
    expect(await accounts.importReservedEmails(['Pastor@Other-Product.example', 'admin@other-product.example'])).toBe(2);
    expect(await refusalCode(accounts.createDeveloper({ name: 'P', email: 'pastor@other-product.EXAMPLE' }))).toBe('reserved-email');
    expect(await accounts.developerByEmail('pastor@other-product.example')).toBeUndefined();
    expect(await accounts.isReservedEmail(' ADMIN@other-product.example')).toBe(true);
  });

  it('answer a reserved address the same whether or not an account already has it, so the refusal reveals no account', async () => {
    await accounts.createDeveloper({ name: 'Early', email: 'early@other.example' });
    await accounts.importReservedEmails(['early@other.example', 'never@other.example']);
    const withAccount = await refusal(accounts.createDeveloper({ name: 'E', email: 'early@other.example' }));
    const withoutAccount = await refusal(accounts.createDeveloper({ name: 'N', email: 'never@other.example' }));
    expect(withAccount.code).toBe('reserved-email');
    expect(withoutAccount.code).toBe('reserved-email');
    expect(withAccount.message.replace('early@other.example', '…')).toBe(withoutAccount.message.replace('never@other.example', '…'));
    expect(withAccount.message).not.toMatch(/exist/i);
  });

  it('can be renamed under the same name rules as at sign-up; an unknown developer is refused', async () => {
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org' });
    expect((await accounts.renameDeveloper(developer.id, '  Ana Lima ')).name).toBe('Ana Lima');
    expect(await refusalCode(accounts.renameDeveloper(developer.id, ' '))).toBe('invalid-name');
    expect(await refusalCode(accounts.renameDeveloper(developer.id, 'a\u0007b'))).toBe('invalid-name');
    expect(await refusalCode(accounts.renameDeveloper(developer.id + 1000, 'Ana'))).toBe('unknown-developer');
    expect((await accounts.developerById(developer.id))?.name).toBe('Ana Lima');
  });

  it('are verified once: the first verification time is kept; verified at creation means verified then', async () => {
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org' });
    const first = await accounts.verifyEmail(developer.id);
    expect(first.emailVerifiedAt).toBe(clock.toISOString());
    clock = new Date('2026-03-02T10:00:00Z');
    expect((await accounts.verifyEmail(developer.id)).emailVerifiedAt).toBe(first.emailVerifiedAt);
    expect((await verifiedDeveloper('vouched@example.org')).emailVerifiedAt).toBe(clock.toISOString());
  });

  it('are listed oldest first with their number of active keys', async () => {
    const first = await verifiedDeveloper('first@example.org');
    clock = new Date('2026-03-02T10:00:00Z');
    const second = await accounts.createDeveloper({ name: 'Second', email: 'second@example.org' });
    await accounts.createKey(first.id, 'one');
    const revoked = await accounts.createKey(first.id, 'two');
    await accounts.revokeKey(first.id, revoked.record.id);
    expect(await accounts.listDevelopers()).toEqual([
      { ...first, activeKeys: 1 },
      { ...second, activeKeys: 0 },
    ]);
  });

  it('can be deleted: their keys stop working at once, and the address can sign up again', async () => {
    const developer = await verifiedDeveloper();
    const keys = await Promise.all(['a', 'b', 'c'].map((name) => accounts.createKey(developer.id, name)));
    await accounts.revokeKey(developer.id, keys[0].record.id);
    const other = await verifiedDeveloper('other@example.org');
    const otherKey = await accounts.createKey(other.id, 'other');

    const deleted = await accounts.deleteDeveloper(developer.id);
    expect(deleted).toEqual({ developer, revokedKeys: 2 });
    for (const { key } of keys) expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toBeUndefined();
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(otherKey.key))).toBeDefined();
    expect(await accounts.developerByEmail('dev@example.org')).toBeUndefined();
    expect(await refusalCode(accounts.deleteDeveloper(developer.id))).toBe('unknown-developer');
    expect((await verifiedDeveloper('dev@example.org')).id).not.toBe(developer.id);
  });
});

describe('API keys', () => {
  it('cannot be created with an unverified address, and can once it is verified', async () => {
    const developer = await accounts.createDeveloper({ name: 'Dev', email: 'dev@example.org' });
    expect(await refusalCode(accounts.createKey(developer.id, 'site'))).toBe('unverified-email');
    expect(await accounts.listKeys(developer.id)).toEqual([]);
    await accounts.verifyEmail(developer.id);
    expect((await accounts.createKey(developer.id, 'site')).key).toMatch(/^sk_live_/);
  });

  it('need a name of 1 to 100 characters without control characters; it is stored trimmed', async () => {
    const developer = await verifiedDeveloper();
    for (const name of ['', '   ', 'x'.repeat(101), 'new\nline']) {
      expect(await refusalCode(accounts.createKey(developer.id, name)), JSON.stringify(name)).toBe('invalid-name');
    }
    expect((await accounts.createKey(developer.id, '  my site  ')).record.name).toBe('my site');
  });

  it('are refused for an unknown developer', async () => {
    expect(await refusalCode(accounts.createKey(999, 'site'))).toBe('unknown-developer');
    expect(await refusalCode(accounts.verifyEmail(999))).toBe('unknown-developer');
  });

  it(`are limited to ${MAX_ACTIVE_KEYS} active per developer; revoking one frees a place`, async () => {
    const developer = await verifiedDeveloper();
    const created = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) created.push(await accounts.createKey(developer.id, `site ${i}`));
    expect(await refusalCode(accounts.createKey(developer.id, 'sixth'))).toBe('key-limit');
    expect((await accounts.createKey((await verifiedDeveloper('other@example.org')).id, 'other')).key).toMatch(/^sk_live_/);
    await accounts.revokeKey(developer.id, created[0].record.id);
    expect((await accounts.createKey(developer.id, 'sixth')).record.name).toBe('sixth');
    expect(await accounts.listKeys(developer.id)).toHaveLength(MAX_ACTIVE_KEYS + 1);
  });

  it(`stay at ${MAX_ACTIVE_KEYS} active when two connections create keys at once`, async () => {
    const developer = await verifiedDeveloper();
    const otherProcess = createAccountService({ repository: openAnotherConnection(), fingerprinter });
    const attempts = Array.from({ length: 8 }, (_, i) => (i % 2 ? otherProcess : accounts).createKey(developer.id, `site ${i}`));
    const results = await Promise.allSettled(attempts);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_ACTIVE_KEYS);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as AccountRefusal).code).toBe('key-limit');
    }
  });

  it('stop working on the very next lookup once revoked; revoking again keeps the first time', async () => {
    const developer = await verifiedDeveloper();
    const { key, record } = await accounts.createKey(developer.id, 'site');
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toEqual({ id: record.id, developerId: developer.id });
    const revoked = await accounts.revokeKey(developer.id, record.id);
    expect(revoked.revokedAt).toBe(clock.toISOString());
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toBeUndefined();
    clock = new Date('2026-03-02T10:00:00Z');
    expect((await accounts.revokeKey(developer.id, record.id)).revokedAt).toBe(revoked.revokedAt);
  });

  it('can only be revoked by their owner', async () => {
    const owner = await verifiedDeveloper();
    const stranger = await verifiedDeveloper('stranger@example.org');
    const { key, record } = await accounts.createKey(owner.id, 'site');
    expect(await refusalCode(accounts.revokeKey(stranger.id, record.id))).toBe('unknown-key');
    expect(await repository.activeKeyByFingerprint(fingerprinter.fingerprint(key))).toBeDefined();
  });

  it('are listed with name and hint, never the key', async () => {
    const developer = await verifiedDeveloper();
    const { key } = await accounts.createKey(developer.id, 'My site');
    const [listed] = await accounts.listKeys(developer.id);
    expect(listed).toMatchObject({ name: 'My site', hint: key.slice(-4), lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(await accounts.listKeys(developer.id))).not.toContain(key.slice(8, 40));
  });

  it('never reach the repository: it is given the fingerprint and the hint only', async () => {
    const calls: unknown[] = [];
    const recording = new Proxy(repository, {
      get: (target, property) => {
        const value = target[property as keyof AccountRepository];
        return typeof value === 'function'
          ? (...args: unknown[]) => {
              calls.push(args);
              return (value as (...a: unknown[]) => unknown)(...args);
            }
          : value;
      },
    });
    const recorded = createAccountService({ repository: recording, fingerprinter });
    const developer = await recorded.createDeveloper({ name: 'Dev', email: 'dev@example.org', verified: true });
    const { key } = await recorded.createKey(developer.id, 'site');
    expect(calls.length).toBeGreaterThan(0);
    expect(JSON.stringify(calls)).toContain(fingerprinter.fingerprint(key));
    expect(JSON.stringify(calls)).not.toContain(key.slice(8, 41));
  });
});

describe('the reserved list', () => {
  it('is imported all or nothing: one invalid address and nothing is written', async () => {
    const failure = await refusal(accounts.importReservedEmails(['ok@example.org', 'broken', 'also-ok@example.org']));
    expect(failure.code).toBe('invalid-email');
    expect(failure.message).toMatch(/Nothing imported: 1 invalid address\(es\): entry 2: "broken"/);
    expect(await accounts.isReservedEmail('ok@example.org')).toBe(false);
  });

  it('is normalised and counts only new addresses', async () => {
    expect(await accounts.importReservedEmails(['ok@example.org', ' OK@example.org'])).toBe(1);
    expect(await accounts.importReservedEmails(['ok@example.org', 'new@example.org'])).toBe(1);
    expect(await accounts.isReservedEmail('NEW@example.org')).toBe(true);
  });
});

describe('an address that only looks like a reserved one', () => {
  it('is refused like the reserved address: a +tag, a homoglyph domain, "rn" for "m", and none of it is created', async () => {
    await accounts.importReservedEmails(['mary@chapel.example']);
    for (const lookalike of ['mary+dev@chapel.example', 'mary@ch\u0430pel.example', 'rnary@chapel.example', 'MARY@Chapel.Example']) {
      expect(await refusalCode(accounts.createDeveloper({ name: 'M', email: lookalike })), lookalike).toBe('reserved-email');
      expect(await accounts.isReservedEmail(lookalike), lookalike).toBe(true);
    }
    expect(await accounts.listDevelopers()).toEqual([]);
    // Dots count by default (most providers deliver m.ary@ elsewhere); the operator can make them not count.
    expect((await accounts.createDeveloper({ name: 'M', email: 'm.ary@chapel.example' })).email).toBe('m.ary@chapel.example');
    const ignoringDots = createAccountService({
      repository: openAnotherConnection(),
      fingerprinter,
      reservedMatching: { plusTags: true, dots: true },
    });
    expect(await refusalCode(ignoringDots.createDeveloper({ name: 'M', email: 'ma.ry@chapel.example' }))).toBe('reserved-email');
  });

  it('is found for entries listed before keys existed or under other rules: they are keyed again before the first comparison', async () => {
    const db = databases[0];
    db.prepare("INSERT INTO reserved_emails (email, imported_at) VALUES ('elder@chapel.example', 'x')").run();
    expect(await accounts.isReservedEmail('elder+x@chapel.example')).toBe(true);
    expect(db.prepare('SELECT match_rules FROM reserved_emails').pluck().all()).toEqual(['tr39-17.0.0 plus-tags']);
    const exact = createAccountService({
      repository: openAnotherConnection(),
      fingerprinter,
      reservedMatching: { plusTags: false, dots: false },
    });
    expect(await exact.isReservedEmail('elder+x@chapel.example')).toBe(false);
    expect(await exact.isReservedEmail('elder@chapel.example')).toBe(true);
    expect(db.prepare('SELECT match_rules FROM reserved_emails').pluck().all()).toEqual(['tr39-17.0.0']);
  });

  it('cannot be mailed to a hidden second address: a list or a named address is refused at sign-up', async () => {
    for (const trick of ['x<pastor@chapel.example>', 'foo,pastor@chapel.example', 'pastor@chapel.example.']) {
      expect(await refusalCode(accounts.createDeveloper({ name: 'P', email: trick })), trick).toBe('invalid-email');
    }
    expect(await accounts.listDevelopers()).toEqual([]);
  });
});
