// Storage of portal sessions (express-session's data, keyed by a hash of the session id): store and fetch, no rules.

/** One stored session; `data` is express-session's JSON, opaque to the repository. */
export interface StoredSession {
  data: string;
  /** The signed-in developer, or null before sign-in. */
  developerId: number | null;
  /** ISO time after which the session is gone. */
  expiresAt: string;
}

/**
 * What the session store (src/portal/session-store.ts) needs. Ids arrive hashed (SHA-256, hex):
 * the repository never sees a usable session id. The contract is
 * test/portal/storage/session-repository-contract.test.ts; a second backend must pass it.
 *
 * @example
 * await sessions.save(idHash, { data: '{"cookie":{}}', developerId: 7, expiresAt });
 * await sessions.deleteForDeveloper(7); // after a password reset: every device signed out
 */
export interface SessionRepository {
  /** The session unless it has expired at `now`. */
  find(idHash: string, now: string): Promise<StoredSession | undefined>;
  /** Writes the session, replacing the one with this id. */
  save(idHash: string, session: StoredSession): Promise<void>;
  /** Moves the expiry of an existing session; no-op for an unknown id. */
  touch(idHash: string, expiresAt: string): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Ends every session of the developer but `exceptIdHash` (the one making the change); returns how many. */
  deleteForDeveloper(developerId: number, exceptIdHash?: string): Promise<number>;
  /** Removes sessions expired at `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
}
