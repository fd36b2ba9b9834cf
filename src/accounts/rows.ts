// The account tables' rows and their mapping to records: one shape for both backends (SQLite and PostgreSQL return the same columns).
import type { ApiKeyRecord, Developer, DeveloperListing } from './types.ts';

export interface DeveloperRow {
  id: number;
  name: string;
  email: string;
  email_verified_at: string | null;
  created_at: string;
}

export interface DeveloperListingRow extends DeveloperRow {
  active_keys: number;
}

export interface ApiKeyRow {
  id: number;
  developer_id: number;
  name: string;
  hint: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const KEY_COLUMNS = 'id, developer_id, name, hint, created_at, last_used_at, revoked_at';
export const DEVELOPER_COLUMNS = 'id, name, email, email_verified_at, created_at';

export function toDeveloper(row: DeveloperRow): Developer {
  return { id: row.id, name: row.name, email: row.email, emailVerifiedAt: row.email_verified_at, createdAt: row.created_at };
}

export function toDeveloperListing(row: DeveloperListingRow): DeveloperListing {
  return { ...toDeveloper(row), activeKeys: row.active_keys };
}

export function toKeyRecord(row: ApiKeyRow): ApiKeyRecord {
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
