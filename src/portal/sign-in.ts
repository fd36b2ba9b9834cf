// Routes of signing in and out with e-mail and password, and of resetting a forgotten password.
import express, { type RequestHandler, type Router } from 'express';
import type { PortalAuthService } from './auth-service.ts';
import { formErrors } from './form-error.ts';
import { csrfToken, formText, sendPage } from './page-response.ts';
import { endSession, startSignedInSession } from './signed-in.ts';
import { forgotPasswordPage, linkInvalidPage, resetPasswordPage, resetSentPage, signInPage } from './views/auth-pages.ts';
import { FORM_ERROR } from './views/forms.ts';
import { html } from './views/html.ts';
import { PORTAL_PATH } from './views/layout.ts';

/** One answer for an unknown address, an account without a password, and a wrong password. */
const WRONG_CREDENTIALS = 'The e-mail address or the password is wrong.';

export interface SignInRouteOptions {
  auth: PortalAuthService;
  /** The failed-sign-in limiters (sign-in-throttle.ts). */
  throttle: RequestHandler[];
  /** Label of the provider button, when one is configured. */
  providerName?: string;
  /** Where messages go when none is sent (Mailer.outboxDir), named on the page that announces the reset link. */
  outboxDir?: string;
}

export function createSignInRoutes({ auth, throttle, providerName, outboxDir }: SignInRouteOptions): Router {
  const router = express.Router();

  router.get('/sign-in', (req, res) => {
    if (res.locals.developer) return res.redirect(303, `${PORTAL_PATH}/keys`);
    sendPage(req, res, 'Sign in', signInPage({ csrfToken: csrfToken(req), providerName }));
  });

  router.post('/sign-in', ...throttle, async (req, res) => {
    const email = formText(req, 'email');
    const developer = await auth.signIn(email, formText(req, 'password'));
    if (!developer) {
      const state = { csrfToken: csrfToken(req), providerName, errors: { [FORM_ERROR]: WRONG_CREDENTIALS }, values: { email } };
      return sendPage(req, res, 'Sign in', signInPage(state), 401);
    }
    await startSignedInSession(req, developer.id);
    res.redirect(303, `${PORTAL_PATH}/keys`);
  });

  router.post('/sign-out', async (req, res) => {
    await endSession(req, res);
    res.redirect(303, `${PORTAL_PATH}/`);
  });

  router.get('/forgot-password', (req, res) => {
    sendPage(req, res, 'Reset your password', forgotPasswordPage({ csrfToken: csrfToken(req) }));
  });

  router.post('/forgot-password', async (req, res) => {
    const email = formText(req, 'email');
    try {
      const address = await auth.requestPasswordReset(email, req.ip);
      sendPage(req, res, 'Check your inbox', resetSentPage(address, outboxDir));
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      sendPage(req, res, 'Reset your password', forgotPasswordPage({ csrfToken: csrfToken(req), errors, values: { email } }), 400);
    }
  });

  router.get('/reset-password', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!(await auth.resetLinkUsable(token))) return sendPage(req, res, 'Link no longer works', linkInvalidPage('reset'), 400);
    sendPage(req, res, 'Choose a new password', resetPasswordPage({ csrfToken: csrfToken(req), token }));
  });

  router.post('/reset-password', async (req, res) => {
    const token = formText(req, 'token');
    try {
      await auth.resetPassword(token, formText(req, 'password'));
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      if (errors.token) return sendPage(req, res, 'Link no longer works', linkInvalidPage('reset'), 400);
      return sendPage(req, res, 'Choose a new password', resetPasswordPage({ csrfToken: csrfToken(req), token, errors }), 400);
    }
    // Every session of the developer was ended; this browser's too, so nothing re-saves it as signed in.
    await endSession(req, res);
    sendPage(
      req,
      res,
      'Password changed',
      html`<h1>Your password is changed</h1>
<p>You were signed out everywhere. <a href="${PORTAL_PATH}/sign-in">Sign in</a> with the new password.</p>`,
    );
  });

  return router;
}
