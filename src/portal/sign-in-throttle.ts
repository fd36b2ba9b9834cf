// Failed sign-ins throttled per client address and per account (the address typed), counted in the shared limit stores.
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Logger } from '../http/logger.ts';
import { limiterLogger } from '../limits/limiter-logger.ts';
import type { LimitStores } from '../limits/stores.ts';
import { createWindowCounts, type WindowCounts } from '../limits/window-limiter.ts';
import { sendPage } from './page-response.ts';
import { errorPage } from './views/error-page.ts';

/** What the throttle is made from: its two stores (per address, per account) and where store errors are logged. */
export interface SignInThrottleDependencies {
  limitStores: Pick<LimitStores, 'signInAccount' | 'signInClient'>;
  logger: Logger;
}

/** The window failed attempts are counted in. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins per account per window: enough for typos, far too few for guessing. */
export const FAILED_SIGN_INS_PER_ACCOUNT = 10;
/** Failed sign-ins per client address per window, whatever the accounts tried. */
export const FAILED_SIGN_INS_PER_CLIENT = 50;

/**
 * Two limiters to put before the sign-in handler, the client's first. Each counts the attempt and
 * takes the count back when the handler answers below 400, so only failures (the handler's 401s)
 * count; past its limit a limiter answers 429 itself (counted, the handler never runs). The account
 * is counted whether or not it exists, so the throttle reveals no account. A store that fails lets
 * the attempt through (logged).
 */
export function createSignInThrottle(services: SignInThrottleDependencies): RequestHandler[] {
  const { limitStores, logger } = services;
  return [
    failureLimiter({
      limit: FAILED_SIGN_INS_PER_CLIENT,
      counts: createWindowCounts({
        windowMs: SIGN_IN_WINDOW_MS,
        store: limitStores.signInClient,
        logger: limiterLogger(logger, 'sign-in-client'),
      }),
      keyOf: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    }),
    failureLimiter({
      limit: FAILED_SIGN_INS_PER_ACCOUNT,
      counts: createWindowCounts({
        windowMs: SIGN_IN_WINDOW_MS,
        store: limitStores.signInAccount,
        logger: limiterLogger(logger, 'sign-in-account'),
      }),
      // Hashed, so the limit store never holds the addresses people typed.
      keyOf: (req) => createHash('sha256').update(accountOf(req.body)).digest('hex'),
    }),
  ];
}

function failureLimiter({
  limit,
  counts,
  keyOf,
}: {
  limit: number;
  counts: WindowCounts;
  keyOf: (req: Request) => string;
}): RequestHandler {
  return async (req, res, next) => {
    const key = keyOf(req);
    const state = await counts.add(key);
    if (!state) return next();
    res.once('finish', () => {
      if (res.statusCode < 400) void counts.takeBack(key);
    });
    if (state.totalHits > limit) return tooManyAttempts(req, res, state.msToReset);
    next();
  };
}

function tooManyAttempts(req: Request, res: Response, msToReset: number): void {
  const minutes = Math.max(1, Math.ceil(msToReset / 60_000));
  sendPage(
    req,
    res,
    'Too many attempts',
    errorPage('Too many attempts', `Too many failed sign-ins. Try again in ${minutes} minutes, or reset your password.`),
    429,
  );
}

function accountOf(body: unknown): string {
  const email = (body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}
