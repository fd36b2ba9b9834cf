// Routes of signing up and verifying the e-mail address (and sending the link again).
import express, { type Router } from 'express';
import type { PortalAuthService } from './auth-service.ts';
import { formErrors } from './form-error.ts';
import { csrfToken, formText, redirectWithNotice, sendPage } from './page-response.ts';
import { currentDeveloper, requireDeveloper } from './signed-in.ts';
import { checkInboxPage, emailVerifiedPage, linkInvalidPage, signUpPage, verifyEmailPage } from './views/auth-pages.ts';
import { PORTAL_PATH } from './views/layout.ts';

/** `outboxDir`: where messages go when none is sent (Mailer.outboxDir), named on the pages that announce one. */
export function createSignUpRoutes(auth: PortalAuthService, outboxDir: string | undefined): Router {
  const router = express.Router();

  router.get('/sign-up', (req, res) => {
    if (res.locals.developer) return res.redirect(303, `${PORTAL_PATH}/keys`);
    sendPage(req, res, 'Create an account', signUpPage({ csrfToken: csrfToken(req) }));
  });

  router.post('/sign-up', async (req, res) => {
    const input = { name: formText(req, 'name'), email: formText(req, 'email'), password: formText(req, 'password') };
    try {
      const email = await auth.signUp(input, req.ip);
      sendPage(req, res, 'Check your inbox', checkInboxPage(email, outboxDir));
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      const values = { name: input.name, email: input.email };
      sendPage(req, res, 'Create an account', signUpPage({ csrfToken: csrfToken(req), errors, values }), 400);
    }
  });

  router.get('/verify-email', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!(await auth.verificationLinkUsable(token))) {
      return sendPage(req, res, 'Link no longer works', linkInvalidPage('verification'), 400);
    }
    sendPage(req, res, 'Verify your e-mail address', verifyEmailPage({ csrfToken: csrfToken(req), token }));
  });

  router.post('/verify-email', async (req, res) => {
    const developer = await auth.verifyEmail(formText(req, 'token'));
    if (!developer) return sendPage(req, res, 'Link no longer works', linkInvalidPage('verification'), 400);
    if (req.session.developerId === developer.id)
      return redirectWithNotice(req, res, `${PORTAL_PATH}/keys`, 'Your address is verified: you can create keys now.');
    sendPage(req, res, 'Address verified', emailVerifiedPage(false));
  });

  router.post('/verify-email/resend', requireDeveloper, async (req, res) => {
    const developer = currentDeveloper(res);
    await auth.resendVerification(developer.id, req.ip);
    const sent =
      outboxDir === undefined
        ? `We sent a new verification link to ${developer.email}`
        : `This service sends no e-mail (no SMTP_URL is set): a new verification link for ${developer.email} is written as an .eml file to ${outboxDir} on the server, and to the service's log`;
    redirectWithNotice(req, res, `${PORTAL_PATH}/keys`, `${sent}; it is valid for 24 hours.`);
  });

  return router;
}
