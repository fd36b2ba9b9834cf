// Sending a portal page: the layout around the content, the CSRF token and the one-time notice, no caching.
import type { Request, Response } from 'express';
import type { Developer } from '../accounts/types.ts';
import type { SafeHtml } from './views/html.ts';
import { renderPage } from './views/layout.ts';

/** res.locals of portal requests, as signed-in.ts and the router set them. */
export interface PortalLocals {
  developer?: Developer;
  /** The token for this page's forms (csrf.ts), made on first use. */
  csrfToken?: () => string;
}

/**
 * @example sendPage(req, res, 'Sign in', signInPage({ csrfToken: csrfToken(req) }), 401)
 */
export function sendPage(req: Request, res: Response, title: string, content: SafeHtml, status = 200): void {
  const developer = (res.locals as PortalLocals).developer;
  const notice = req.session?.notice;
  if (notice !== undefined) delete req.session.notice;
  // Signed out, the layout has no form: no token asked for, so a visitor reading pages gets no session row.
  const page = renderPage({ csrfToken: developer ? csrfToken(req) : '', developerName: developer?.name, notice }, title, content);
  res.status(status).type('html').send(page.value);
}

/** The CSRF token of this page's forms (csrf.ts: the session's once signed in, else a signed double-submit one); every form carries it as `_csrf`. */
export function csrfToken(req: Request): string {
  return (req.res?.locals as PortalLocals | undefined)?.csrfToken?.() ?? '';
}

/** A text field of the posted form; anything else (missing, repeated) reads as ''. */
export function formText(req: Request, name: string): string {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Shows `message` on the next page, then redirects there (post/redirect/get). */
export function redirectWithNotice(req: Request, res: Response, location: string, message: string): void {
  req.session.notice = message;
  req.session.save(() => res.redirect(303, location));
}
