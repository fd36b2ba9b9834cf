// The NOTIFY channel of church data: every writer of church rows notifies it in its transaction; instances keeping church records listen.
import type { SqlRunner } from './database.ts';

/** Listened to by src/church/postgres/public-church-cache.ts; written by the import and the SQLite → PostgreSQL copy. */
export const CHURCH_DATA_CHANNEL = 'church_data_changed';

/**
 * Notifies every listening instance that church data changed. Call it inside the writing
 * transaction: PostgreSQL delivers the notification when that transaction commits (never for a
 * rollback), once however many times it was sent. Whoever changes church rows by other means (an
 * operator's own SQL) sends `NOTIFY church_data_changed` in the same transaction, or restarts the
 * instances, else they keep serving the records they read before.
 */
export async function notifyChurchDataChanged(tx: SqlRunner): Promise<void> {
  await tx.rows('SELECT pg_notify($1, $2)', [CHURCH_DATA_CHANNEL, '']);
}
