// The one place where errors become RFC 9457 problem+json answers: the error mapping and the problem writer, for the dispatcher and for Express alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { PROBLEM_CONTENT_TYPE, PROBLEM_HEADERS } from '../../build/contract/http-policy.ts';
import { type Problem, problemBody, problems } from '../../build/contract/problems.ts';
import { requestIdOf } from './access-log.ts';
import type { Logger } from './logger.ts';
import { ApiError } from './problem.ts';

/** The headers (after the answer's own: request id, CORS, rate limit) and body of a problem, whatever writes it. */
export function problemHead(problem: Problem, publicBaseUrl: string): { headers: string[]; body: string } {
  const body = JSON.stringify(problemBody(problem, publicBaseUrl));
  const headers: string[] = [];
  for (const [name, value] of Object.entries({ ...PROBLEM_HEADERS, ...problem.headers })) headers.push(name, value);
  headers.push('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, 'Content-Length', String(Buffer.byteLength(body)));
  return { headers, body };
}

/**
 * Writes `problem` as problem+json: the `leading` headers (name, value…) first, then its own; no
 * body for HEAD. Headers already set on `res` (Express's) stay, before them.
 *
 * @example writeProblem(req, res, problems.pathNotFound('/x'), ['X-Request-Id', id], publicBaseUrl)
 */
export function writeProblem(
  req: IncomingMessage,
  res: ServerResponse,
  problem: Problem,
  leading: readonly string[],
  publicBaseUrl: string,
): void {
  const { headers, body } = problemHead(problem, publicBaseUrl);
  res.writeHead(problem.status, leading.length === 0 ? headers : [...leading, ...headers]);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The problem an error is answered with: a problem it carries (ApiError, logged when it says so:
 * a database that cannot answer now), the 4xx of an error with such a status (a body parser's),
 * else a logged 500.
 */
// biome-ignore lint/suspicious/noExplicitAny: an error handler's error is anything thrown.
export function problemForError(err: any, logger: Logger, request: { requestId: unknown; path: string }): Problem {
  if (err instanceof ApiError) {
    // The server's own condition (a database that cannot answer now), not the request's fault: worth a line.
    if (err.warning !== undefined) logger.warn({ ...request, err }, err.warning);
    return err.problem;
  }
  const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
  if (status === 500) {
    logger.error({ ...request, err }, 'unhandled error');
    return problems.internalError();
  }
  return problems.malformedRequest(status, String(err?.message ?? 'Bad request'));
}

/** Express's last route (the pages behind the dispatcher): any path that matched nothing is a 404 problem. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError(problems.pathNotFound(req.path)));
};

/** Express's error middleware: the error mapping and the problem writer above. */
export function problemHandler(logger: Logger, publicBaseUrl: string): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      // Too late for a problem body: the client sees a cut connection, the log says why.
      logger.error({ requestId: requestIdOf(res), path: req.originalUrl, err }, 'error after the response started');
      res.destroy();
      return;
    }
    writeProblem(req, res, problemForError(err, logger, { requestId: requestIdOf(res), path: req.originalUrl }), [], publicBaseUrl);
  };
}
