// Every path of the API answers GET and HEAD only; anything else is 405 with Allow, before auth or lookup.
import type { RequestHandler } from 'express';
import { ALLOWED_METHODS } from '../../build/contract/http-policy.ts';
import { problems } from '../../build/contract/problems.ts';
import { ApiError } from './problem.ts';

const allowed = new Set<string>(ALLOWED_METHODS);

export const methodGuard: RequestHandler = (req, _res, next) => {
  if (allowed.has(req.method)) return next();
  next(new ApiError(problems.methodNotAllowed(req.method)));
};
