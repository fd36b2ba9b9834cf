// The one-time token repository over SQLite: single use through one UPDATE … RETURNING.
import type { Db } from '../../db/open.ts';
import type { TokenPurpose, TokenRepository } from './token-repository.ts';

export function createSqliteTokenRepository(db: Db): TokenRepository {
  const statements = {
    insert: db.prepare<[string, TokenPurpose, number, string, string]>(
      'INSERT INTO one_time_tokens (token_hash, purpose, developer_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    peek: db.prepare<[string, TokenPurpose, string], { developer_id: number }>(
      'SELECT developer_id FROM one_time_tokens WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?',
    ),
    // One statement: the check and the mark cannot be split by another request.
    consume: db.prepare<[string, string, TokenPurpose, string], { developer_id: number }>(
      `UPDATE one_time_tokens SET used_at = ?
       WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
       RETURNING developer_id`,
    ),
    deleteForDeveloper: db.prepare<[number, TokenPurpose]>('DELETE FROM one_time_tokens WHERE developer_id = ? AND purpose = ?'),
    deleteExpired: db.prepare<[string]>('DELETE FROM one_time_tokens WHERE expires_at <= ?'),
  };
  return {
    async insert(token) {
      statements.insert.run(token.tokenHash, token.purpose, token.developerId, token.createdAt, token.expiresAt);
    },
    async peek(tokenHash, purpose, now) {
      return statements.peek.get(tokenHash, purpose, now)?.developer_id;
    },
    async consume(tokenHash, purpose, now) {
      return statements.consume.get(now, tokenHash, purpose, now)?.developer_id;
    },
    async deleteForDeveloper(developerId, purpose) {
      return statements.deleteForDeveloper.run(developerId, purpose).changes;
    },
    async deleteExpired(now) {
      return statements.deleteExpired.run(now).changes;
    },
  };
}
