// The credential repository over PostgreSQL: password hashes and identity links, as sqlite-credential-repository.ts.
import type { PostgresDatabase } from '../../db/postgres/database.ts';
import type { CredentialRepository } from './credential-repository.ts';

export function createPostgresCredentialRepository(db: PostgresDatabase): CredentialRepository {
  return {
    async passwordHash(developerId) {
      const [row] = await db.rows<{ password_hash: string }>('SELECT password_hash FROM developer_passwords WHERE developer_id = $1', [
        developerId,
      ]);
      return row?.password_hash;
    },
    async setPasswordHash(developerId, passwordHash, updatedAt) {
      await db.run(
        `INSERT INTO developer_passwords (developer_id, password_hash, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (developer_id) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`,
        [developerId, passwordHash, updatedAt],
      );
    },
    async developerIdByIdentity(issuer, subject) {
      const [row] = await db.rows<{ developer_id: number }>(
        'SELECT developer_id FROM developer_identities WHERE issuer = $1 AND subject = $2',
        [issuer, subject],
      );
      return row?.developer_id;
    },
    async linkIdentity(link) {
      const changed = await db.run(
        'INSERT INTO developer_identities (issuer, subject, developer_id, linked_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
        [link.issuer, link.subject, link.developerId, link.linkedAt],
      );
      return changed > 0;
    },
  };
}
