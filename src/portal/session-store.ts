// express-session's store over our session repository: ids hashed before they reach storage, expired sessions swept now and then.
import { createHash } from 'node:crypto';
import session from 'express-session';
import type { SessionRepository } from './storage/session-repository.ts';

/** Expired rows are deleted at most this often, on a write. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * A store for express-session. The database holds SHA-256(session id), so a copy of it cannot be
 * turned back into a cookie; the signed-in developer is kept in a column so a password reset can
 * end all their sessions.
 *
 * @example session({ store: new RepositorySessionStore(repository, 24 * 3600_000), … })
 */
export class RepositorySessionStore extends session.Store {
  readonly #repository: SessionRepository;
  readonly #idleMs: number;
  readonly #now: () => Date;
  #lastSweep = 0;

  constructor(repository: SessionRepository, idleMs: number, now: () => Date = () => new Date()) {
    super();
    this.#repository = repository;
    this.#idleMs = idleMs;
    this.#now = now;
  }

  override get(sid: string, callback: (error: unknown, session?: session.SessionData | null) => void): void {
    this.#repository
      .find(hashSessionId(sid), this.#now().toISOString())
      .then((stored) => callback(null, stored ? (JSON.parse(stored.data) as session.SessionData) : null), callback);
  }

  override set(sid: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    this.#repository
      .save(hashSessionId(sid), { data: JSON.stringify(data), developerId: data.developerId ?? null, expiresAt: this.#expiry(data) })
      .then(() => this.#sweep())
      .then(
        () => callback?.(),
        (error: unknown) => callback?.(error),
      );
  }

  override destroy(sid: string, callback?: (error?: unknown) => void): void {
    this.#repository.delete(hashSessionId(sid)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override touch(sid: string, data: session.SessionData, callback?: () => void): void {
    this.#repository.touch(hashSessionId(sid), this.#expiry(data)).then(
      () => callback?.(),
      () => callback?.(),
    );
  }

  #expiry(data: session.SessionData): string {
    const expires = data.cookie?.expires;
    return (expires ? new Date(expires) : new Date(this.#now().getTime() + this.#idleMs)).toISOString();
  }

  async #sweep(): Promise<void> {
    const now = this.#now();
    if (now.getTime() - this.#lastSweep < SWEEP_INTERVAL_MS) return;
    this.#lastSweep = now.getTime();
    await this.#repository.deleteExpired(now.toISOString());
  }
}

/** What the repository stores and finds sessions by: SHA-256 of the id, lowercase hex. */
export function hashSessionId(sid: string): string {
  return createHash('sha256').update(sid, 'utf8').digest('hex');
}
