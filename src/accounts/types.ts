// Developer accounts and their API keys as the service, the CLI and the portal see them (never a key's secret part).

export interface Developer {
  id: number;
  name: string;
  /** Normalised: trimmed and lower case (see normalizeEmail in service.ts). */
  email: string;
  /** ISO time the address was verified; null while unverified. */
  emailVerifiedAt: string | null;
  createdAt: string;
}

/** A developer in the operator's list, with how many of their keys are active. */
export interface DeveloperListing extends Developer {
  activeKeys: number;
}

/** What is kept about a key: never the key, only a hint of it. */
export interface ApiKeyRecord {
  id: number;
  developerId: number;
  name: string;
  /** Last 4 characters of the key. */
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The result of creating a key: the full key, to be shown once, and what was stored. */
export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

/** An active key found by its fingerprint: what the auth middleware needs. */
export interface ActiveKey {
  id: number;
  developerId: number;
}

/** A deleted developer and how many active keys stopped working with the deletion. */
export interface DeletedDeveloper {
  developer: Developer;
  revokedKeys: number;
}

export interface NewDeveloper {
  name: string;
  email: string;
  /** Verified at creation (an identity provider vouched for it, or the operator did). */
  verified?: boolean;
}
