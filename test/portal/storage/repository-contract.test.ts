// The portal's repository contracts (sessions, one-time tokens, credentials), written once against the interfaces, run on both backends.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresAccountRepository } from '../../../src/accounts/postgres-repository.ts';
import type { AccountRepository } from '../../../src/accounts/repository.ts';
import { createSqliteAccountRepository } from '../../../src/accounts/sqlite-repository.ts';
import { type Db, openDatabase } from '../../../src/db/open.ts';
import type { CredentialRepository } from '../../../src/portal/storage/credential-repository.ts';
import { createPostgresCredentialRepository } from '../../../src/portal/storage/postgres-credential-repository.ts';
import { createPostgresSessionRepository } from '../../../src/portal/storage/postgres-session-repository.ts';
import { createPostgresTokenRepository } from '../../../src/portal/storage/postgres-token-repository.ts';
import type { SessionRepository } from '../../../src/portal/storage/session-repository.ts';
import { createSqliteCredentialRepository } from '../../../src/portal/storage/sqlite-credential-repository.ts';
import { createSqliteSessionRepository } from '../../../src/portal/storage/sqlite-session-repository.ts';
import { createSqliteTokenRepository } from '../../../src/portal/storage/sqlite-token-repository.ts';
import type { TokenRepository } from '../../../src/portal/storage/token-repository.ts';
import { usePostgresDatabases } from '../../helpers/postgres-databases.ts';
import { describeWith } from '../../helpers/requirements.ts';

interface StoreUnderTest {
  sessions: SessionRepository;
  tokens: TokenRepository;
  credentials: CredentialRepository;
  /** Two developers that exist in the store. */
  developers: [number, number];
  deleteDeveloper(id: number): Promise<void>;
  close(): void | Promise<void>;
}

const hash = (n: number) => n.toString(16).padStart(64, '0');
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T11:00:00.000Z';
const t2 = '2026-03-01T12:00:00.000Z';

function describePortalRepositoryContract(name: string, create: () => Promise<StoreUnderTest>): void {
  describe(`portal repositories: ${name}`, () => {
    let store: StoreUnderTest;
    beforeEach(async () => {
      store = await create();
    });
    afterEach(() => store.close());

    it('sessions: saved, replaced, found until they expire, touched, deleted', async () => {
      const { sessions } = store;
      const [ana] = store.developers;
      await sessions.save(hash(1), { data: '{"a":1}', developerId: null, expiresAt: t1 });
      expect(await sessions.find(hash(1), t0)).toEqual({ data: '{"a":1}', developerId: null, expiresAt: t1 });
      await sessions.save(hash(1), { data: '{"a":2}', developerId: ana, expiresAt: t1 });
      expect(await sessions.find(hash(1), t0)).toEqual({ data: '{"a":2}', developerId: ana, expiresAt: t1 });
      expect(await sessions.find(hash(1), t1)).toBeUndefined();
      await sessions.touch(hash(1), t2);
      expect((await sessions.find(hash(1), t1))?.expiresAt).toBe(t2);
      await sessions.delete(hash(1));
      expect(await sessions.find(hash(1), t0)).toBeUndefined();
      await sessions.touch(hash(9), t2);
      expect(await sessions.find(hash(9), t0)).toBeUndefined();
    });

    it("sessions: a developer's are ended all at once, but for the one kept; expired ones are swept", async () => {
      const { sessions } = store;
      const [ana, bo] = store.developers;
      await sessions.save(hash(1), { data: '{}', developerId: ana, expiresAt: t2 });
      await sessions.save(hash(2), { data: '{}', developerId: ana, expiresAt: t2 });
      await sessions.save(hash(3), { data: '{}', developerId: ana, expiresAt: t2 });
      await sessions.save(hash(4), { data: '{}', developerId: bo, expiresAt: t2 });
      await sessions.save(hash(5), { data: '{}', developerId: null, expiresAt: t0 });
      expect(await sessions.deleteForDeveloper(ana, hash(3))).toBe(2);
      expect(await sessions.find(hash(3), t0)).toBeDefined();
      expect(await sessions.deleteForDeveloper(ana)).toBe(1);
      expect(await sessions.find(hash(4), t0)).toBeDefined();
      expect(await sessions.deleteExpired(t1)).toBe(1);
      await store.deleteDeveloper(bo);
      expect(await sessions.find(hash(4), t0)).toBeUndefined();
    });

    it('tokens: usable once, before expiry, for their purpose only; a peek does not use them', async () => {
      const { tokens } = store;
      const [ana] = store.developers;
      await tokens.insert({ tokenHash: hash(1), purpose: 'verify-email', developerId: ana, createdAt: t0, expiresAt: t1 });
      expect(await tokens.peek(hash(1), 'verify-email', t0)).toBe(ana);
      expect(await tokens.consume(hash(1), 'reset-password', t0)).toBeUndefined();
      expect(await tokens.consume(hash(1), 'verify-email', t1)).toBeUndefined();
      expect(await tokens.consume(hash(1), 'verify-email', t0)).toBe(ana);
      expect(await tokens.consume(hash(1), 'verify-email', t0)).toBeUndefined();
      expect(await tokens.peek(hash(1), 'verify-email', t0)).toBeUndefined();
      expect(await tokens.consume(hash(2), 'verify-email', t0)).toBeUndefined();
    });

    it('tokens: only one of many simultaneous uses succeeds', async () => {
      const { tokens } = store;
      await tokens.insert({
        tokenHash: hash(1),
        purpose: 'reset-password',
        developerId: store.developers[0],
        createdAt: t0,
        expiresAt: t1,
      });
      const results = await Promise.all(Array.from({ length: 5 }, () => tokens.consume(hash(1), 'reset-password', t0)));
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    });

    it("tokens: a developer's of one purpose are deleted together; expired ones are swept", async () => {
      const { tokens } = store;
      const [ana] = store.developers;
      await tokens.insert({ tokenHash: hash(1), purpose: 'verify-email', developerId: ana, createdAt: t0, expiresAt: t2 });
      await tokens.insert({ tokenHash: hash(2), purpose: 'verify-email', developerId: ana, createdAt: t0, expiresAt: t2 });
      await tokens.insert({ tokenHash: hash(3), purpose: 'reset-password', developerId: ana, createdAt: t0, expiresAt: t1 });
      expect(await tokens.deleteForDeveloper(ana, 'verify-email')).toBe(2);
      expect(await tokens.peek(hash(3), 'reset-password', t0)).toBe(ana);
      expect(await tokens.deleteExpired(t1)).toBe(1);
    });

    it('credentials: a password hash is set, replaced, and gone with its developer', async () => {
      const { credentials } = store;
      const [ana, bo] = store.developers;
      expect(await credentials.passwordHash(ana)).toBeUndefined();
      await credentials.setPasswordHash(ana, 'scrypt$1024$8$1$c2FsdA==$aGFzaA==', t0);
      await credentials.setPasswordHash(ana, 'scrypt$1024$8$1$c2FsdA==$bmV3', t1);
      expect(await credentials.passwordHash(ana)).toBe('scrypt$1024$8$1$c2FsdA==$bmV3');
      expect(await credentials.passwordHash(bo)).toBeUndefined();
      await store.deleteDeveloper(ana);
      expect(await credentials.passwordHash(ana)).toBeUndefined();
    });

    it('credentials: an identity is linked once and never moved to another developer', async () => {
      const { credentials } = store;
      const [ana, bo] = store.developers;
      const issuer = 'https://id.example.org';
      expect(await credentials.developerIdByIdentity(issuer, 'sub-1')).toBeUndefined();
      expect(await credentials.linkIdentity({ issuer, subject: 'sub-1', developerId: ana, linkedAt: t0 })).toBe(true);
      expect(await credentials.linkIdentity({ issuer, subject: 'sub-1', developerId: bo, linkedAt: t0 })).toBe(false);
      expect(await credentials.developerIdByIdentity(issuer, 'sub-1')).toBe(ana);
      expect(await credentials.developerIdByIdentity('https://other.example.org', 'sub-1')).toBeUndefined();
      await store.deleteDeveloper(ana);
      expect(await credentials.developerIdByIdentity(issuer, 'sub-1')).toBeUndefined();
    });
  });
}

describePortalRepositoryContract('SQLite', async () => {
  const db: Db = openDatabase(':memory:');
  const accounts = createSqliteAccountRepository(db);
  return {
    sessions: createSqliteSessionRepository(db),
    tokens: createSqliteTokenRepository(db),
    credentials: createSqliteCredentialRepository(db),
    developers: await twoDevelopers(accounts),
    async deleteDeveloper(id) {
      await accounts.deleteDeveloper(id);
    },
    close: () => {
      db.close();
    },
  };
});

describeWith(['postgres'], 'the portal repositories on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  describePortalRepositoryContract('PostgreSQL', async () => {
    const database = await databases.migrated();
    const db = database.open();
    const accounts = createPostgresAccountRepository(db);
    return {
      sessions: createPostgresSessionRepository(db),
      tokens: createPostgresTokenRepository(db),
      credentials: createPostgresCredentialRepository(db),
      developers: await twoDevelopers(accounts),
      async deleteDeveloper(id) {
        await accounts.deleteDeveloper(id);
      },
      close: () => database.close(),
    };
  });
});

async function twoDevelopers(accounts: AccountRepository): Promise<[number, number]> {
  const developer = async (email: string) =>
    (await accounts.insertDeveloper({ name: email, email, emailVerifiedAt: null, createdAt: t0 }))!.id;
  return [await developer('ana@example.org'), await developer('bo@example.org')];
}
