// The one error a storage backend throws when its database cannot answer now (down, unreachable, timed out): a 503, not a 500.
import { ApiError } from '../http/problem.ts';
import { serviceProblems } from '../http/problems.ts';

/** Seconds a client is asked to wait after a database outage answer: long enough for a restart or a failover to begin. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Thrown by a repository when the database is unreachable or too slow (connection refused or cut,
 * no free connection within the connect timeout, a statement past its timeout). The request may
 * succeed later: the error carries its answer, 503 `database-unavailable` with Retry-After, and is
 * logged at warn ("database unavailable") where it is answered.
 *
 * @example if (error instanceof StorageUnavailableError) … // retry later, do not report a bug
 */
export class StorageUnavailableError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(serviceProblems.databaseUnavailable(DATABASE_RETRY_AFTER_SECONDS), {
      message,
      cause: options?.cause,
      warning: 'database unavailable',
    });
    this.name = 'StorageUnavailableError';
  }
}
