// The outgoing mail queue's contract, written once against the interface and run on SQLite and PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresAccountRepository } from '../../../src/accounts/postgres-repository.ts';
import type { AccountRepository } from '../../../src/accounts/repository.ts';
import { createSqliteAccountRepository } from '../../../src/accounts/sqlite-repository.ts';
import { openDatabase } from '../../../src/db/open.ts';
import type { MailRepository } from '../../../src/portal/storage/mail-repository.ts';
import { createPostgresMailRepository } from '../../../src/portal/storage/postgres-mail-repository.ts';
import { createPostgresTokenRepository } from '../../../src/portal/storage/postgres-token-repository.ts';
import { createSqliteMailRepository } from '../../../src/portal/storage/sqlite-mail-repository.ts';
import { createSqliteTokenRepository } from '../../../src/portal/storage/sqlite-token-repository.ts';
import type { TokenRepository } from '../../../src/portal/storage/token-repository.ts';
import { usePostgresDatabases } from '../../helpers/postgres-databases.ts';
import { describeWith } from '../../helpers/requirements.ts';

interface QueueUnderTest {
  mail: MailRepository;
  /** The same queue through another connection (another instance). */
  openAnother(): MailRepository;
  tokens: TokenRepository;
  developer: number;
  close(): void | Promise<void>;
}

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();
const hash = (n: number) => n.toString(16).padStart(64, '0');

function describeMailRepositoryContract(name: string, create: () => Promise<QueueUnderTest>): void {
  describe(`outgoing mail queue: ${name}`, () => {
    let queue: QueueUnderTest;
    beforeEach(async () => {
      queue = await create();
    });
    afterEach(() => queue.close());

    it('hands out due rows oldest first, each to one claimer until its claim runs out, counting attempts', async () => {
      const { mail } = queue;
      await mail.enqueue('reset-password', 'a@example.org', at(0));
      await mail.enqueue('verify-email', 'b@example.org', at(1));
      await mail.enqueue('account-exists', 'c@example.org', at(2));
      expect(await mail.claimDue(at(0), at(5), 10)).toEqual([expect.objectContaining({ recipient: 'a@example.org' })]);
      const claimed = await queue.openAnother().claimDue(at(3), at(5), 1);
      expect(claimed).toEqual([
        { id: expect.any(Number), kind: 'verify-email', recipient: 'b@example.org', sealedMessage: null, attempts: 1, createdAt: at(1) },
      ]);
      expect((await mail.claimDue(at(3), at(5), 10)).map((row) => row.recipient)).toEqual(['c@example.org']);
      expect(await mail.claimDue(at(4), at(9), 10)).toEqual([]);
      // Their claims ran out (a sender died): taken again, a second attempt counted.
      const again = await mail.claimDue(at(5), at(9), 10);
      expect(again.map((row) => [row.recipient, row.attempts])).toEqual([
        ['a@example.org', 2],
        ['b@example.org', 2],
        ['c@example.org', 2],
      ]);
      expect(await mail.counts()).toEqual({ pending: 3, sent: 0, failed: 0 });
    });

    it('never gives one row to two claimers at once', async () => {
      for (let i = 0; i < 20; i++) await queue.mail.enqueue('reset-password', `r${i}@example.org`, at(0));
      const claimers = [queue.mail, queue.openAnother(), queue.openAnother()];
      const claims = await Promise.all(claimers.flatMap((claimer) => [1, 2, 3].map(() => claimer.claimDue(at(1), at(9), 3))));
      const ids = claims.flat().map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(20);
    });

    it('stores a composed message with its link token in one step, older tokens of the purpose gone', async () => {
      const { mail, tokens, developer } = queue;
      await tokens.insert({ tokenHash: hash(1), purpose: 'reset-password', developerId: developer, createdAt: at(0), expiresAt: at(60) });
      await mail.enqueue('reset-password', 'ana@example.org', at(0));
      const [row] = await mail.claimDue(at(0), at(5), 1);
      const token = { tokenHash: hash(2), purpose: 'reset-password' as const, developerId: developer, createdAt: at(1), expiresAt: at(61) };
      await mail.saveComposed(row.id, 'sealed-text', token);
      expect(await tokens.peek(hash(1), 'reset-password', at(2))).toBeUndefined();
      expect(await tokens.peek(hash(2), 'reset-password', at(2))).toBe(developer);
      await mail.retryLater(row.id, at(10), 'greeting never received');
      expect(await mail.claimDue(at(9), at(20), 1)).toEqual([]);
      const [retried] = await mail.claimDue(at(10), at(20), 1);
      expect(retried).toMatchObject({ id: row.id, sealedMessage: 'sealed-text', attempts: 2 });
    });

    it('records sent and failed rows without their message, releases claims uncounted, deletes and sweeps', async () => {
      const { mail } = queue;
      for (const recipient of ['s@example.org', 'f@example.org', 'r@example.org', 'd@example.org']) {
        await mail.enqueue('verify-email', recipient, at(0));
      }
      const [sent, failed, released, dropped] = await mail.claimDue(at(0), at(5), 4);
      await mail.saveComposed(sent.id, 'sealed', undefined);
      await mail.markSent(sent.id, at(1));
      await mail.markFailed(failed.id, at(2), 'mailbox unavailable');
      await mail.release([released.id]);
      await mail.delete(dropped.id);
      expect(await mail.counts()).toEqual({ pending: 1, sent: 1, failed: 1 });
      // Released: due at once, that attempt not counted; the finished ones are never handed out again.
      expect(await mail.claimDue(at(1), at(9), 10)).toEqual([expect.objectContaining({ id: released.id, attempts: 1 })]);
      expect(await mail.deleteFinishedBefore(at(2))).toBe(1);
      expect(await mail.counts()).toEqual({ pending: 1, sent: 0, failed: 1 });
    });
  });
}

async function oneDeveloper(accounts: AccountRepository): Promise<number> {
  return (await accounts.insertDeveloper({ name: 'Ana', email: 'ana@example.org', emailVerifiedAt: at(0), createdAt: at(0) }))!.id;
}

describeMailRepositoryContract('SQLite', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'church-api-mail-'));
  const file = path.join(dir, 'church.sqlite');
  const db = openDatabase(file);
  const others: ReturnType<typeof openDatabase>[] = [];
  return {
    mail: createSqliteMailRepository(db),
    openAnother() {
      const other = openDatabase(file);
      others.push(other);
      return createSqliteMailRepository(other);
    },
    tokens: createSqliteTokenRepository(db),
    developer: await oneDeveloper(createSqliteAccountRepository(db)),
    async close() {
      for (const other of others) other.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeWith(['postgres'], 'the outgoing mail queue on PostgreSQL', () => {
  const databases = usePostgresDatabases();
  describeMailRepositoryContract('PostgreSQL', async () => {
    const database = await databases.migrated();
    const db = database.open();
    return {
      mail: createPostgresMailRepository(db),
      openAnother: () => createPostgresMailRepository(database.open()),
      tokens: createPostgresTokenRepository(db),
      developer: await oneDeveloper(createPostgresAccountRepository(db)),
      close: () => database.close(),
    };
  });
});
