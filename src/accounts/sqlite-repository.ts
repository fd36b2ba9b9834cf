// The account repository over SQLite: statements prepared once; keys found by fingerprint, never by value.
import type { Db } from '../db/open.ts';
import { withoutWaiting } from '../db/without-waiting.ts';
import type { Logger } from '../http/logger.ts';
import {
  type AccountRepository,
  type DeveloperInsert,
  type KeyInsert,
  LAST_USED_INTERVAL_MS,
  type ReservedEmailInsert,
} from './repository.ts';
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
import type { ActiveKey, ApiKeyRecord, DeletedDeveloper, Developer } from './types.ts';

interface ActiveKeyRow {
  id: number;
  developer_id: number;
}

export interface SqliteAccountRepositoryOptions {
  /** Where a "last used" write that could not be made (database locked) is reported, at most once a minute. */
  logger?: Logger;
}

/** How long a "last used" write that met a lock waits before it is tried again. */
const LAST_USED_RETRY_MS = 1_000;

/** Creates the repository over an open, migrated database. */
export function createSqliteAccountRepository(db: Db, { logger }: SqliteAccountRepositoryOptions = {}): AccountRepository {
  const statements = prepareStatements(db);
  const lastUsed = createLastUsedWriter(db, statements, logger);
  const activeKeys = createActiveKeyLookup(statements);

  const insertDeveloper = db.transaction((developer: DeveloperInsert): Developer | undefined => {
    // The address is UNIQUE (COLLATE NOCASE): the check and the insert share the write lock.
    if (statements.developerByEmail.get(developer.email)) return undefined;
    const inserted = statements.insertDeveloper.run(developer.name, developer.email, developer.emailVerifiedAt, developer.createdAt);
    return toDeveloper(statements.developerById.get(Number(inserted.lastInsertRowid))!);
  });

  const insertKeyIfActiveBelow = db.transaction((developerId: number, limit: number, key: KeyInsert): ApiKeyRecord | undefined => {
    if ((statements.countActiveKeys.get(developerId) as number) >= limit) return undefined;
    const inserted = statements.insertKey.run(developerId, key.name, key.fingerprint, key.hint, key.createdAt);
    return toKeyRecord(statements.keyById.get(Number(inserted.lastInsertRowid))!);
  });

  const deleteDeveloper = db.transaction((developerId: number): { deleted: DeletedDeveloper; keyIds: number[] } | undefined => {
    const row = statements.developerById.get(developerId);
    if (!row) return undefined;
    const keys = statements.keysOfDeveloper.all(developerId);
    // ON DELETE CASCADE removes the developer's keys in the same statement.
    statements.deleteDeveloper.run(developerId);
    const revokedKeys = keys.filter((key) => key.revoked_at === null).length;
    return { deleted: { developer: toDeveloper(row), revokedKeys }, keyIds: keys.map((key) => key.id) };
  });

  const addReservedEmails = db.transaction((entries: readonly ReservedEmailInsert[], matchRules: string, importedAt: string): number => {
    let added = 0;
    for (const { email, matchKey } of entries) added += statements.insertReservedEmail.run(email, importedAt, matchKey, matchRules).changes;
    return added;
  });

  const setReservedMatchKeys = db.transaction((entries: readonly ReservedEmailInsert[], matchRules: string): void => {
    for (const { email, matchKey } of entries) statements.setReservedMatchKey.run(matchKey, matchRules, email);
  });

  return {
    async insertDeveloper(developer) {
      // IMMEDIATE: take the write lock before the address check, so another process cannot slip in between.
      return insertDeveloper.immediate(developer);
    },

    async developerById(id) {
      const row = statements.developerById.get(id);
      return row ? toDeveloper(row) : undefined;
    },

    async developerByEmail(email) {
      const row = statements.developerByEmail.get(email);
      return row ? toDeveloper(row) : undefined;
    },

    async updateDeveloperName(developerId, name) {
      statements.updateDeveloperName.run(name, developerId);
      const row = statements.developerById.get(developerId);
      return row ? toDeveloper(row) : undefined;
    },

    async listDevelopers() {
      return statements.listDevelopers.all().map(toDeveloperListing);
    },

    async markEmailVerified(developerId, verifiedAt) {
      statements.verifyDeveloper.run(verifiedAt, developerId);
      const row = statements.developerById.get(developerId);
      return row ? toDeveloper(row) : undefined;
    },

    async deleteDeveloper(developerId) {
      const result = deleteDeveloper.immediate(developerId);
      // Key ids can be reused once the rows are gone; a new key must not inherit an old "last used" time.
      for (const keyId of result?.keyIds ?? []) lastUsed.forget(keyId);
      return result?.deleted;
    },

    async insertKeyIfActiveBelow(developerId, limit, key) {
      // IMMEDIATE takes the write lock before counting, so two processes cannot both create the last allowed key.
      return insertKeyIfActiveBelow.immediate(developerId, limit, key);
    },

    async listKeys(developerId) {
      return statements.keysOfDeveloper.all(developerId).map(toKeyRecord);
    },

    async revokeKey(developerId, keyId, revokedAt) {
      statements.revokeKey.run(revokedAt, keyId, developerId);
      const row = statements.keyOfDeveloper.get(keyId, developerId);
      if (!row) return undefined;
      lastUsed.forget(keyId);
      return toKeyRecord(row);
    },

    activeKeyByFingerprint: activeKeys,

    // Called at most once a minute per key by key auth (src/keys/auth.ts); the statement's time guard holds across processes.
    async markUsed(keyId, when) {
      return lastUsed.write(keyId, when);
    },

    async isReservedMatch(matchKey) {
      return statements.reservedMatch.get(matchKey) !== undefined;
    },

    async addReservedEmails(entries, matchRules, importedAt) {
      return addReservedEmails(entries, matchRules, importedAt);
    },

    async reservedEmailsKeyedOtherwise(matchRules) {
      return statements.reservedKeyedOtherwise.all(matchRules);
    },

    async setReservedMatchKeys(entries, matchRules) {
      setReservedMatchKeys(entries, matchRules);
    },
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/**
 * Key lookups, one statement per turn of the event loop, as the PostgreSQL repository batches
 * them: the fingerprints asked for during one turn (the requests parsed from one read of the
 * sockets) are looked up together in the turn's check phase (setImmediate). Each statement is a
 * read transaction of its own (two `fcntl` locks): one per turn instead of one per request. Each
 * lookup is answered by a statement run after it was asked, so a key revoked before then is
 * refused; nothing remembers that a key is valid. A failed statement rejects every lookup of its
 * turn (SQLITE_BUSY: the storage's lock wait asks each again, in a later turn's statement).
 */
function createActiveKeyLookup(statements: Statements): (fingerprint: string) => Promise<ActiveKey | undefined> {
  type Found = ActiveKey | undefined;
  let asked = new Map<string, { resolve(found: Found): void; reject(error: unknown): void }[]>();

  const send = () => {
    const batch = asked;
    asked = new Map();
    let found: Map<string, ActiveKey>;
    try {
      found = new Map();
      if (batch.size === 1) {
        const fingerprint = batch.keys().next().value as string;
        const row = statements.activeKeyByFingerprint.get(fingerprint);
        if (row) found.set(fingerprint, { id: row.id, developerId: row.developer_id });
      } else {
        for (const row of statements.activeKeysByFingerprints.all(JSON.stringify([...batch.keys()])))
          found.set(row.fingerprint, { id: row.id, developerId: row.developer_id });
      }
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
      return;
    }
    for (const [fingerprint, waiting] of batch) for (const { resolve } of waiting) resolve(found.get(fingerprint));
  };

  return (fingerprint) =>
    new Promise<Found>((resolve, reject) => {
      if (asked.size === 0) setImmediate(send);
      const waiting = asked.get(fingerprint);
      if (waiting) waiting.push({ resolve, reject });
      else asked.set(fingerprint, [{ resolve, reject }]);
    });
}

/**
 * "Last used" is bookkeeping, never worth a wait: each write is tried without waiting for a lock
 * (busy timeout 0 for that statement only), so a writer in another process (an import, the CLI)
 * cannot stall the event loop. A write that meets the lock is kept and retried a second later
 * (the newest time per key), and the failure is logged at most once a minute. Never throws.
 */
function createLastUsedWriter(db: Db, statements: Statements, logger: Logger | undefined) {
  const pending = new Map<number, Date>();
  let retry: NodeJS.Timeout | undefined;
  let lastLogged = Number.NEGATIVE_INFINITY;

  const tryWrite = (keyId: number, when: Date): boolean | undefined => {
    const threshold = new Date(when.getTime() - LAST_USED_INTERVAL_MS).toISOString();
    try {
      return withoutWaiting(db, () => statements.markUsed.run(when.toISOString(), keyId, threshold).changes > 0);
    } catch (error) {
      if (Date.now() - lastLogged >= LAST_USED_INTERVAL_MS) {
        lastLogged = Date.now();
        logger?.warn({ err: error, keyId }, '"last used" not written (database busy); retrying in the background');
      }
      return undefined;
    }
  };

  const retryPending = () => {
    retry = undefined;
    if (!db.open) return;
    for (const [keyId, when] of pending) {
      if (tryWrite(keyId, when) === undefined) break;
      pending.delete(keyId);
    }
    schedule();
  };

  const schedule = () => {
    if (retry !== undefined || pending.size === 0) return;
    retry = setTimeout(retryPending, LAST_USED_RETRY_MS);
    retry.unref();
  };

  return {
    /** Whether it wrote now; false when another write within the interval made it unneeded or it was deferred. */
    write(keyId: number, when: Date): boolean {
      const wrote = tryWrite(keyId, when);
      if (wrote !== undefined) return wrote;
      pending.set(keyId, when);
      schedule();
      return false;
    },
    forget(keyId: number): void {
      pending.delete(keyId);
    },
  };
}

function prepareStatements(db: Db) {
  const statements = {
    insertDeveloper: db.prepare<[string, string, string | null, string]>(
      'INSERT INTO developers (name, email, email_verified_at, created_at) VALUES (?, ?, ?, ?)',
    ),
    developerByEmail: db.prepare<[string], DeveloperRow>(`SELECT ${DEVELOPER_COLUMNS} FROM developers WHERE email = ?`),
    developerById: db.prepare<[number], DeveloperRow>(`SELECT ${DEVELOPER_COLUMNS} FROM developers WHERE id = ?`),
    listDevelopers: db.prepare<[], DeveloperListingRow>(
      `SELECT ${DEVELOPER_COLUMNS},
              (SELECT count(*) FROM api_keys k WHERE k.developer_id = developers.id AND k.revoked_at IS NULL) AS active_keys
       FROM developers ORDER BY created_at, id`,
    ),
    verifyDeveloper: db.prepare<[string, number]>('UPDATE developers SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL'),
    updateDeveloperName: db.prepare<[string, number]>('UPDATE developers SET name = ? WHERE id = ?'),
    deleteDeveloper: db.prepare<[number]>('DELETE FROM developers WHERE id = ?'),
    reservedMatch: db.prepare<[string], { email: string }>('SELECT email FROM reserved_emails WHERE match_key = ? LIMIT 1'),
    insertReservedEmail: db.prepare<[string, string, string, string]>(
      'INSERT OR IGNORE INTO reserved_emails (email, imported_at, match_key, match_rules) VALUES (?, ?, ?, ?)',
    ),
    reservedKeyedOtherwise: db.prepare<[string], string>(
      'SELECT email FROM reserved_emails WHERE match_rules IS NULL OR match_rules <> ? ORDER BY email',
    ),
    setReservedMatchKey: db.prepare<[string, string, string]>('UPDATE reserved_emails SET match_key = ?, match_rules = ? WHERE email = ?'),
    countActiveKeys: db.prepare<[number], number>('SELECT count(*) FROM api_keys WHERE developer_id = ? AND revoked_at IS NULL'),
    insertKey: db.prepare<[number, string, string, string, string]>(
      'INSERT INTO api_keys (developer_id, name, fingerprint, hint, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    keyById: db.prepare<[number], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`),
    keysOfDeveloper: db.prepare<[number], ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE developer_id = ? ORDER BY created_at DESC, id DESC`,
    ),
    revokeKey: db.prepare<[string, number, number]>(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND developer_id = ? AND revoked_at IS NULL',
    ),
    keyOfDeveloper: db.prepare<[number, number], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ? AND developer_id = ?`),
    activeKeyByFingerprint: db.prepare<[string], ActiveKeyRow>(
      'SELECT id, developer_id FROM api_keys WHERE fingerprint = ? AND revoked_at IS NULL',
    ),
    // The fingerprints of one turn as a JSON array: one prepared statement whatever their number (the UNIQUE index is searched per value).
    activeKeysByFingerprints: db.prepare<[string], ActiveKeyRow & { fingerprint: string }>(
      'SELECT fingerprint, id, developer_id FROM api_keys WHERE fingerprint IN (SELECT value FROM json_each(?)) AND revoked_at IS NULL',
    ),
    // The time guard also holds across processes sharing the file (CLI, several servers).
    markUsed: db.prepare<[string, number, string]>(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    ),
  };
  statements.countActiveKeys.pluck();
  statements.reservedKeyedOtherwise.pluck();
  return statements;
}
