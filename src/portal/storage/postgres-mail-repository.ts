// The outgoing mail queue over PostgreSQL, shared by every instance: rows are claimed with FOR UPDATE SKIP LOCKED.
import type { PostgresDatabase } from '../../db/postgres/database.ts';
import type { MailCounts, MailRepository } from './mail-repository.ts';
import { type ClaimedRow, toClaimed } from './mail-rows.ts';

export function createPostgresMailRepository(db: PostgresDatabase): MailRepository {
  return {
    async enqueue(kind, recipient, now) {
      await db.run("INSERT INTO outgoing_mail (kind, recipient, status, created_at, next_attempt_at) VALUES ($1, $2, 'pending', $3, $3)", [
        kind,
        recipient,
        now,
      ]);
    },
    async claimDue(now, claimUntil, limit) {
      // SKIP LOCKED: two instances claiming at once take different rows instead of waiting for each other.
      const rows = await db.rows<ClaimedRow>(
        `UPDATE outgoing_mail SET claimed_until = $1, attempts = attempts + 1
         WHERE id IN (SELECT id FROM outgoing_mail
                      WHERE status = 'pending' AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2)
                      ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, kind, recipient, sealed_message, attempts, created_at`,
        [claimUntil, now, limit],
      );
      return rows.map(toClaimed).sort((a, b) => a.id - b.id);
    },
    async saveComposed(id, sealedMessage, token) {
      await db.transaction(async (tx) => {
        if (token) {
          await tx.run('DELETE FROM one_time_tokens WHERE developer_id = $1 AND purpose = $2', [token.developerId, token.purpose]);
          await tx.run(
            'INSERT INTO one_time_tokens (token_hash, purpose, developer_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
            [token.tokenHash, token.purpose, token.developerId, token.createdAt, token.expiresAt],
          );
        }
        await tx.run('UPDATE outgoing_mail SET sealed_message = $1 WHERE id = $2', [sealedMessage, id]);
      });
    },
    async markSent(id, now) {
      await db.run(
        "UPDATE outgoing_mail SET status = 'sent', sealed_message = NULL, claimed_until = NULL, finished_at = $1, last_error = NULL WHERE id = $2",
        [now, id],
      );
    },
    async markFailed(id, now, error) {
      await db.run(
        "UPDATE outgoing_mail SET status = 'failed', sealed_message = NULL, claimed_until = NULL, finished_at = $1, last_error = $2 WHERE id = $3",
        [now, error, id],
      );
    },
    async retryLater(id, nextAttemptAt, error) {
      await db.run('UPDATE outgoing_mail SET claimed_until = NULL, next_attempt_at = $1, last_error = $2 WHERE id = $3', [
        nextAttemptAt,
        error,
        id,
      ]);
    },
    async release(ids) {
      if (ids.length === 0) return;
      await db.run('UPDATE outgoing_mail SET claimed_until = NULL, attempts = greatest(attempts - 1, 0) WHERE id = ANY($1::bigint[])', [
        [...ids],
      ]);
    },
    async delete(id) {
      await db.run('DELETE FROM outgoing_mail WHERE id = $1', [id]);
    },
    deleteFinishedBefore(time) {
      return db.run("DELETE FROM outgoing_mail WHERE status <> 'pending' AND finished_at < $1", [time]);
    },
    async counts() {
      const counts: MailCounts = { pending: 0, sent: 0, failed: 0 };
      for (const row of await db.rows<{ status: keyof MailCounts; n: number }>(
        'SELECT status, count(*) AS n FROM outgoing_mail GROUP BY status',
      )) {
        counts[row.status] = row.n;
      }
      return counts;
    },
  };
}
