// The key repository over SQLite: prepared statements made once; keys found by fingerprint, never by value.
import type { Db } from '../db/open.ts';
import { generateKey, keyHint } from './format.ts';
import type { Fingerprinter } from './fingerprint.ts';
import {
  KeyRefusal,
  LAST_USED_INTERVAL_MS,
  MAX_ACTIVE_KEYS,
  normalizeEmail,
  type ApiKeyRecord,
  type CreatedKey,
  type Developer,
  type KeyRepository,
  type NewDeveloper,
} from './repository.ts';

interface DeveloperRow {
  id: number;
  name: string;
  email: string;
  email_verified_at: string | null;
  created_at: string;
}

interface ApiKeyRow {
  id: number;
  developer_id: number;
  name: string;
  hint: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface ActiveKeyRow {
  id: number;
  developer_id: number;
}

const KEY_COLUMNS = 'id, developer_id, name, hint, created_at, last_used_at, revoked_at';
const DEVELOPER_COLUMNS = 'id, name, email, email_verified_at, created_at';

export function createSqliteKeyRepository(db: Db): KeyRepository {
  const statements = {
    insertDeveloper: db.prepare<[string, string, string | null, string]>(
      'INSERT INTO developers (name, email, email_verified_at, created_at) VALUES (?, ?, ?, ?)',
    ),
    developerByEmail: db.prepare<[string], DeveloperRow>(`SELECT ${DEVELOPER_COLUMNS} FROM developers WHERE email = ?`),
    developerById: db.prepare<[number], DeveloperRow>(`SELECT ${DEVELOPER_COLUMNS} FROM developers WHERE id = ?`),
    verifyDeveloper: db.prepare<[string, number]>(
      'UPDATE developers SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL',
    ),
    reservedEmail: db.prepare<[string], { email: string }>('SELECT email FROM reserved_emails WHERE email = ?'),
    insertReservedEmail: db.prepare<[string, string]>('INSERT OR IGNORE INTO reserved_emails (email, imported_at) VALUES (?, ?)'),
    countActiveKeys: db.prepare<[number], number>(
      'SELECT count(*) FROM api_keys WHERE developer_id = ? AND revoked_at IS NULL',
    ),
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
    keyOfDeveloper: db.prepare<[number, number], ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ? AND developer_id = ?`,
    ),
    activeKeyByFingerprint: db.prepare<[string], ActiveKeyRow>(
      'SELECT id, developer_id FROM api_keys WHERE fingerprint = ? AND revoked_at IS NULL',
    ),
    // The time guard also holds across processes sharing the file (CLI, several servers).
    markUsed: db.prepare<[string, number, string]>(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    ),
  };
  statements.countActiveKeys.pluck();

  /** Last "last used" write per key id, in this process. */
  const lastWritten = new Map<number, number>();

  const isReservedEmail = (email: string): boolean => statements.reservedEmail.get(email.trim()) !== undefined;

  const developerById = (id: number): Developer => {
    const row = statements.developerById.get(id);
    if (!row) throw new KeyRefusal('unknown-developer', `No developer with id ${id}.`);
    return toDeveloper(row);
  };

  const createKeyInTransaction = db.transaction((developerId: number, name: string, fingerprinter: Fingerprinter): CreatedKey => {
    const developer = developerById(developerId);
    if (developer.emailVerifiedAt === null) {
      throw new KeyRefusal('unverified-email', `The e-mail address ${developer.email} is not verified yet; a key can be created once it is.`);
    }
    const active = statements.countActiveKeys.get(developerId) as number;
    if (active >= MAX_ACTIVE_KEYS) {
      throw new KeyRefusal('key-limit', `A developer may hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one before creating another.`);
    }
    const key = generateKey();
    const inserted = statements.insertKey.run(developerId, name, fingerprinter.fingerprint(key), keyHint(key), new Date().toISOString());
    const row = statements.keyById.get(Number(inserted.lastInsertRowid));
    if (!row) throw new Error('The key just inserted could not be read back.');
    return { key, record: toKeyRecord(row) };
  });

  const importInTransaction = db.transaction((emails: readonly string[]): number => {
    const now = new Date().toISOString();
    let added = 0;
    for (const email of emails) added += statements.insertReservedEmail.run(email, now).changes;
    return added;
  });

  return {
    createDeveloper({ name, email, verified = false }: NewDeveloper): Developer {
      const trimmedName = name.trim();
      if (trimmedName.length === 0 || trimmedName.length > 200) throw new KeyRefusal('invalid-name', 'A developer name must be 1 to 200 characters.');
      const address = normalizeEmail(email);
      if (isReservedEmail(address)) {
        throw new KeyRefusal('reserved-email', `The address ${address} is linked to another of our products and cannot be used for a developer account.`);
      }
      if (statements.developerByEmail.get(address)) throw new KeyRefusal('duplicate-email', `A developer with the address ${address} already exists.`);
      const now = new Date().toISOString();
      const inserted = statements.insertDeveloper.run(trimmedName, address, verified ? now : null, now);
      return developerById(Number(inserted.lastInsertRowid));
    },

    findDeveloperByEmail(email) {
      const row = statements.developerByEmail.get(email.trim());
      return row ? toDeveloper(row) : undefined;
    },

    verifyDeveloperEmail(developerId, when = new Date()) {
      developerById(developerId);
      statements.verifyDeveloper.run(when.toISOString(), developerId);
      return developerById(developerId);
    },

    createKey(developerId, name, fingerprinter) {
      const trimmedName = name.trim();
      if (trimmedName.length === 0 || trimmedName.length > 100) throw new KeyRefusal('invalid-name', 'A key needs a name of 1 to 100 characters (say which site or application uses it).');
      // IMMEDIATE takes the write lock before counting, so two processes cannot both create a 5th key.
      return createKeyInTransaction.immediate(developerId, trimmedName, fingerprinter);
    },

    listKeys(developerId) {
      return statements.keysOfDeveloper.all(developerId).map(toKeyRecord);
    },

    revokeKey(developerId, keyId, when = new Date()) {
      statements.revokeKey.run(when.toISOString(), keyId, developerId);
      const row = statements.keyOfDeveloper.get(keyId, developerId);
      if (!row) throw new KeyRefusal('unknown-key', `The developer has no key with id ${keyId}.`);
      lastWritten.delete(keyId);
      return toKeyRecord(row);
    },

    activeKeyByFingerprint(fingerprint) {
      const row = statements.activeKeyByFingerprint.get(fingerprint);
      return row ? { id: row.id, developerId: row.developer_id } : undefined;
    },

    markUsed(keyId, when) {
      const now = when.getTime();
      const previous = lastWritten.get(keyId);
      if (previous !== undefined && now - previous < LAST_USED_INTERVAL_MS) return false;
      lastWritten.set(keyId, now);
      const threshold = new Date(now - LAST_USED_INTERVAL_MS).toISOString();
      return statements.markUsed.run(when.toISOString(), keyId, threshold).changes > 0;
    },

    isReservedEmail,

    importReservedEmails(emails) {
      const problems: string[] = [];
      const normalized: string[] = [];
      emails.forEach((email, index) => {
        try {
          normalized.push(normalizeEmail(email).toLowerCase());
        } catch {
          problems.push(`entry ${index + 1}: "${email}"`);
        }
      });
      if (problems.length > 0) {
        throw new KeyRefusal('invalid-email', `Nothing imported: ${problems.length} invalid address(es): ${problems.slice(0, 10).join(', ')}${problems.length > 10 ? ', …' : ''}.`);
      }
      return importInTransaction(normalized);
    },
  };
}

function toDeveloper(row: DeveloperRow): Developer {
  return { id: row.id, name: row.name, email: row.email, emailVerifiedAt: row.email_verified_at, createdAt: row.created_at };
}

function toKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    developerId: row.developer_id,
    name: row.name,
    hint: row.hint,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
