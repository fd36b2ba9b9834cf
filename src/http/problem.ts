// The one error type of the service: a problem of the catalogue, thrown anywhere and sent as problem+json by errors.ts.
import type { Problem } from '../../build/contract/problems.ts';

export interface ApiErrorOptions {
  /** The error's message (in logs); the problem's detail when not given. */
  message?: string;
  cause?: unknown;
  /**
   * For a condition of the server's rather than a fault of the request (a database that cannot
   * answer now): where the error is answered, it is also logged at warn with this message.
   */
  warning?: string;
}

/**
 * An error that becomes an RFC 9457 problem details response. It only wraps a Problem, and a
 * Problem is only made by the catalogue's named constructors (build/contract/problems.ts,
 * src/http/problems.ts), so every error the service answers has a documented type. An error of a
 * lower floor that knows its answer extends it (db/storage-unavailable.ts), so the HTTP layer
 * needs to know nothing of where it came from.
 *
 * @example throw new ApiError(problems.invalidParameter('size', 'size must be an integer from 1 to 50'))
 */
export class ApiError extends Error {
  readonly problem: Problem;
  readonly warning?: string;

  constructor(problem: Problem, { message, cause, warning }: ApiErrorOptions = {}) {
    super(message ?? problem.detail, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.problem = problem;
    if (warning !== undefined) this.warning = warning;
  }
}
