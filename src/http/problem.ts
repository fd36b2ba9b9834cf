// The one error type of the service: a problem of the catalogue, thrown anywhere and sent as problem+json by errors.ts.
import type { Problem } from '../../build/contract/problems.ts';

/**
 * An error that becomes an RFC 9457 problem details response. It only wraps a Problem, and a
 * Problem is only made by the catalogue's named constructors (build/contract/problems.ts), so
 * every error the service answers has a documented type.
 *
 * @example throw new ApiError(problems.invalidParameter('size', 'size must be an integer from 1 to 50'))
 */
export class ApiError extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail);
    this.name = 'ApiError';
    this.problem = problem;
  }
}
