// The session repository over SQLite: statements prepared once, ids stored only as hashes.
import type { Db } from '../../db/open.ts';
import type { SessionRepository, StoredSession } from './session-repository.ts';

interface SessionRow {
  data: string;
  developer_id: number | null;
  expires_at: string;
}

export function createSqliteSessionRepository(db: Db): SessionRepository {
  const statements = {
    find: db.prepare<[string, string], SessionRow>(
      'SELECT data, developer_id, expires_at FROM portal_sessions WHERE id_hash = ? AND expires_at > ?',
    ),
    save: db.prepare<[string, number | null, string, string]>(
      `INSERT INTO portal_sessions (id_hash, developer_id, data, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id_hash) DO UPDATE SET developer_id = excluded.developer_id, data = excluded.data, expires_at = excluded.expires_at`,
    ),
    touch: db.prepare<[string, string]>('UPDATE portal_sessions SET expires_at = ? WHERE id_hash = ?'),
    delete: db.prepare<[string]>('DELETE FROM portal_sessions WHERE id_hash = ?'),
    deleteForDeveloper: db.prepare<[number, string]>('DELETE FROM portal_sessions WHERE developer_id = ? AND id_hash <> ?'),
    deleteExpired: db.prepare<[string]>('DELETE FROM portal_sessions WHERE expires_at <= ?'),
  };
  return {
    async find(idHash, now) {
      const row = statements.find.get(idHash, now);
      return row ? toSession(row) : undefined;
    },
    async save(idHash, session) {
      statements.save.run(idHash, session.developerId, session.data, session.expiresAt);
    },
    async touch(idHash, expiresAt) {
      statements.touch.run(expiresAt, idHash);
    },
    async delete(idHash) {
      statements.delete.run(idHash);
    },
    async deleteForDeveloper(developerId, exceptIdHash = '') {
      return statements.deleteForDeveloper.run(developerId, exceptIdHash).changes;
    },
    async deleteExpired(now) {
      return statements.deleteExpired.run(now).changes;
    },
  };
}

function toSession(row: SessionRow): StoredSession {
  return { data: row.data, developerId: row.developer_id, expiresAt: row.expires_at };
}
