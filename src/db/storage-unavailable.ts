// The one error a storage backend throws when its database cannot answer now (down, unreachable, timed out): a 503, not a 500.

/**
 * Thrown by a repository when the database is unreachable or too slow (connection refused or cut,
 * no free connection within the connect timeout, a statement past its timeout). The request may
 * succeed later; the HTTP layer answers 503 `database-unavailable` with Retry-After.
 *
 * @example if (error instanceof StorageUnavailableError) … // retry later, do not report a bug
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}
