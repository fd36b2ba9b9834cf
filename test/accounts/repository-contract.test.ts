// The AccountRepository contract, written once against the interface and run on both backends (SQLite, PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresAccountRepository } from '../../src/accounts/postgres-repository.ts';
import { type AccountRepository, type KeyInsert, LAST_USED_INTERVAL_MS } from '../../src/accounts/repository.ts';
import { createSqliteAccountRepository } from '../../src/accounts/sqlite-repository.ts';
import type { Developer } from '../../src/accounts/types.ts';
import { type Db, openDatabase } from '../../src/db/open.ts';
import { usePostgresDatabases } from '../helpers/postgres-databases.ts';
import { describeWith } from '../helpers/requirements.ts';

interface StoreUnderTest {
  repository: AccountRepository;
  /** Another repository over the same store through its own connection, as a second process has. */
  openAnother(): AccountRepository;
  close(): void | Promise<void>;
}

/** Runs the contract against one implementation; `create` gives an empty, migrated store each time. */
function describeAccountRepositoryContract(name: string, create: () => StoreUnderTest | Promise<StoreUnderTest>): void {
  describe(`AccountRepository contract: ${name}`, () => {
    let store: StoreUnderTest;
    let accounts: AccountRepository;
    let keyNumber = 0;
    const t0 = '2026-03-01T10:00:00.000Z';

    beforeEach(async () => {
      store = await create();
      accounts = store.repository;
    });
    afterEach(() => store.close());

    const developer = async (email: string, verifiedAt: string | null = t0, createdAt = t0): Promise<Developer> =>
      (await accounts.insertDeveloper({ name: `Dev ${email}`, email, emailVerifiedAt: verifiedAt, createdAt }))!;
    /** A key row with a fingerprint of its own (64 hex characters, as the fingerprinter makes). */
    const keyRow = (name = `key ${keyNumber + 1}`, createdAt = t0): KeyInsert => {
      keyNumber += 1;
      return { name, fingerprint: keyNumber.toString(16).padStart(64, '0'), hint: 'ab12', createdAt };
    };

    it('stores a developer and finds it by id and by address; the address is unique', async () => {
      const ana = await developer('ana@example.org', null);
      expect(ana).toEqual({
        id: expect.any(Number),
        name: 'Dev ana@example.org',
        email: 'ana@example.org',
        emailVerifiedAt: null,
        createdAt: t0,
      });
      expect(await accounts.developerById(ana.id)).toEqual(ana);
      expect(await accounts.developerByEmail('ana@example.org')).toEqual(ana);
      expect(
        await accounts.insertDeveloper({ name: 'Again', email: 'ana@example.org', emailVerifiedAt: null, createdAt: t0 }),
      ).toBeUndefined();
      expect(await accounts.developerById(ana.id + 1000)).toBeUndefined();
      expect(await accounts.developerByEmail('nobody@example.org')).toBeUndefined();
    });

    it('lets only one of two connections racing for one address create it', async () => {
      const other = store.openAnother();
      const results = await Promise.all(
        [accounts, other, accounts, other].map((repository) =>
          repository.insertDeveloper({ name: 'Racer', email: 'race@example.org', emailVerifiedAt: null, createdAt: t0 }),
        ),
      );
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    });

    it('keeps the first verification time and answers undefined for an unknown developer', async () => {
      const ana = await developer('ana@example.org', null);
      expect((await accounts.markEmailVerified(ana.id, t0))?.emailVerifiedAt).toBe(t0);
      expect((await accounts.markEmailVerified(ana.id, '2026-03-02T00:00:00.000Z'))?.emailVerifiedAt).toBe(t0);
      expect(await accounts.markEmailVerified(ana.id + 1000, t0)).toBeUndefined();
    });

    it('renames a developer and answers undefined for an unknown one', async () => {
      const ana = await developer('ana@example.org');
      expect(await accounts.updateDeveloperName(ana.id, 'Ana Lima')).toEqual({ ...ana, name: 'Ana Lima' });
      expect(await accounts.developerById(ana.id)).toEqual({ ...ana, name: 'Ana Lima' });
      expect(await accounts.updateDeveloperName(ana.id + 1000, 'Nobody')).toBeUndefined();
    });

    it('lists developers oldest first with their active keys', async () => {
      const later = await developer('later@example.org', t0, '2026-03-02T00:00:00.000Z');
      const earlier = await developer('earlier@example.org', t0, '2026-03-01T00:00:00.000Z');
      await accounts.insertKeyIfActiveBelow(later.id, 5, keyRow());
      const revoked = (await accounts.insertKeyIfActiveBelow(later.id, 5, keyRow()))!;
      await accounts.revokeKey(later.id, revoked.id, t0);
      expect(await accounts.listDevelopers()).toEqual([
        { ...earlier, activeKeys: 0 },
        { ...later, activeKeys: 1 },
      ]);
    });

    it('inserts a key only while the developer has fewer active keys than the limit; revoked keys do not count', async () => {
      const ana = await developer('ana@example.org');
      const bob = await developer('bob@example.org');
      const first = await accounts.insertKeyIfActiveBelow(ana.id, 2, keyRow('first'));
      expect(first).toEqual({
        id: expect.any(Number),
        developerId: ana.id,
        name: 'first',
        hint: 'ab12',
        createdAt: t0,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(await accounts.insertKeyIfActiveBelow(ana.id, 2, keyRow())).toBeDefined();
      expect(await accounts.insertKeyIfActiveBelow(ana.id, 2, keyRow())).toBeUndefined();
      expect(await accounts.insertKeyIfActiveBelow(bob.id, 2, keyRow())).toBeDefined();
      await accounts.revokeKey(ana.id, first!.id, t0);
      expect(await accounts.insertKeyIfActiveBelow(ana.id, 2, keyRow())).toBeDefined();
      expect(await accounts.listKeys(ana.id)).toHaveLength(3);
    });

    it('never exceeds the limit when two connections insert keys at once', async () => {
      const ana = await developer('ana@example.org');
      const other = store.openAnother();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : accounts).insertKeyIfActiveBelow(ana.id, 5, keyRow())),
      );
      expect(results.filter((result) => result !== undefined)).toHaveLength(5);
      expect((await accounts.listKeys(ana.id)).filter((key) => key.revokedAt === null)).toHaveLength(5);
    });

    it('lists keys newest first, revoked ones included', async () => {
      const ana = await developer('ana@example.org');
      await accounts.insertKeyIfActiveBelow(ana.id, 5, keyRow('old', '2026-03-01T00:00:00.000Z'));
      const middle = (await accounts.insertKeyIfActiveBelow(ana.id, 5, keyRow('middle', '2026-03-02T00:00:00.000Z')))!;
      await accounts.insertKeyIfActiveBelow(ana.id, 5, keyRow('new', '2026-03-03T00:00:00.000Z'));
      await accounts.revokeKey(ana.id, middle.id, t0);
      expect((await accounts.listKeys(ana.id)).map((key) => key.name)).toEqual(['new', 'middle', 'old']);
      expect(await accounts.listKeys(ana.id + 1000)).toEqual([]);
    });

    it('finds an active key by fingerprint, and no longer once it is revoked; only the owner revokes, the first time is kept', async () => {
      const ana = await developer('ana@example.org');
      const bob = await developer('bob@example.org');
      const row = keyRow();
      const key = (await accounts.insertKeyIfActiveBelow(ana.id, 5, row))!;
      expect(await accounts.activeKeyByFingerprint(row.fingerprint)).toEqual({ id: key.id, developerId: ana.id });
      expect(await accounts.activeKeyByFingerprint('0'.repeat(64))).toBeUndefined();

      expect(await accounts.revokeKey(bob.id, key.id, t0)).toBeUndefined();
      expect(await accounts.activeKeyByFingerprint(row.fingerprint)).toBeDefined();

      expect((await accounts.revokeKey(ana.id, key.id, t0))?.revokedAt).toBe(t0);
      expect(await store.openAnother().activeKeyByFingerprint(row.fingerprint)).toBeUndefined();
      expect((await accounts.revokeKey(ana.id, key.id, '2026-03-02T00:00:00.000Z'))?.revokedAt).toBe(t0);
    });

    it('deletes a developer with their keys in one step, leaving other developers alone', async () => {
      const ana = await developer('ana@example.org');
      const bob = await developer('bob@example.org');
      const rows = [keyRow(), keyRow(), keyRow()];
      const keys = [];
      for (const row of rows) keys.push((await accounts.insertKeyIfActiveBelow(ana.id, 5, row))!);
      await accounts.revokeKey(ana.id, keys[0].id, t0);
      const bobsRow = keyRow();
      await accounts.insertKeyIfActiveBelow(bob.id, 5, bobsRow);

      expect(await accounts.deleteDeveloper(ana.id)).toEqual({ developer: ana, revokedKeys: 2 });
      for (const row of rows) expect(await accounts.activeKeyByFingerprint(row.fingerprint)).toBeUndefined();
      expect(await accounts.developerById(ana.id)).toBeUndefined();
      expect(await accounts.listKeys(ana.id)).toEqual([]);
      expect(await accounts.activeKeyByFingerprint(bobsRow.fingerprint)).toBeDefined();
      expect(await accounts.deleteDeveloper(ana.id)).toBeUndefined();
    });

    it('records "last used" at most once a minute per key, also across connections', async () => {
      const ana = await developer('ana@example.org');
      const key = (await accounts.insertKeyIfActiveBelow(ana.id, 5, keyRow()))!;
      const other = await accounts.insertKeyIfActiveBelow(ana.id, 5, keyRow());
      const at = (offset: number) => new Date(Date.parse(t0) + offset);
      expect(await accounts.markUsed(key.id, at(0))).toBe(true);
      for (const second of [1, 30, 59]) expect(await accounts.markUsed(key.id, at(second * 1000))).toBe(false);
      expect(await store.openAnother().markUsed(key.id, at(5_000))).toBe(false);
      expect(await accounts.markUsed(other!.id, at(1000))).toBe(true);
      expect((await accounts.listKeys(ana.id)).find((listed) => listed.id === key.id)?.lastUsedAt).toBe(t0);
      expect(await accounts.markUsed(key.id, at(LAST_USED_INTERVAL_MS))).toBe(true);
      expect((await accounts.listKeys(ana.id)).find((listed) => listed.id === key.id)?.lastUsedAt).toBe(
        at(LAST_USED_INTERVAL_MS).toISOString(),
      );
    });

    it('answers many key lookups asked at once, each for its own fingerprint, the same one twice alike', async () => {
      const ana = await developer('ana@example.org');
      const bob = await developer('bob@example.org');
      const [anasRow, bobsRow, revokedRow] = [keyRow(), keyRow(), keyRow()];
      const anas = (await accounts.insertKeyIfActiveBelow(ana.id, 5, anasRow))!;
      const bobs = (await accounts.insertKeyIfActiveBelow(bob.id, 5, bobsRow))!;
      const revoked = (await accounts.insertKeyIfActiveBelow(bob.id, 5, revokedRow))!;
      await accounts.revokeKey(bob.id, revoked.id, t0);
      const asked = [anasRow, bobsRow, anasRow, revokedRow].map((row) => row.fingerprint);
      expect(await Promise.all([...asked, 'f'.repeat(64)].map((fingerprint) => accounts.activeKeyByFingerprint(fingerprint)))).toEqual([
        { id: anas.id, developerId: ana.id },
        { id: bobs.id, developerId: bob.id },
        { id: anas.id, developerId: ana.id },
        undefined,
        undefined,
      ]);
      // A revocation after earlier lookups holds for the very next ones.
      const pending = [accounts.activeKeyByFingerprint(bobsRow.fingerprint), accounts.activeKeyByFingerprint(anasRow.fingerprint)];
      await Promise.all(pending);
      await accounts.revokeKey(bob.id, bobs.id, t0);
      expect(await Promise.all([bobsRow, anasRow].map((row) => accounts.activeKeyByFingerprint(row.fingerprint)))).toEqual([
        undefined,
        { id: anas.id, developerId: ana.id },
      ]);
    });

    it('records "last used" of many keys used at once, each once', async () => {
      const ana = await developer('ana@example.org');
      const bob = await developer('bob@example.org');
      const keys = [
        ...(await Promise.all([1, 2, 3].map(() => accounts.insertKeyIfActiveBelow(ana.id, 5, keyRow())))),
        ...(await Promise.all([1, 2, 3].map(() => accounts.insertKeyIfActiveBelow(bob.id, 5, keyRow())))),
      ].map((key) => key!);
      const used = (index: number) => new Date(Date.parse(t0) + index * 1000);
      // Each key twice in the same turn: the second use falls within the minute of the first.
      const wrote = await Promise.all([...keys, ...keys].map((key, index) => accounts.markUsed(key.id, used(index % keys.length))));
      expect(wrote).toEqual([...keys.map(() => true), ...keys.map(() => false)]);
      const listed = [...(await accounts.listKeys(ana.id)), ...(await accounts.listKeys(bob.id))];
      for (const [index, key] of keys.entries()) {
        expect(listed.find((record) => record.id === key.id)?.lastUsedAt).toBe(used(index).toISOString());
      }
    });

    it('keeps the reserved list: adds in one step, counts only new addresses, finds them by key', async () => {
      const entry = (email: string) => ({ email, matchKey: `key:${email}` });
      expect(await accounts.isReservedMatch('key:elder@other.example')).toBe(false);
      expect(await accounts.addReservedEmails([entry('elder@other.example'), entry('deacon@other.example')], 'rules-1', t0)).toBe(2);
      expect(await accounts.addReservedEmails([entry('elder@other.example'), entry('pastor@other.example')], 'rules-1', t0)).toBe(1);
      expect(await accounts.isReservedMatch('key:elder@other.example')).toBe(true);
      expect(await store.openAnother().isReservedMatch('key:pastor@other.example')).toBe(true);
      expect(await accounts.isReservedMatch('elder@other.example')).toBe(false);
      expect(await accounts.isReservedMatch('key:nobody@other.example')).toBe(false);
    });

    it('tells which reserved addresses were keyed with other rules, and stores new keys for them', async () => {
      await accounts.addReservedEmails([{ email: 'a@other.example', matchKey: 'old-a' }], 'rules-1', t0);
      await accounts.addReservedEmails([{ email: 'b@other.example', matchKey: 'new-b' }], 'rules-2', t0);
      expect(await accounts.reservedEmailsKeyedOtherwise('rules-2')).toEqual(['a@other.example']);
      await accounts.setReservedMatchKeys([{ email: 'a@other.example', matchKey: 'new-a' }], 'rules-2');
      expect(await accounts.reservedEmailsKeyedOtherwise('rules-2')).toEqual([]);
      expect(await accounts.isReservedMatch('new-a')).toBe(true);
      expect(await accounts.isReservedMatch('old-a')).toBe(false);
    });
  });
}

describeAccountRepositoryContract('SQLite', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-account-contract-'));
  const file = path.join(dir, 'church.sqlite');
  const databases: Db[] = [openDatabase(file)];
  return {
    repository: createSqliteAccountRepository(databases[0]),
    openAnother() {
      const db = openDatabase(file);
      databases.push(db);
      return createSqliteAccountRepository(db);
    },
    close() {
      for (const db of databases) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeWith(['postgres'], 'the account repository on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  describeAccountRepositoryContract('PostgreSQL', async () => {
    const database = await databases.migrated();
    return {
      repository: createPostgresAccountRepository(database.open()),
      // A pool of its own: another instance of the service.
      openAnother: () => createPostgresAccountRepository(database.open()),
      close: () => database.close(),
    };
  });
});
