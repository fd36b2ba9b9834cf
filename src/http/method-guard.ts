// Every path of the API answers GET and HEAD only; anything else is 405 with Allow, before auth or lookup.
import type { RequestHandler } from 'express';
import { ApiError } from './problem.ts';

export const ALLOWED_METHODS = 'GET, HEAD';

export const methodGuard: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  next(
    new ApiError(405, 'method-not-allowed', {
      title: 'Method not allowed',
      detail: `This API is read-only: ${req.method} is not allowed; use GET or HEAD.`,
      headers: { Allow: ALLOWED_METHODS },
    }),
  );
};
