// The outgoing mail queue over SQLite: the sender's statements never wait for another connection's lock (they fail and are retried).

import { BOUND_LIMIT } from '../../db/bound-parameters.ts';
import type { Db } from '../../db/open.ts';
import { withoutWaiting } from '../../db/without-waiting.ts';
import type { MailCounts, MailKind, MailRepository } from './mail-repository.ts';
import { type ClaimedRow, toClaimed } from './mail-rows.ts';
import type { TokenInsert } from './token-repository.ts';

/**
 * Only `enqueue` runs on a request path (as any portal write does); every other statement is the
 * background sender's and runs without waiting (withoutWaiting): a lock held elsewhere fails it
 * with SQLITE_BUSY at once, and the sender tries again later, so it never stalls the event loop.
 */
export function createSqliteMailRepository(db: Db): MailRepository {
  const statements = {
    enqueue: db.prepare<[MailKind, string, string, string]>(
      "INSERT INTO outgoing_mail (kind, recipient, status, created_at, next_attempt_at) VALUES (?, ?, 'pending', ?, ?)",
    ),
    // One statement: two senders cannot claim one row.
    claimDue: db.prepare<[string, string, string, number], ClaimedRow>(
      `UPDATE outgoing_mail SET claimed_until = ?, attempts = attempts + 1
       WHERE id IN (SELECT id FROM outgoing_mail
                    WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                    ORDER BY id ${BOUND_LIMIT})
       RETURNING id, kind, recipient, sealed_message, attempts, created_at`,
    ),
    // Polls are reads (never blocked by a writer in WAL mode); only a poll that finds work writes.
    anyDue: db.prepare<[string, string], { id: number }>(
      "SELECT id FROM outgoing_mail WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) LIMIT 1",
    ),
    saveMessage: db.prepare<[string, number]>('UPDATE outgoing_mail SET sealed_message = ? WHERE id = ?'),
    deleteTokens: db.prepare<[number, string]>('DELETE FROM one_time_tokens WHERE developer_id = ? AND purpose = ?'),
    insertToken: db.prepare<[string, string, number, string, string]>(
      'INSERT INTO one_time_tokens (token_hash, purpose, developer_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    markSent: db.prepare<[string, number]>(
      "UPDATE outgoing_mail SET status = 'sent', sealed_message = NULL, claimed_until = NULL, finished_at = ?, last_error = NULL WHERE id = ?",
    ),
    markFailed: db.prepare<[string, string, number]>(
      "UPDATE outgoing_mail SET status = 'failed', sealed_message = NULL, claimed_until = NULL, finished_at = ?, last_error = ? WHERE id = ?",
    ),
    retryLater: db.prepare<[string, string, number]>(
      'UPDATE outgoing_mail SET claimed_until = NULL, next_attempt_at = ?, last_error = ? WHERE id = ?',
    ),
    release: db.prepare<[number]>('UPDATE outgoing_mail SET claimed_until = NULL, attempts = max(attempts - 1, 0) WHERE id = ?'),
    delete: db.prepare<[number]>('DELETE FROM outgoing_mail WHERE id = ?'),
    deleteFinishedBefore: db.prepare<[string]>("DELETE FROM outgoing_mail WHERE status <> 'pending' AND finished_at < ?"),
    counts: db.prepare<[], { status: keyof MailCounts; n: number }>('SELECT status, count(*) AS n FROM outgoing_mail GROUP BY status'),
  };
  const saveComposed = db.transaction((id: number, sealedMessage: string, token: TokenInsert | undefined) => {
    if (token) {
      statements.deleteTokens.run(token.developerId, token.purpose);
      statements.insertToken.run(token.tokenHash, token.purpose, token.developerId, token.createdAt, token.expiresAt);
    }
    statements.saveMessage.run(sealedMessage, id);
  });
  const release = db.transaction((ids: readonly number[]) => {
    for (const id of ids) statements.release.run(id);
  });
  const background = <T>(work: () => T): Promise<T> => Promise.resolve().then(() => withoutWaiting(db, work));

  return {
    async enqueue(kind, recipient, now) {
      statements.enqueue.run(kind, recipient, now, now);
    },
    claimDue(now, claimUntil, limit) {
      if (statements.anyDue.get(now, now) === undefined) return Promise.resolve([]);
      return background(() =>
        statements.claimDue
          .all(claimUntil, now, now, limit)
          .map(toClaimed)
          .sort((a, b) => a.id - b.id),
      );
    },
    saveComposed(id, sealedMessage, token) {
      return background(() => saveComposed.immediate(id, sealedMessage, token));
    },
    async markSent(id, now) {
      await background(() => statements.markSent.run(now, id));
    },
    async markFailed(id, now, error) {
      await background(() => statements.markFailed.run(now, error, id));
    },
    async retryLater(id, nextAttemptAt, error) {
      await background(() => statements.retryLater.run(nextAttemptAt, error, id));
    },
    async release(ids) {
      await background(() => release(ids));
    },
    async delete(id) {
      await background(() => statements.delete.run(id));
    },
    deleteFinishedBefore(time) {
      return background(() => statements.deleteFinishedBefore.run(time).changes);
    },
    async counts() {
      const counts = { pending: 0, sent: 0, failed: 0 };
      for (const row of statements.counts.all()) counts[row.status] = row.n;
      return counts;
    },
  };
}
