// The one place where errors become RFC 9457 problem+json responses.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { PROBLEM_CONTENT_TYPE, PROBLEM_HEADERS } from '../../build/contract/http-policy.ts';
import { type Problem, problemBody, problems } from '../../build/contract/problems.ts';
import type { Logger } from './logger.ts';
import { ApiError } from './problem.ts';

/** Writes a problem as problem+json with its headers; its type URI points under `publicBaseUrl`. */
export function sendProblem(res: Response, problem: Problem, publicBaseUrl: string): void {
  for (const [name, value] of Object.entries({ ...PROBLEM_HEADERS, ...problem.headers })) res.setHeader(name, value);
  res
    .status(problem.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problemBody(problem, publicBaseUrl)));
}

/** Last route: any path that matched nothing is a 404 problem. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError(problems.pathNotFound(req.path)));
};

/**
 * Error middleware: ApiError as is (logged when it carries a warning: a database that cannot answer now); body-parser
 * style errors with a status as 4xx; anything else a logged 500.
 */
export function problemHandler(logger: Logger, publicBaseUrl: string): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      // Too late for a problem body: the client sees a cut connection, the log says why.
      logger.error({ requestId: res.locals.requestId, path: req.originalUrl, err }, 'error after the response started');
      res.destroy();
      return;
    }
    sendProblem(res, problemForError(err, logger, { requestId: res.locals.requestId, path: req.originalUrl }), publicBaseUrl);
  };
}

/**
 * The problem an error is answered with, logged when it is the server's (503, 500): what
 * problemHandler sends, also for the handlers in front of Express (src/church/fast-path.ts).
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
