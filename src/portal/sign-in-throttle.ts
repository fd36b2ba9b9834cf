// Failed sign-ins throttled per account (the address typed) and per client address, in the shared limit stores.
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { type AugmentedRequest, ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Logger } from '../http/logger.ts';
import { limiterLogger } from '../limits/limiter-logger.ts';
import type { LimitStores } from '../limits/stores.ts';
import { sendPage } from './page-response.ts';
import { errorPage } from './views/error-page.ts';

/** The window failed attempts are counted in. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins per account per window: enough for typos, far too few for guessing. */
export const FAILED_SIGN_INS_PER_ACCOUNT = 10;
/** Failed sign-ins per client address per window, whatever the accounts tried. */
export const FAILED_SIGN_INS_PER_CLIENT = 50;

/** What the throttle is made from: its two stores (per address, per account) and where store errors are logged. */
export interface SignInThrottleDependencies {
  limitStores: Pick<LimitStores, 'signInAccount' | 'signInClient'>;
  logger: Logger;
}

/**
 * Two limiters to put before the sign-in handler. Only failures count (the handler answers 401 for
 * them); the account is counted whether or not it exists, so the throttle reveals no account.
 */
export function createSignInThrottle(services: SignInThrottleDependencies): RequestHandler[] {
  const common = {
    windowMs: SIGN_IN_WINDOW_MS,
    standardHeaders: false,
    legacyHeaders: false,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req: unknown, res: { statusCode: number }) => res.statusCode < 400,
    passOnStoreError: true,
    handler: ((req, res) => {
      const minutes = Math.max(
        1,
        Math.ceil(((req as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? Date.now() + SIGN_IN_WINDOW_MS) - Date.now()) / 60_000,
      );
      sendPage(
        req,
        res,
        'Too many attempts',
        errorPage('Too many attempts', `Too many failed sign-ins. Try again in ${minutes} minutes, or reset your password.`),
        429,
      );
    }) satisfies RequestHandler,
  } as const;
  return [
    rateLimit({
      ...common,
      limit: FAILED_SIGN_INS_PER_CLIENT,
      store: services.limitStores.signInClient,
      keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
      logger: limiterLogger(services.logger, 'sign-in-client'),
    }),
    rateLimit({
      ...common,
      limit: FAILED_SIGN_INS_PER_ACCOUNT,
      store: services.limitStores.signInAccount,
      // Hashed, so the limit store never holds the addresses people typed.
      keyGenerator: (req) => createHash('sha256').update(accountOf(req.body)).digest('hex'),
      logger: limiterLogger(services.logger, 'sign-in-account'),
    }),
  ];
}

function accountOf(body: unknown): string {
  const email = (body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}
