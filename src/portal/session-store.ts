// express-session's store over our session repository: ids hashed before they reach storage, expiry moved at most once a minute, expired sessions swept now and then.
import { createHash } from 'node:crypto';
import session from 'express-session';
import { LRUCache } from 'lru-cache';
import type { SessionRepository } from './storage/session-repository.ts';

/** Expired rows are deleted at most this often, on a write. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/**
 * A session's stored expiry is moved forward only when that gains at least this much: an idle
 * session then ends within a minute of its idle time, and reading pages writes nothing more often.
 */
export const TOUCH_INTERVAL_MS = 60 * 1000;
/** Sessions whose stored expiry is remembered (to skip touches); one more only costs a write. */
const EXPIRIES_KEPT = 10_000;

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
  /** The expiry each recently read or written session has in storage, by id hash. */
  readonly #storedExpiry = new LRUCache<string, number>({ max: EXPIRIES_KEPT });
  #lastSweep = 0;

  constructor(repository: SessionRepository, idleMs: number, now: () => Date = () => new Date()) {
    super();
    this.#repository = repository;
    this.#idleMs = idleMs;
    this.#now = now;
  }

  override get(sid: string, callback: (error: unknown, session?: session.SessionData | null) => void): void {
    const idHash = hashSessionId(sid);
    this.#repository.find(idHash, this.#now().toISOString()).then((stored) => {
      if (!stored) return callback(null, null);
      this.#storedExpiry.set(idHash, Date.parse(stored.expiresAt));
      callback(null, JSON.parse(stored.data) as session.SessionData);
    }, callback);
  }

  override set(sid: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    const idHash = hashSessionId(sid);
    const expiresAt = this.#expiry(data);
    this.#repository
      .save(idHash, { data: JSON.stringify(data), developerId: data.developerId ?? null, expiresAt })
      .then(() => {
        this.#storedExpiry.set(idHash, Date.parse(expiresAt));
        return this.#sweep();
      })
      .then(
        () => callback?.(),
        (error: unknown) => callback?.(error),
      );
  }

  override destroy(sid: string, callback?: (error?: unknown) => void): void {
    const idHash = hashSessionId(sid);
    this.#storedExpiry.delete(idHash);
    this.#repository.delete(idHash).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  /**
   * express-session calls this after every request whose session did not change. The stored
   * expiry is moved only when that gains TOUCH_INTERVAL_MS or more, so reading pages writes a
   * session row at most once a minute; and the response never waits for it (a write that fails,
   * the database being locked, is tried again by a later request, since the stored expiry stays behind).
   */
  override touch(sid: string, data: session.SessionData, callback?: () => void): void {
    callback?.();
    const idHash = hashSessionId(sid);
    const expiresAt = this.#expiry(data);
    const stored = this.#storedExpiry.get(idHash);
    if (stored !== undefined && Date.parse(expiresAt) - stored < TOUCH_INTERVAL_MS) return;
    this.#repository.touch(idHash, expiresAt).then(
      () => this.#storedExpiry.set(idHash, Date.parse(expiresAt)),
      () => undefined,
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
