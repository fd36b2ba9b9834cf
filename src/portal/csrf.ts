// CSRF protection of every portal form: csrf-sync's per-session token once signed in; before that, a signed double-submit token that needs no stored session.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { csrfSync } from 'csrf-sync';
import type { Request, RequestHandler, Response } from 'express';
import type { Fingerprinter } from '../keys/fingerprint.ts';
import { PORTAL_PATH } from './views/layout.ts';

/** The cookie of anonymous forms: a random value the page's token is an HMAC of. */
export const FORM_COOKIE = 'portal_form';
const FORM_COOKIE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const NONCE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface PortalCsrf {
  /** Refuses a POST (403 through the error handler) without the right token; GET and HEAD pass. */
  protect: RequestHandler;
  /** The token for this page's forms; for a signed-out visitor it sets the form cookie if there is none. */
  token(req: Request, res: Response): string;
  /** Whether an error is this protection's refusal. */
  isRefusal(error: unknown): boolean;
}

/**
 * Signed in (the session names a developer), forms carry csrf-sync's token, kept in the session.
 * Signed out, nothing is stored: the form page sets a cookie holding a random value (HttpOnly,
 * SameSite=Lax, the portal's path) and its forms carry an HMAC of that value under a key derived
 * from the fingerprint secret (OWASP's signed double-submit cookie). Another site can neither read
 * the cookie nor make the HMAC, so it cannot post a form in a visitor's name (sign-in included,
 * which would otherwise sign the visitor into an account of the attacker's), and reading a form
 * page costs no session row (express-session's saveUninitialized is false and nothing is put in
 * the session before sign-in).
 *
 * @example router.use(csrf.protect); … csrfField(csrf.token(req, res))
 */
export function createPortalCsrf(fingerprinter: Fingerprinter, secure: boolean | 'auto'): PortalCsrf {
  const signedIn = csrfSync({
    getTokenFromRequest: (req) => {
      const token: unknown = (req.body as Record<string, unknown> | undefined)?._csrf;
      return typeof token === 'string' ? token : undefined;
    },
    size: 32,
  });
  const key = Buffer.from(fingerprinter.fingerprint('portal anonymous form token v1'), 'hex');
  const formToken = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url');
  const isSignedIn = (req: Request) => req.session?.developerId !== undefined;

  const refusal = () => Object.assign(new Error('invalid csrf token'), { code: 'EBADCSRFTOKEN', status: 403 });

  return {
    protect(req, res, next) {
      if (isSignedIn(req)) return signedIn.csrfSynchronisedProtection(req, res, next);
      // Signing in makes the session's token (signed-in.ts), so that the pages after it write nothing.
      req.csrfToken = (overwrite?: boolean) => signedIn.generateToken(req, overwrite);
      if (req.method === 'GET' || req.method === 'HEAD') return next();
      const nonce = readCookie(req, FORM_COOKIE);
      const sent: unknown = (req.body as Record<string, unknown> | undefined)?._csrf;
      if (nonce === undefined || !NONCE_SHAPE.test(nonce) || typeof sent !== 'string') return next(refusal());
      const expected = Buffer.from(formToken(nonce));
      const given = Buffer.from(sent);
      next(expected.length === given.length && timingSafeEqual(expected, given) ? undefined : refusal());
    },
    token(req, res) {
      if (isSignedIn(req)) return req.csrfToken?.() ?? '';
      let nonce = readCookie(req, FORM_COOKIE);
      if (nonce === undefined || !NONCE_SHAPE.test(nonce)) {
        nonce = randomBytes(32).toString('base64url');
        res.cookie(FORM_COOKIE, nonce, {
          path: PORTAL_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure: secure === 'auto' ? req.secure : secure,
          maxAge: FORM_COOKIE_MAX_AGE_MS,
        });
      }
      return formToken(nonce);
    },
    isRefusal(error) {
      return error === signedIn.invalidCsrfTokenError || (error as { code?: unknown } | undefined)?.code === 'EBADCSRFTOKEN';
    },
  };
}

/** One cookie's value from the request's Cookie header (the portal reads no other cookie itself). */
function readCookie(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1).trim());
  }
  return undefined;
}
