// The session repository over PostgreSQL: the statements of sqlite-session-repository.ts, ids stored only as hashes.
import type { PostgresDatabase } from '../../db/postgres/database.ts';
import type { SessionRepository, StoredSession } from './session-repository.ts';

interface SessionRow {
  data: string;
  developer_id: number | null;
  expires_at: string;
}

export function createPostgresSessionRepository(db: PostgresDatabase): SessionRepository {
  return {
    async find(idHash, now) {
      const [row] = await db.rows<SessionRow>(
        'SELECT data, developer_id, expires_at FROM portal_sessions WHERE id_hash = $1 AND expires_at > $2',
        [idHash, now],
      );
      return row ? toSession(row) : undefined;
    },
    async save(idHash, session) {
      await db.run(
        `INSERT INTO portal_sessions (id_hash, developer_id, data, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id_hash) DO UPDATE SET developer_id = excluded.developer_id, data = excluded.data, expires_at = excluded.expires_at`,
        [idHash, session.developerId, session.data, session.expiresAt],
      );
    },
    async touch(idHash, expiresAt) {
      await db.run('UPDATE portal_sessions SET expires_at = $1 WHERE id_hash = $2', [expiresAt, idHash]);
    },
    async delete(idHash) {
      await db.run('DELETE FROM portal_sessions WHERE id_hash = $1', [idHash]);
    },
    async deleteForDeveloper(developerId, exceptIdHash = '') {
      return db.run('DELETE FROM portal_sessions WHERE developer_id = $1 AND id_hash <> $2', [developerId, exceptIdHash]);
    },
    async deleteExpired(now) {
      return db.run('DELETE FROM portal_sessions WHERE expires_at <= $1', [now]);
    },
  };
}

function toSession(row: SessionRow): StoredSession {
  return { data: row.data, developerId: row.developer_id, expiresAt: row.expires_at };
}
