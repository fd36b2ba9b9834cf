// The one error type of the service; a single middleware (errors.ts) turns it into problem+json.

export interface ProblemOptions {
  /** Short, stable title for the problem type ("Invalid parameter"). */
  title: string;
  /** Human-readable explanation of this occurrence; names the parameter when there is one. */
  detail: string;
  /** The query or path parameter at fault, when there is one. */
  parameter?: string;
  /** Extra response headers (WWW-Authenticate, Allow, Retry-After). */
  headers?: Record<string, string>;
}

/** Base of the `type` URIs; each problem type has a stable slug under it. */
export const PROBLEM_TYPE_BASE = 'https://church-api.invalid/problems/';

/**
 * An error that becomes an RFC 9457 problem details response.
 *
 * @example throw ApiError.badRequest('size', 'size must be an integer from 1 to 50')
 */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly parameter?: string;
  readonly headers: Record<string, string>;

  constructor(status: number, typeSlug: string, options: ProblemOptions) {
    super(options.detail);
    this.name = 'ApiError';
    this.status = status;
    this.type = PROBLEM_TYPE_BASE + typeSlug;
    this.title = options.title;
    this.detail = options.detail;
    this.parameter = options.parameter;
    this.headers = options.headers ?? {};
  }

  /** 400 for a query or path parameter that is missing, malformed or out of bounds. */
  static badRequest(parameter: string, detail: string): ApiError {
    return new ApiError(400, 'invalid-parameter', { title: 'Invalid parameter', detail, parameter });
  }

  /** 404 for a resource that does not exist (or must look as if it did not). */
  static notFound(detail: string, parameter?: string): ApiError {
    return new ApiError(404, 'not-found', { title: 'Not found', detail, parameter });
  }

  /** The JSON body: type, title, status, detail, and the parameter when there is one. */
  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      type: this.type,
      title: this.title,
      status: this.status,
      detail: this.detail,
    };
    if (this.parameter !== undefined) body.parameter = this.parameter;
    return body;
  }
}
