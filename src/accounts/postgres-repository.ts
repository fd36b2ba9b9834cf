// The account repository over PostgreSQL: the guarantees of sqlite-repository.ts, held across every instance sharing the database.
import type { PostgresDatabase, SqlRunner } from '../db/postgres/database.ts';
import { type AccountRepository, LAST_USED_INTERVAL_MS } from './repository.ts';
import {
  type ApiKeyRow,
  DEVELOPER_COLUMNS,
  type DeveloperListingRow,
  type DeveloperRow,
  KEY_COLUMNS,
  toDeveloper,
  toDeveloperListing,
  toKeyRecord,
} from './rows.ts';
import type { ActiveKey } from './types.ts';

/**
 * Creates the repository over a migrated database. Nothing about a key's validity is cached:
 * every authentication asks the database (one prepared statement, one round trip, shared by the
 * requests that arrived in the same turn of the event loop), so a revocation on one instance holds
 * on all at once.
 */
export function createPostgresAccountRepository(db: PostgresDatabase): AccountRepository {
  const lastUsed = createLastUsedWriter(db);
  const activeKeys = createActiveKeyLookup(db);

  const developerById = async (runner: SqlRunner, id: number, lock = false) => {
    const [row] = await runner.rows<DeveloperRow>(`SELECT ${DEVELOPER_COLUMNS} FROM developers WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [
      id,
    ]);
    return row;
  };

  return {
    async insertDeveloper(developer) {
      // The unique index on lower(email) decides a race between instances: the loser inserts nothing.
      const [row] = await db.rows<DeveloperRow>(
        `INSERT INTO developers (name, email, email_verified_at, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING ${DEVELOPER_COLUMNS}`,
        [developer.name, developer.email, developer.emailVerifiedAt, developer.createdAt],
      );
      return row ? toDeveloper(row) : undefined;
    },

    async developerById(id) {
      const row = await developerById(db, id);
      return row ? toDeveloper(row) : undefined;
    },

    async developerByEmail(email) {
      const [row] = await db.rows<DeveloperRow>(`SELECT ${DEVELOPER_COLUMNS} FROM developers WHERE lower(email) = lower($1)`, [email]);
      return row ? toDeveloper(row) : undefined;
    },

    async updateDeveloperName(developerId, name) {
      const [row] = await db.rows<DeveloperRow>(`UPDATE developers SET name = $1 WHERE id = $2 RETURNING ${DEVELOPER_COLUMNS}`, [
        name,
        developerId,
      ]);
      return row ? toDeveloper(row) : undefined;
    },

    async listDevelopers() {
      const rows = await db.rows<DeveloperListingRow>(
        `SELECT ${DEVELOPER_COLUMNS},
                (SELECT count(*) FROM api_keys k WHERE k.developer_id = developers.id AND k.revoked_at IS NULL) AS active_keys
         FROM developers ORDER BY created_at, id`,
      );
      return rows.map(toDeveloperListing);
    },

    async markEmailVerified(developerId, verifiedAt) {
      // coalesce keeps the first time; RETURNING answers for a known developer either way.
      const [row] = await db.rows<DeveloperRow>(
        `UPDATE developers SET email_verified_at = coalesce(email_verified_at, $1) WHERE id = $2 RETURNING ${DEVELOPER_COLUMNS}`,
        [verifiedAt, developerId],
      );
      return row ? toDeveloper(row) : undefined;
    },

    async deleteDeveloper(developerId) {
      const result = await db.transaction(async (tx) => {
        const row = await developerById(tx, developerId, true);
        if (!row) return undefined;
        const keys = await tx.rows<{ id: number; revoked_at: string | null }>(
          'SELECT id, revoked_at FROM api_keys WHERE developer_id = $1',
          [developerId],
        );
        // ON DELETE CASCADE removes the developer's keys in the same statement.
        await tx.run('DELETE FROM developers WHERE id = $1', [developerId]);
        return {
          developer: toDeveloper(row),
          revokedKeys: keys.filter((key) => key.revoked_at === null).length,
          keyIds: keys.map((key) => key.id),
        };
      });
      return result && { developer: result.developer, revokedKeys: result.revokedKeys };
    },

    async insertKeyIfActiveBelow(developerId, limit, key) {
      return db.transaction(async (tx) => {
        // The developer's row lock queues concurrent inserts for one developer, on every instance, behind each other:
        // each counts only after the previous one committed, so together they cannot pass the limit.
        await developerById(tx, developerId, true);
        const [{ n }] = await tx.rows<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE developer_id = $1 AND revoked_at IS NULL', [
          developerId,
        ]);
        if (n >= limit) return undefined;
        const [row] = await tx.rows<ApiKeyRow>(
          `INSERT INTO api_keys (developer_id, name, fingerprint, hint, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${KEY_COLUMNS}`,
          [developerId, key.name, key.fingerprint, key.hint, key.createdAt],
        );
        return toKeyRecord(row);
      });
    },

    async listKeys(developerId) {
      const rows = await db.rows<ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE developer_id = $1 ORDER BY created_at DESC, id DESC`,
        [developerId],
      );
      return rows.map(toKeyRecord);
    },

    async revokeKey(developerId, keyId, revokedAt) {
      // coalesce keeps the first revocation time.
      const [row] = await db.rows<ApiKeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 AND developer_id = $3 RETURNING ${KEY_COLUMNS}`,
        [revokedAt, keyId, developerId],
      );
      if (!row) return undefined;
      return toKeyRecord(row);
    },

    activeKeyByFingerprint: activeKeys.lookup,

    // Called at most once a minute per key by key auth (src/keys/auth.ts); the UPDATE's time guard holds across instances.
    async markUsed(keyId, when) {
      return lastUsed.write(keyId, when);
    },

    async isReservedMatch(matchKey) {
      const rows = await db.rows('SELECT 1 FROM reserved_emails WHERE match_key = $1 LIMIT 1', [matchKey]);
      return rows.length > 0;
    },

    async addReservedEmails(entries, matchRules, importedAt) {
      // One statement: all or none; an address already listed (in any letter case) is skipped.
      return db.run(
        `INSERT INTO reserved_emails (email, match_key, imported_at, match_rules)
         SELECT email, match_key, $3, $4 FROM unnest($1::text[], $2::text[]) AS entry (email, match_key)
         ON CONFLICT DO NOTHING`,
        [entries.map((entry) => entry.email), entries.map((entry) => entry.matchKey), importedAt, matchRules],
      );
    },

    async reservedEmailsKeyedOtherwise(matchRules) {
      const rows = await db.rows<{ email: string }>(
        'SELECT email FROM reserved_emails WHERE match_rules IS NULL OR match_rules <> $1 ORDER BY email',
        [matchRules],
      );
      return rows.map((row) => row.email);
    },

    async setReservedMatchKeys(entries, matchRules) {
      await db.run(
        `UPDATE reserved_emails SET match_key = entry.match_key, match_rules = $3
         FROM unnest($1::text[], $2::text[]) AS entry (email, match_key) WHERE reserved_emails.email = entry.email`,
        [entries.map((entry) => entry.email), entries.map((entry) => entry.matchKey), matchRules],
      );
    },
  };
}

/**
 * Key lookups, one statement per turn of the event loop: the fingerprints asked for during one turn
 * (the requests parsed from one read of the sockets) go in one prepared `= ANY($1)` query, sent in
 * the turn's check phase (setImmediate). Each lookup is answered by a query sent after it was asked,
 * never by one already on its way, so a key revoked before a request arrived is refused to it.
 * Under load this turns ten round trips into one; alone, a lookup waits only for the end of its turn.
 * It runs on the database's per-request pool, planned once per connection (PostgresDatabase.perRequest).
 */
function createActiveKeyLookup(db: PostgresDatabase) {
  type Found = ActiveKey | undefined;
  let asked = new Map<string, { resolve(found: Found): void; reject(error: unknown): void }[]>();
  let scheduled = false;

  const send = async () => {
    scheduled = false;
    const batch = asked;
    asked = new Map();
    try {
      const rows = await db.perRequest.rows<{ fingerprint: string; id: number; developer_id: number }>(
        'SELECT fingerprint, id, developer_id FROM api_keys WHERE fingerprint = ANY($1::text[]) AND revoked_at IS NULL',
        [[...batch.keys()]],
        'active-keys-by-fingerprint',
      );
      const found = new Map(rows.map((row) => [row.fingerprint, { id: row.id, developerId: row.developer_id }]));
      for (const [fingerprint, waiting] of batch) for (const { resolve } of waiting) resolve(found.get(fingerprint));
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  };

  return {
    lookup(fingerprint: string): Promise<Found> {
      return new Promise<Found>((resolve, reject) => {
        const waiting = asked.get(fingerprint);
        if (waiting) waiting.push({ resolve, reject });
        else asked.set(fingerprint, [{ resolve, reject }]);
        if (!scheduled) {
          scheduled = true;
          setImmediate(send);
        }
      });
    },
  };
}

/** Writes waiting for the batch in flight: past this many, a use is dropped (best effort), so a flood of keys cannot grow memory. */
const LAST_USED_PENDING_MAX = 10_000;

/**
 * "Last used" writes, batched: the uses that arrive while one UPDATE is in flight go together in
 * the next (one statement for any number of keys), so under load the database sees one write per
 * round trip, not one per key. Pending uses are bounded (LAST_USED_PENDING_MAX; beyond, a use is
 * not recorded and its write answers false). The time guard in the statement holds across
 * instances: of all writes within a minute, one changes the row. A failed batch rejects each of
 * its writes (the caller logs it); nothing is retried.
 */
function createLastUsedWriter(db: PostgresDatabase) {
  interface Pending {
    when: Date;
    settle: { resolve(wrote: boolean): void; reject(error: unknown): void }[];
  }
  let pending = new Map<number, Pending>();
  let flushing = false;

  const flush = async () => {
    flushing = true;
    while (pending.size > 0) {
      const batch = pending;
      pending = new Map();
      const ids = [...batch.keys()];
      const times = ids.map((id) => batch.get(id)!.when);
      try {
        const written = await db.rows<{ id: number }>(
          `UPDATE api_keys SET last_used_at = used.at
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS used (id, at, threshold)
           WHERE api_keys.id = used.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at <= used.threshold)
           RETURNING api_keys.id`,
          [
            ids,
            times.map((when) => when.toISOString()),
            times.map((when) => new Date(when.getTime() - LAST_USED_INTERVAL_MS).toISOString()),
          ],
        );
        const changed = new Set(written.map((row) => row.id));
        for (const [id, { settle }] of batch) for (const { resolve } of settle) resolve(changed.has(id));
      } catch (error) {
        for (const { settle } of batch.values()) for (const { reject } of settle) reject(error);
      }
    }
    flushing = false;
  };

  return {
    write(keyId: number, when: Date): Promise<boolean> {
      const entry = pending.get(keyId);
      if (entry) {
        // One write per key and batch, reported to the call that queued it: this one joins it.
        if (when > entry.when) entry.when = when;
        return Promise.resolve(false);
      }
      if (pending.size >= LAST_USED_PENDING_MAX) return Promise.resolve(false);
      return new Promise<boolean>((resolve, reject) => {
        pending.set(keyId, { when, settle: [{ resolve, reject }] });
        if (!flushing) void flush();
      });
    },
  };
}
