// The one error type of the service: a problem of the catalogue, thrown anywhere and answered as problem+json by the one error mapping (errors.ts).
import type { Problem } from '../../build/contract/problems.ts';

/** How the server logs an error it answers with a problem: the problem is not the client's doing (a database down). */
export interface ProblemLog {
  level: 'warn' | 'error';
  message: string;
}

/**
 * An error that becomes an RFC 9457 problem details response. It only wraps a Problem, and a
 * Problem is only made by the catalogue's named constructors (build/contract/problems.ts), so
 * every error the service answers has a documented type. An error of a lower floor that means a
 * problem (db/'s StorageUnavailableError: 503 database-unavailable) extends it and carries its own,
 * so the HTTP layer needs to know no such error by name.
 *
 * @example throw new ApiError(problems.invalidParameter('size', 'size must be an integer from 1 to 50'))
 */
export class ApiError extends Error {
  declare readonly problem: Problem;
  /** Set when the server logs it (its own failure, not the client's); a client's mistake is answered, not logged. */
  declare readonly log?: ProblemLog;

  constructor(problem: Problem, options: { message?: string; cause?: unknown; log?: ProblemLog } = {}) {
    super(options.message ?? problem.detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    // Not enumerable: a logged error (pino copies an error's own enumerable fields) shows its message and cause, as before.
    Object.defineProperty(this, 'problem', { value: problem });
    if (options.log) Object.defineProperty(this, 'log', { value: options.log });
  }
}

/**
 * The problem a piece of the service's own code throws, for a documented example that is exactly
 * what it answers.
 *
 * @example problemThrownBy(() => sizeParameter.read('0', {})).parameter // 'size'
 */
export function problemThrownBy(run: () => unknown): Problem {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.problem;
    throw error;
  }
  throw new Error('Expected the example input to be refused.');
}
