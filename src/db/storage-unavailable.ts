// The one error a storage backend throws when its database cannot answer now (down, unreachable, timed out): a 503 it carries itself, not a 500.
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from '../http/problem.ts';

/** Seconds a client is asked to wait after a database outage answer: long enough for a restart or a failover to begin. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Thrown by a repository when the database is unreachable or too slow (connection refused or cut,
 * no free connection within the connect timeout, a statement past its timeout). The request may
 * succeed later: it is answered 503 `database-unavailable` with Retry-After, and logged as a warning.
 *
 * @example if (error instanceof StorageUnavailableError) … // retry later, do not report a bug
 */
export class StorageUnavailableError extends ApiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(problems.databaseUnavailable(DATABASE_RETRY_AFTER_SECONDS), {
      message,
      cause: options?.cause,
      log: { level: 'warn', message: 'database unavailable' },
    });
    this.name = 'StorageUnavailableError';
  }
}
