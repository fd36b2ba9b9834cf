// The one-time token repository over PostgreSQL: single use through one UPDATE … RETURNING, across every instance.
import type { PostgresDatabase } from '../../db/postgres/database.ts';
import type { TokenRepository } from './token-repository.ts';

export function createPostgresTokenRepository(db: PostgresDatabase): TokenRepository {
  return {
    async insert(token) {
      await db.run('INSERT INTO one_time_tokens (token_hash, purpose, developer_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
        token.tokenHash,
        token.purpose,
        token.developerId,
        token.createdAt,
        token.expiresAt,
      ]);
    },
    async peek(tokenHash, purpose, now) {
      const [row] = await db.rows<{ developer_id: number }>(
        'SELECT developer_id FROM one_time_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3',
        [tokenHash, purpose, now],
      );
      return row?.developer_id;
    },
    async consume(tokenHash, purpose, now) {
      // One statement: a second use waits for the first one's row lock, then finds used_at set and changes nothing.
      const [row] = await db.rows<{ developer_id: number }>(
        `UPDATE one_time_tokens SET used_at = $1
         WHERE token_hash = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $1
         RETURNING developer_id`,
        [now, tokenHash, purpose],
      );
      return row?.developer_id;
    },
    async deleteForDeveloper(developerId, purpose) {
      return db.run('DELETE FROM one_time_tokens WHERE developer_id = $1 AND purpose = $2', [developerId, purpose]);
    },
    async deleteExpired(now) {
      return db.run('DELETE FROM one_time_tokens WHERE expires_at <= $1', [now]);
    },
  };
}
