// The credential repository over SQLite: password hashes and identity links, statements prepared once.
import type { Db } from '../../db/open.ts';
import type { CredentialRepository } from './credential-repository.ts';

export function createSqliteCredentialRepository(db: Db): CredentialRepository {
  const statements = {
    passwordHash: db.prepare<[number], { password_hash: string }>('SELECT password_hash FROM developer_passwords WHERE developer_id = ?'),
    setPasswordHash: db.prepare<[number, string, string]>(
      `INSERT INTO developer_passwords (developer_id, password_hash, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (developer_id) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`,
    ),
    developerIdByIdentity: db.prepare<[string, string], { developer_id: number }>(
      'SELECT developer_id FROM developer_identities WHERE issuer = ? AND subject = ?',
    ),
    linkIdentity: db.prepare<[string, string, number, string]>(
      'INSERT OR IGNORE INTO developer_identities (issuer, subject, developer_id, linked_at) VALUES (?, ?, ?, ?)',
    ),
  };
  return {
    async passwordHash(developerId) {
      return statements.passwordHash.get(developerId)?.password_hash;
    },
    async setPasswordHash(developerId, passwordHash, updatedAt) {
      statements.setPasswordHash.run(developerId, passwordHash, updatedAt);
    },
    async developerIdByIdentity(issuer, subject) {
      return statements.developerIdByIdentity.get(issuer, subject)?.developer_id;
    },
    async linkIdentity(link) {
      return statements.linkIdentity.run(link.issuer, link.subject, link.developerId, link.linkedAt).changes > 0;
    },
  };
}
