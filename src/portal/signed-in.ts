// Who is signed in: loading the developer of the session, requiring one, and starting or ending a signed-in session.
import type { Request, RequestHandler, Response } from 'express';
import type { AccountService } from '../accounts/service.ts';
import type { Developer } from '../accounts/types.ts';
import type { PortalLocals } from './page-response.ts';
import { PORTAL_PATH } from './views/layout.ts';

/** Sets res.locals.developer when the session belongs to a developer who still exists. */
export function loadDeveloper(accounts: AccountService): RequestHandler {
  return async (req, res, next) => {
    const developerId = req.session?.developerId;
    if (developerId === undefined) return next();
    const developer = await accounts.developerById(developerId);
    if (developer) (res.locals as PortalLocals).developer = developer;
    else delete req.session.developerId;
    next();
  };
}

/** Pages for signed-in developers: others go to the sign-in page. */
export const requireDeveloper: RequestHandler = (_req, res, next) => {
  if ((res.locals as PortalLocals).developer) return next();
  res.redirect(303, `${PORTAL_PATH}/sign-in`);
};

/** The signed-in developer of a route behind requireDeveloper. */
export function currentDeveloper(res: { locals: Record<string, unknown> }): Developer {
  const developer = (res.locals as PortalLocals).developer;
  if (!developer) throw new Error('currentDeveloper needs requireDeveloper before the route.');
  return developer;
}

/**
 * Signs the developer in with a new session id (no id known before sign-in stays valid, so a
 * planted cookie cannot be ridden), carrying nothing over from the old session. The session's
 * CSRF token is made now, so the pages that follow change nothing in it and write no session row.
 */
export function startSignedInSession(req: Request, developerId: number): Promise<void> {
  const previous = { id: req.sessionID, session: req.session };
  return new Promise((resolve, reject) => {
    req.session.regenerate((error: unknown) => {
      if (error) {
        // The old session could not be ended (the database is locked or down), yet express-session made
        // a new one: keep the old one instead, so the error page leaves the visitor's form valid to send again.
        req.sessionID = previous.id;
        req.session = previous.session;
        return reject(error);
      }
      req.session.developerId = developerId;
      req.csrfToken?.();
      req.session.save((saveError: unknown) => (saveError ? reject(saveError) : resolve()));
    });
  });
}

/** Ends the session: its row is deleted, the cookie no longer names anything, and this response is a signed-out one. */
export function endSession(req: Request, res: Response): Promise<void> {
  delete (res.locals as PortalLocals).developer;
  return new Promise((resolve, reject) => req.session.destroy((error: unknown) => (error ? reject(error) : resolve())));
}
