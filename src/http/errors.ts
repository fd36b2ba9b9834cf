// The one place where errors become RFC 9457 problem+json responses.
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ApiError } from './problem.ts';
import type { Logger } from './logger.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Writes an ApiError as problem+json with its headers. */
export function sendProblem(res: Response, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(error.toBody()));
}

/** Last route: any path that matched nothing is a 404 problem. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(ApiError.notFound(`No resource at ${req.path}.`));
};

/** Error middleware: ApiError as is; body-parser style errors with a status as 4xx; anything else a logged 500. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof ApiError) return sendProblem(res, err);
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) {
      logger.error({ requestId: res.locals.requestId, path: req.originalUrl, err }, 'unhandled error');
      return sendProblem(res, new ApiError(500, 'internal', { title: 'Internal error', detail: 'The server could not answer this request. It has been logged.' }));
    }
    sendProblem(res, new ApiError(status, 'bad-request', { title: 'Bad request', detail: String(err?.message ?? 'Bad request') }));
  };
}
